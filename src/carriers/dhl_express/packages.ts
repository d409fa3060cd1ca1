import type { CarrierPackage } from '../types.js';

/**
 * The DHL Express Flyer (dhl.com "DHL Express packaging": 40 × 30 cm, for documents and small
 * non-document items up to 2 kg). DHL Express prices it by weight and zone, not flat. The MyDHL
 * API takes no packaging code for it (`typeCode` is for DHL's own boxes), so `carrier_code` is
 * its supplies code `FLY`, which the api driver does not send.
 */
export const dhlExpressPackages: readonly CarrierPackage[] = [
  {
    id: 'dhl_express_flyer',
    name: 'DHL Express Flyer',
    length_in: 15.75,
    width_in: 11.75,
    height_in: 0.75,
    max_weight_oz: 70.5,
    flat_rates: {},
    carrier_code: 'FLY',
  },
];
