export { webRoutes, defaultWebDir, DASHBOARD_CSP } from './web.routes.js';
