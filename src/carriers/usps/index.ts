import { groupInFours } from '../label-presentation.js';
import { defineSimulatedCarrier } from '../simulation/define-carrier.js';
import { uspsOptions } from './options.v2026-01.js';
import type { Address } from '../types.js';
import { FEDERAL_HOLIDAYS } from '../simulation/holidays.js';
import { uspsRateCard } from './rates.v2026-01.js';
import { isValidUspsTrackingNumber, uspsTrackingNumber } from './tracking-numbers.js';
import { uspsEndOfDay } from './end-of-day.js';
import { uspsPackages } from './packages.js';

export { isValidUspsTrackingNumber, uspsCheckDigit, uspsTrackingNumber } from './tracking-numbers.js';

/** The carrier's real-protocol driver (api/), found by the registry (docs/carriers.md). */
export { createUspsApiDriver as apiDriver } from './api/client.js';

/** The 5-digit ZIP of a US destination (ZIP or ZIP+4), else null. */
function usZip5(to: Address): string | null {
  if ((to.country ?? '').toUpperCase() !== 'US') return null;
  const digits = (to.postal_code ?? '').replace(/[^0-9]/g, '');
  return digits.length === 5 || digits.length === 9 ? digits.slice(0, 5) : null;
}

/** USPS (simulated): domestic Ground Advantage, Priority Mail, Priority Mail Express; First-Class Package, Priority Mail and Priority Mail Express International. */
export const carrier = defineSimulatedCarrier({
  // USPS Returns: pay-on-scan (Scan Based Payment) or prepaid; a label may be refunded within 30 days of purchase.
  return_charges: ['on_scan', 'on_creation'],
  void_window_days: 30,
  end_of_day: uspsEndOfDay,
  packages: uspsPackages,
  slug: 'usps',
  name: 'USPS',
  card: uspsRateCard,
  options: uspsOptions,
  observed_holidays: FEDERAL_HOLIDAYS,
  trackingNumber: uspsTrackingNumber,
  isValidTrackingNumber: isValidUspsTrackingNumber,
  label: {
    heading: 'USPS TRACKING #',
    // The IMpb routing element, or the destination country abroad.
    routingCode: (to) => {
      const zip = usZip5(to);
      return zip ? `420 ${zip}` : `INTL ${(to.country ?? '').toUpperCase()}`;
    },
    // IMpb: GS1-128 of (420)ZIP5 then the 22-digit number, whose first two digits (92–95) are
    // its own application identifier; abroad the number alone. A scanner returns
    // `420ZIP5<GS>92…`. Anything else (a malformed number) is plain Code 128.
    barcode: (tn, to) => {
      if (!/^9[2-5][0-9]{20}$/.test(tn)) return { symbology: 'code128', text: tn };
      const zip = usZip5(to);
      const number = { ai: tn.slice(0, 2), data: tn.slice(2) };
      return { symbology: 'gs1-128', elements: zip ? [{ ai: '420', data: zip }, number] : [number] };
    },
    displayTrackingNumber: groupInFours,
  },
});
