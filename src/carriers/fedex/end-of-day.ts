import type { EndOfDayOffer } from '../types.js';

/** FedEx: a Ground end-of-day close report; an on-demand pickup is charged per pickup (simulated fee) and cancelled up to 1 h before the window. */
export const fedexEndOfDay: EndOfDayOffer = {
  manifest: 'close_report',
  pickup: { fee: { amount: 450, currency: 'USD' }, cancel_cutoff_minutes: 60 },
};
