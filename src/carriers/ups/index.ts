import { defineSimulatedCarrier } from '../simulation/define-carrier.js';
import { PRIVATE_CARRIER_HOLIDAYS } from '../simulation/holidays.js';
import { upsRateCard } from './rates.v2026-01.js';
import { isValidUpsTrackingNumber, upsTrackingNumber } from './tracking-numbers.js';

export { isValidUpsTrackingNumber, upsCheckDigit, upsTrackingNumber } from './tracking-numbers.js';

/** UPS (simulated): Ground, 3 Day Select, 2nd Day Air, Next Day Air; Worldwide Saver. */
export const carrier = defineSimulatedCarrier({
  slug: 'ups',
  name: 'UPS',
  card: upsRateCard,
  observed_holidays: PRIVATE_CARRIER_HOLIDAYS,
  trackingNumber: upsTrackingNumber,
  isValidTrackingNumber: isValidUpsTrackingNumber,
});
