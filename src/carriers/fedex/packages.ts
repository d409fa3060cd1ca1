import type { CarrierPackage } from '../types.js';

/**
 * FedEx Envelope and FedEx Pak, priced flat by FedEx One Rate (fedex.com "FedEx One Rate":
 * one price per packaging and service anywhere in the contiguous US; the Envelope up to 10 lb,
 * other packaging up to 50 lb). Dimensions as FedEx publishes them (the large Pak). Prices are
 * the simulated carrier's, near FedEx's 2024 One Rate list, in cents. `carrier_code` is the Ship
 * API's `packagingType`.
 */
export const fedexPackages: readonly CarrierPackage[] = [
  {
    id: 'fedex_envelope',
    name: 'FedEx Envelope',
    length_in: 12.5,
    width_in: 9.5,
    height_in: 0.5,
    max_weight_oz: 10 * 16,
    flat_rates: { fedex_standard_overnight: 7065, fedex_2day: 2740, fedex_express_saver: 2295 },
    carrier_code: 'FEDEX_ENVELOPE',
  },
  {
    id: 'fedex_pak',
    name: 'FedEx Pak',
    length_in: 15.5,
    width_in: 12,
    height_in: 1.5,
    max_weight_oz: 50 * 16,
    flat_rates: { fedex_standard_overnight: 7565, fedex_2day: 2945, fedex_express_saver: 2495 },
    carrier_code: 'FEDEX_PAK',
  },
];
