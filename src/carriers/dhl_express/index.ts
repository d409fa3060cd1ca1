import { groupInFours } from '../label-presentation.js';
import { defineSimulatedCarrier } from '../simulation/define-carrier.js';
import { dhlExpressOptions } from './options.v2026-01.js';
import { PRIVATE_CARRIER_HOLIDAYS } from '../simulation/holidays.js';
import { dhlExpressRateCard } from './rates.v2026-01.js';
import { dhlTrackingNumber, isValidDhlTrackingNumber } from './tracking-numbers.js';
import { dhlExpressEndOfDay } from './end-of-day.js';
import { dhlExpressPackages } from './packages.js';

export { dhlCheckDigit, dhlTrackingNumber, isValidDhlTrackingNumber } from './tracking-numbers.js';

/** The carrier's real-protocol driver (api/), found by the registry (docs/carriers.md). */
export { createDhlExpressApiDriver as apiDriver } from './api/client.js';

/**
 * DHL Express (simulated): Express Worldwide for international lanes and Express Domestic
 * inside non-US countries. No US-to-US service.
 */
export const carrier = defineSimulatedCarrier({
  // DHL Express bills a return waybill when it is made (no pay-on-scan); voids within 14 days.
  return_charges: ['on_creation'],
  void_window_days: 14,
  end_of_day: dhlExpressEndOfDay,
  packages: dhlExpressPackages,
  slug: 'dhl_express',
  name: 'DHL Express',
  card: dhlExpressRateCard,
  options: dhlExpressOptions,
  observed_holidays: PRIVATE_CARRIER_HOLIDAYS,
  trackingNumber: dhlTrackingNumber,
  isValidTrackingNumber: isValidDhlTrackingNumber,
  label: {
    heading: 'WAYBILL',
    // A service-area code: <country>-<first three letters of the city> (DE-BER); no sort plan exists here.
    routingCode: (to) => {
      const city = (to.city ?? '')
        .toUpperCase()
        .normalize('NFKD')
        .replace(/[^A-Z]/g, '');
      return `${(to.country ?? '').toUpperCase()}-${(city || 'XXX').slice(0, 3).padEnd(3, 'X')}`;
    },
    barcode: (trackingNumber) => ({ symbology: 'code128', text: trackingNumber }),
    displayTrackingNumber: groupInFours,
  },
});
