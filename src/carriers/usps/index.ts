import { defineSimulatedCarrier } from '../simulation/define-carrier.js';
import { FEDERAL_HOLIDAYS } from '../simulation/holidays.js';
import { uspsRateCard } from './rates.v2026-01.js';
import { isValidUspsTrackingNumber, uspsTrackingNumber } from './tracking-numbers.js';

export { isValidUspsTrackingNumber, uspsCheckDigit, uspsTrackingNumber } from './tracking-numbers.js';

/** USPS (simulated): domestic Ground Advantage, Priority Mail, Priority Mail Express; First-Class International. */
export const carrier = defineSimulatedCarrier({
  slug: 'usps',
  name: 'USPS',
  card: uspsRateCard,
  observed_holidays: FEDERAL_HOLIDAYS,
  trackingNumber: uspsTrackingNumber,
  isValidTrackingNumber: isValidUspsTrackingNumber,
});
