/** The manifests module's import surface: end-of-day forms. */
export { ManifestsService, BUILD_MANIFEST_JOB, scanFormNumber, type BuildManifestJob } from './manifests.service.js';
export { ManifestSchema, type Manifest } from './manifests.schemas.js';
export { MANIFEST_READY_EVENT_EXAMPLE } from './manifests.examples.js';
export { manifestsRoutes } from './manifests.routes.js';
export { registerManifestJobs } from './manifests.jobs.js';
