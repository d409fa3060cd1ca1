import { groupInFours, gs1PostalRouting } from '../label-presentation.js';
import { defineSimulatedCarrier } from '../simulation/define-carrier.js';
import { upsOptions } from './options.v2026-01.js';
import { PRIVATE_CARRIER_HOLIDAYS } from '../simulation/holidays.js';
import { upsRateCard } from './rates.v2026-01.js';
import { isValidUpsTrackingNumber, upsTrackingNumber } from './tracking-numbers.js';
import { upsEndOfDay } from './end-of-day.js';
import { upsPackages } from './packages.js';

export { isValidUpsTrackingNumber, upsCheckDigit, upsTrackingNumber } from './tracking-numbers.js';

/** The carrier's real-protocol driver (api/), found by the registry (docs/carriers.md). */
export { createUpsApiDriver as apiDriver } from './api/client.js';

/** UPS (simulated): Ground, 3 Day Select, 2nd Day Air, Next Day Air; Worldwide Saver. */
export const carrier = defineSimulatedCarrier({
  // UPS Returns: pay-on-scan (Print Return Label billed on use) or prepaid; voids are accepted within 90 days.
  return_charges: ['on_scan', 'on_creation'],
  void_window_days: 90,
  end_of_day: upsEndOfDay,
  packages: upsPackages,
  slug: 'ups',
  name: 'UPS',
  card: upsRateCard,
  options: upsOptions,
  observed_holidays: PRIVATE_CARRIER_HOLIDAYS,
  trackingNumber: upsTrackingNumber,
  isValidTrackingNumber: isValidUpsTrackingNumber,
  label: {
    heading: 'UPS TRACKING #',
    routingCode: gs1PostalRouting,
    barcode: (trackingNumber) => ({ symbology: 'code128', text: trackingNumber }),
    // As UPS prints it: 1Z 999 AA1 01 2345 6784.
    displayTrackingNumber: (tn) =>
      /^1Z[0-9A-Z]{16}$/.test(tn) ? `1Z ${tn.slice(2, 5)} ${tn.slice(5, 8)} ${tn.slice(8, 10)} ${tn.slice(10, 14)} ${tn.slice(14)}` : groupInFours(tn),
  },
});
