import type { EndOfDayOffer } from '../types.js';

/** DHL Express: a close report of the day's waybills; a courier pickup is charged per pickup (simulated fee) and cancelled up to 1 h before the window. */
export const dhlExpressEndOfDay: EndOfDayOffer = {
  manifest: 'close_report',
  pickup: { fee: { amount: 500, currency: 'USD' }, cancel_cutoff_minutes: 60 },
};
