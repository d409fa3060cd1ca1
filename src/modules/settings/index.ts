export { findSettingValue } from './settings.repo.js';
export { settingsService, SettingsService, type SettingValue } from './settings.service.js';
export { settingDefinitions, isSettingKey, type SettingKey } from './settings.registry.js';
export { superAdminSettingsRoutes } from './settings.routes.js';
