import type { CarrierPackage } from '../types.js';

/**
 * USPS Priority Mail and Priority Mail Express flat-rate packaging. Inside dimensions as USPS
 * prints them on its supplies (usps.com "Priority Mail Flat Rate" boxes and envelopes); every
 * flat-rate piece may weigh up to 70 lb (Domestic Mail Manual 123.6). Prices are the simulated
 * carrier's, at the Priority Mail Retail flat rates of USPS Notice 123 (Price List) of
 * 2024-01-21, in cents; the api driver sends the USPS `rateIndicator` as the packaging code
 * (docs/carriers.md).
 */
const LIMIT_OZ = 70 * 16;

export const uspsPackages: readonly CarrierPackage[] = [
  {
    id: 'usps_flat_rate_envelope',
    name: 'Priority Mail Flat Rate Envelope',
    length_in: 12.5,
    width_in: 9.5,
    height_in: 0.75,
    max_weight_oz: LIMIT_OZ,
    flat_rates: { usps_priority_mail: 985, usps_priority_mail_express: 3045 },
    carrier_code: 'FE',
  },
  {
    id: 'usps_legal_flat_rate_envelope',
    name: 'Priority Mail Legal Flat Rate Envelope',
    length_in: 15,
    width_in: 9.5,
    height_in: 0.75,
    max_weight_oz: LIMIT_OZ,
    flat_rates: { usps_priority_mail: 1015, usps_priority_mail_express: 3065 },
    carrier_code: 'FA',
  },
  {
    id: 'usps_padded_flat_rate_envelope',
    name: 'Priority Mail Padded Flat Rate Envelope',
    length_in: 12.5,
    width_in: 9.5,
    height_in: 1,
    max_weight_oz: LIMIT_OZ,
    flat_rates: { usps_priority_mail: 1060, usps_priority_mail_express: 3115 },
    carrier_code: 'FP',
  },
  {
    id: 'usps_small_flat_rate_box',
    name: 'Priority Mail Small Flat Rate Box',
    length_in: 8.625,
    width_in: 5.375,
    height_in: 1.625,
    max_weight_oz: LIMIT_OZ,
    flat_rates: { usps_priority_mail: 1040 },
    carrier_code: 'FS',
  },
  {
    id: 'usps_medium_flat_rate_box',
    name: 'Priority Mail Medium Flat Rate Box',
    length_in: 11,
    width_in: 8.5,
    height_in: 5.5,
    max_weight_oz: LIMIT_OZ,
    flat_rates: { usps_priority_mail: 1840 },
    carrier_code: 'FB',
  },
  {
    id: 'usps_large_flat_rate_box',
    name: 'Priority Mail Large Flat Rate Box',
    length_in: 12,
    width_in: 12,
    height_in: 5.5,
    max_weight_oz: LIMIT_OZ,
    flat_rates: { usps_priority_mail: 2475 },
    carrier_code: 'PL',
  },
];
