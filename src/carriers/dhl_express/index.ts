import { defineSimulatedCarrier } from '../simulation/define-carrier.js';
import { PRIVATE_CARRIER_HOLIDAYS } from '../simulation/holidays.js';
import { dhlExpressRateCard } from './rates.v2026-01.js';
import { dhlTrackingNumber, isValidDhlTrackingNumber } from './tracking-numbers.js';

export { dhlCheckDigit, dhlTrackingNumber, isValidDhlTrackingNumber } from './tracking-numbers.js';

/**
 * DHL Express (simulated): Express Worldwide for international lanes and Express Domestic
 * inside non-US countries. No US-to-US service.
 */
export const carrier = defineSimulatedCarrier({
  slug: 'dhl_express',
  name: 'DHL Express',
  card: dhlExpressRateCard,
  observed_holidays: PRIVATE_CARRIER_HOLIDAYS,
  trackingNumber: dhlTrackingNumber,
  isValidTrackingNumber: isValidDhlTrackingNumber,
});
