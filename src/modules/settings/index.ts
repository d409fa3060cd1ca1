export { findSettingValue } from './settings.repo.js';
