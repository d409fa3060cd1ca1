/**
 * UPS shipment options, version 2026-01 (DATA; USD cents). What each service offers and what it
 * costs in the simulated driver. Figures are this simulated card's, set after the "Value-Added
 * Services" table of the UPS Rate and Service Guide (Daily Rates, 2026): each comment names the
 * line of that table the figure stands for.
 */
import type { ServiceOptions } from '../types.js';
import type { CarrierOptionsTable } from '../simulation/options-table.js';

const usd = (amount: number) => ({ amount, currency: 'USD' });

/** Ground and air, domestic: every option, up to 20 packages in one shipment (UPS multi-piece shipments). */
const domestic = (saturday: boolean): ServiceOptions => ({
  signature: true,
  adult_signature: true,
  saturday_delivery: saturday,
  // Declared value up to 50,000 USD per package ("Declared Value", maximum per package).
  insurance_max: usd(5_000_000),
  dangerous_goods: ['lithium_ion_in_equipment', 'lithium_ion_with_equipment', 'lithium_metal_in_equipment', 'limited_quantity_ground', 'dry_ice'],
  max_parcels: 20,
});

export const upsOptions: CarrierOptionsTable = {
  version: '2026-01',
  currency: 'USD',
  tariff: {
    signature: 715, // "Delivery Confirmation Signature Required", per package
    adult_signature: 855, // "Delivery Confirmation Adult Signature Required", per package
    saturday_delivery: 1700, // "Saturday Delivery", per package (air services only)
    insurance: { included_up_to: 10_000, per_100: 155, minimum: 485 }, // "Declared Value": first 100 USD at no charge, then per 100 USD, minimum charge
    dangerous_goods: {
      limited_quantity_ground: 4150, // "Hazardous Materials, Ground", per package
      dry_ice: 700, // "Dry Ice", per package
      // Section II lithium batteries (in or with equipment) carry no UPS hazmat charge.
    },
  },
  services: {
    ups_ground: { ...domestic(false) },
    ups_3_day_select: {
      ...domestic(false),
      dangerous_goods: ['lithium_ion_in_equipment', 'lithium_ion_with_equipment', 'lithium_metal_in_equipment', 'dry_ice'],
    },
    ups_2nd_day_air: {
      ...domestic(true),
      dangerous_goods: ['lithium_ion_in_equipment', 'lithium_ion_with_equipment', 'lithium_metal_in_equipment', 'dry_ice'],
    },
    ups_next_day_air: {
      ...domestic(true),
      dangerous_goods: ['lithium_ion_in_equipment', 'lithium_ion_with_equipment', 'lithium_metal_in_equipment', 'dry_ice'],
    },
    // Worldwide Saver: no Saturday delivery abroad, no adult signature outside the US, no ground hazmat.
    ups_worldwide_saver: { ...domestic(false), adult_signature: false, dangerous_goods: ['lithium_ion_in_equipment', 'lithium_ion_with_equipment', 'dry_ice'] },
  },
};
