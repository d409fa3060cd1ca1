/**
 * FedEx shipment options, version 2026-01 (DATA; USD cents). What each service offers and what
 * it costs in the simulated driver. Figures are this simulated card's, set after the "Surcharges
 * and fees" pages of the FedEx Service Guide (2026 list rates): each comment names the fee.
 */
import type { ServiceOptions } from '../types.js';
import type { CarrierOptionsTable } from '../simulation/options-table.js';

const usd = (amount: number) => ({ amount, currency: 'USD' });
const LITHIUM = ['lithium_ion_in_equipment', 'lithium_ion_with_equipment', 'lithium_metal_in_equipment'] as const;

/** FedEx multiple-package shipments: up to 200 pieces ("MPS"); 99 here keeps a label file printable. */
const base = (saturday: boolean, groundHazmat: boolean): ServiceOptions => ({
  signature: true,
  adult_signature: true,
  saturday_delivery: saturday,
  // "Declared value": up to 50,000 USD per package (Express), 50,000 (Ground).
  insurance_max: usd(5_000_000),
  dangerous_goods: groundHazmat ? [...LITHIUM, 'limited_quantity_ground', 'dry_ice'] : [...LITHIUM, 'dry_ice'],
  max_parcels: 99,
});

export const fedexOptions: CarrierOptionsTable = {
  version: '2026-01',
  currency: 'USD',
  tariff: {
    signature: 725, // "Direct Signature Required", per package
    adult_signature: 850, // "Adult Signature Required", per package
    saturday_delivery: 1600, // "Saturday delivery", per package (Express services)
    insurance: { included_up_to: 10_000, per_100: 150, minimum: 450 }, // "Declared value": first 100 USD included, then per 100 USD, minimum
    dangerous_goods: {
      limited_quantity_ground: 3500, // "Dangerous goods, FedEx Ground hazardous materials", per package
      dry_ice: 650, // "Dry ice", per package
    },
  },
  services: {
    fedex_ground: base(false, true),
    // Home Delivery brings parcels on Saturdays at no charge in most areas: offered, free.
    fedex_home_delivery: { ...base(true, true) },
    fedex_express_saver: base(false, false),
    fedex_2day: base(true, false),
    fedex_standard_overnight: base(true, false),
    fedex_international_priority: { ...base(false, false), adult_signature: false },
  },
};
