export { superAdminAnalyticsRoutes } from './analytics.routes.js';
export { AnalyticsService } from './analytics.service.js';
export { apiRequestCounter, ApiRequestCounter } from './request-counter.js';
