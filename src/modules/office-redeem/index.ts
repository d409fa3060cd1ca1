/** The office-redeem module's import surface (the orders module issues PINs through it). */
export { OfficeRedeemService, generatePin, normalizePin, MAX_PINS_PER_ORDER, PIN_VALIDITY_MS, type OrderForPins } from './office-redeem.service.js';
export { publicOfficeRedeemRoutes, superAdminOfficeRedeemRoutes } from './office-redeem.routes.js';
export { OfficePinSchema } from './office-redeem.schemas.js';
