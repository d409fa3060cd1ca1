import type { CarrierPackage } from '../types.js';

/**
 * UPS packaging (ups.com "UPS Express Packaging": the UPS Express Envelope, "Letter" in the
 * Shipping API, and the UPS Pak). UPS prices neither flat (its letter rate still varies by
 * zone), so no service is listed as flat: they are rated by weight and size like any box. The
 * letter rate holds documents up to 8 oz; a Pak is rated by weight up to UPS's 150 lb limit.
 * `carrier_code` is the Shipping API's `Packaging.Code` (01 UPS Letter, 04 PAK).
 */
export const upsPackages: readonly CarrierPackage[] = [
  {
    id: 'ups_letter',
    name: 'UPS Letter (Express Envelope)',
    length_in: 12.5,
    width_in: 9.5,
    height_in: 0.5,
    max_weight_oz: 8,
    flat_rates: {},
    carrier_code: '01',
  },
  { id: 'ups_pak', name: 'UPS Pak', length_in: 16, width_in: 12.75, height_in: 1, max_weight_oz: 150 * 16, flat_rates: {}, carrier_code: '04' },
];
