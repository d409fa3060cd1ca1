import type { EndOfDayOffer } from '../types.js';

/** UPS: a close report of the day's labels; an On-Call Pickup is charged per pickup (simulated fee) and cancelled up to 2 h before the window. */
export const upsEndOfDay: EndOfDayOffer = {
  manifest: 'close_report',
  pickup: { fee: { amount: 1605, currency: 'USD' }, cancel_cutoff_minutes: 120 },
};
