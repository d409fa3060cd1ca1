import type { EndOfDayOffer } from '../types.js';

/** USPS: a SCAN form (PS Form 5630) lists the day's parcels for one acceptance scan; Package Pickup is free and can be cancelled until the window starts. */
export const uspsEndOfDay: EndOfDayOffer = {
  manifest: 'scan_form',
  pickup: { fee: { amount: 0, currency: 'USD' }, cancel_cutoff_minutes: 0 },
};
