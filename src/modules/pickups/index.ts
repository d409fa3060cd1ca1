/** The pickups module's import surface: carrier pickups. */
export { PickupsService, COMPLETE_PICKUPS_JOB } from './pickups.service.js';
export { PickupSchema, type Pickup } from './pickups.schemas.js';
export { pickupsRoutes } from './pickups.routes.js';
export { registerPickupJobs } from './pickups.jobs.js';
export { refuseWindow, localTime } from './pickups.window.js';
