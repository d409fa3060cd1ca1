/**
 * DHL Express shipment options, version 2026-01 (DATA; USD cents). What each product offers and
 * what it costs in the simulated driver. Figures are this simulated card's, set after the
 * "Optional services" pages of the DHL Express Rate and Transit Guide (US, 2026): each comment
 * names the service and its DHL code.
 */
import type { CarrierOptionsTable } from '../simulation/options-table.js';

const usd = (amount: number) => ({ amount, currency: 'USD' });

export const dhlExpressOptions: CarrierOptionsTable = {
  version: '2026-01',
  currency: 'USD',
  tariff: {
    signature: 800, // "Direct Signature" (SF), per piece
    adult_signature: 900, // "Adult Signature" (SD), per piece
    saturday_delivery: 2500, // "Saturday Delivery" (AA), per piece
    insurance: { included_up_to: 0, per_100: 150, minimum: 1750 }, // "Shipment Insurance" (II): 1.5 % of the declared value, minimum 17.50 USD
    dangerous_goods: {
      lithium_ion_in_equipment: 0, // "Lithium ion PI967 Section II" (HV): no charge
      lithium_metal_in_equipment: 0, // "Lithium metal PI970 Section II" (HW): no charge
      dry_ice: 1000, // "Dry Ice UN1845" (HC), per piece
    },
  },
  services: {
    dhl_express_worldwide: {
      signature: true,
      adult_signature: false,
      saturday_delivery: false,
      insurance_max: usd(2_500_000),
      dangerous_goods: ['lithium_ion_in_equipment', 'lithium_metal_in_equipment', 'dry_ice'],
      max_parcels: 99,
    },
    dhl_express_domestic: {
      signature: true,
      adult_signature: true,
      saturday_delivery: true,
      insurance_max: usd(2_500_000),
      dangerous_goods: ['lithium_ion_in_equipment', 'lithium_metal_in_equipment', 'dry_ice'],
      max_parcels: 99,
    },
  },
};
