import { plainLabelPresentation } from '../label-presentation.js';
import { defineSimulatedCarrier } from '../simulation/define-carrier.js';
import { fedexOptions } from './options.v2026-01.js';
import { PRIVATE_CARRIER_HOLIDAYS } from '../simulation/holidays.js';
import { fedexRateCard } from './rates.v2026-01.js';
import { fedexTrackingNumber, isValidFedexTrackingNumber } from './tracking-numbers.js';
import { fedexEndOfDay } from './end-of-day.js';
import { fedexPackages } from './packages.js';

export { fedexCheckDigit, fedexTrackingNumber, isValidFedexTrackingNumber } from './tracking-numbers.js';

/** The carrier's real-protocol driver (api/), found by the registry (docs/carriers.md). */
export { createFedexApiDriver as apiDriver } from './api/client.js';

/**
 * FedEx (simulated): Ground (businesses), Home Delivery (homes), Express Saver, 2Day,
 * Standard Overnight; International Priority.
 */
export const carrier = defineSimulatedCarrier({
  // FedEx Returns: pay-on-scan or prepaid; unused labels may be cancelled within 90 days.
  return_charges: ['on_scan', 'on_creation'],
  void_window_days: 90,
  end_of_day: fedexEndOfDay,
  packages: fedexPackages,
  slug: 'fedex',
  name: 'FedEx',
  card: fedexRateCard,
  options: fedexOptions,
  observed_holidays: PRIVATE_CARRIER_HOLIDAYS,
  trackingNumber: fedexTrackingNumber,
  isValidTrackingNumber: isValidFedexTrackingNumber,
  // Code 128 of the 12-digit number; routing is the GS1 ship-to postal string.
  label: plainLabelPresentation('FEDEX TRK#'),
});
