import type { CustomsDeclaration } from '../../src/carriers/types.js';
import type { CustomsDocumentData, CustomsDocumentType } from '../../src/modules/labels/index.js';

/** A US → GB declaration of two items, one described in Cyrillic (customs documents' tests). */
export const DECLARATION: CustomsDeclaration = {
  contents_type: 'merchandise',
  non_delivery: 'return',
  incoterm: 'DDU',
  eel_pfc: 'NOEEI 30.37(a)',
  signer: 'Grace Hopper',
  importer: { eori: 'GB123456789000' },
  items: [
    {
      description: 'Cotton T-shirt',
      quantity: 2,
      unit_value: { amount: 1250, currency: 'USD' },
      weight_oz: 6,
      hs_tariff_number: '610910',
      origin_country: 'US',
      sku: 'TS-1',
    },
    {
      description: 'Шерстяной свитер',
      quantity: 1,
      unit_value: { amount: 4999, currency: 'USD' },
      weight_oz: 14.5,
      hs_tariff_number: '6110.11.0010',
      origin_country: 'PT',
    },
  ],
};

/** What a document of that type prints for it, to a recipient with a Japanese name. */
export function documentData(type: CustomsDocumentType, overrides: Partial<CustomsDocumentData> = {}): CustomsDocumentData {
  return {
    type,
    shipment_id: 'shp_01jdocs000000000000000000',
    tracking_number: type === 'commercial_invoice' ? '1Z999AA10123456784' : 'LZ123456785US',
    carrier_name: type === 'commercial_invoice' ? 'UPS' : 'USPS',
    service_name: type === 'commercial_invoice' ? 'UPS Worldwide Saver' : 'First-Class Package International',
    date: '2026-03-05',
    ship_from: {
      name: 'Acme Fulfilment',
      company: 'Acme Inc.',
      street1: '1 Main St',
      city: 'Palo Alto',
      state: 'CA',
      postal_code: '94301',
      country: 'US',
      phone: '+1 650 555 0100',
    },
    ship_to: {
      name: '山田 太郎',
      company: '株式会社サンプル',
      street1: '221B Baker Street',
      city: 'London',
      postal_code: 'NW1 6XE',
      country: 'GB',
      phone: '+44 20 7946 0000',
    },
    weight_oz: 30,
    postage: { amount: 4215, currency: 'USD' },
    reference: 'ord_01jdocs',
    sample: false,
    customs: DECLARATION,
    ...overrides,
  };
}
