/**
 * USPS shipment options, version 2026-01 (DATA; USD cents). What each service offers and what it
 * costs in the simulated driver. Figures are this simulated card's, set after USPS Notice 123
 * (Price List, 2026), "Extra Services": each comment names the line. USPS sells no multi-piece
 * shipments (one label per parcel), so every service takes one parcel.
 */
import type { ServiceOptions } from '../types.js';
import type { CarrierOptionsTable } from '../simulation/options-table.js';

const usd = (amount: number) => ({ amount, currency: 'USD' });

const domestic = (groundOnlyHazmat: boolean): ServiceOptions => ({
  signature: true,
  adult_signature: true,
  // USPS delivers on Saturdays as a matter of course: offered at no charge.
  saturday_delivery: true,
  // Insurance (extra service 930/931): up to 5,000 USD.
  insurance_max: usd(500_000),
  // Limited quantities of hazardous materials travel by surface only (Ground Advantage).
  dangerous_goods: groundOnlyHazmat
    ? ['lithium_ion_in_equipment', 'lithium_ion_with_equipment', 'lithium_metal_in_equipment', 'limited_quantity_ground', 'dry_ice']
    : ['lithium_ion_in_equipment', 'lithium_ion_with_equipment', 'lithium_metal_in_equipment', 'dry_ice'],
  max_parcels: 1,
});

const international: ServiceOptions = {
  signature: false,
  adult_signature: false,
  saturday_delivery: false,
  insurance_max: usd(500_000),
  dangerous_goods: [],
  max_parcels: 1,
};

export const uspsOptions: CarrierOptionsTable = {
  version: '2026-01',
  currency: 'USD',
  tariff: {
    signature: 440, // "Signature Confirmation" (921), electronic
    adult_signature: 1125, // "Adult Signature Required" (922)
    saturday_delivery: 0, // no Saturday fee
    insurance: { included_up_to: 0, per_100: 290, minimum: 290 }, // "Insurance" (930/931), each started 100 USD of value (Notice 123 tiers, rounded to one step per 100 USD)
    dangerous_goods: {}, // USPS charges nothing extra for mailable hazardous materials
  },
  services: {
    usps_ground_advantage: domestic(true),
    usps_priority_mail: domestic(false),
    usps_priority_mail_express: domestic(false),
    usps_first_class_international: { ...international, insurance_max: null },
    usps_priority_mail_international: international,
    usps_priority_mail_express_international: international,
  },
};
