export { superAdminAnalyticsRoutes } from './analytics.routes.js';
export { analyticsService, AnalyticsService } from './analytics.service.js';
export { apiRequestCounter, ApiRequestCounter } from './request-counter.js';
