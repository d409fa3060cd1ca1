/** The locations module's import surface: where a workspace ships from. */
export { LocationsService, type ShippingOrigin } from './locations.service.js';
export { LocationSchema, type Location } from './locations.schemas.js';
export { locationsRoutes } from './locations.routes.js';
