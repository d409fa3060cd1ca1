/** The trackers module's import surface: tracking of labels bought elsewhere. */
export { TrackersService, POLL_TRACKERS_JOB } from './trackers.service.js';
export { TrackerSchema, type Tracker } from './trackers.schemas.js';
export { trackersRoutes } from './trackers.routes.js';
export { registerTrackerJobs } from './trackers.jobs.js';
