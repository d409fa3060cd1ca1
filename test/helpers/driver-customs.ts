import type { CustomsDeclaration, RouteFacts } from '../../src/carriers/types.js';

/**
 * One international purchase the four api drivers' tests share: a US shipper sending two lines
 * of merchandise to London, with HS codes, an importer's VAT number and the derived EEL/PFC, and
 * the same declaration with an AES ITN (a line above 2,500 USD).
 */
export const ukRoute: RouteFacts = {
  domestic: false,
  origin_country: 'US',
  destination_country: 'GB',
  distance_miles: null,
  ground_zone: null,
  international_group: 'europe',
  international_zone: 2,
  territory: false,
  military: false,
  noncontiguous: false,
};

export const londonAddress = {
  name: 'Alex Importer',
  company: 'Importer Ltd',
  street1: '10 Downing Street',
  city: 'London',
  postal_code: 'SW1A 2AA',
  country: 'GB',
  phone: '+44 20 7946 0000',
  email: 'alex@example.co.uk',
};

export const ukCustoms: CustomsDeclaration = {
  contents_type: 'merchandise',
  non_delivery: 'return',
  incoterm: 'DDP',
  eel_pfc: 'NOEEI 30.37(a)',
  signer: 'Dock Lead',
  importer: { vat: 'GB123456789', eori: 'GB123456789000' },
  items: [
    {
      description: 'Cotton T-shirt',
      quantity: 3,
      unit_value: { amount: 1250, currency: 'USD' },
      weight_oz: 6,
      hs_tariff_number: '610910',
      origin_country: 'US',
      sku: 'TS-001',
    },
    {
      description: 'Ceramic coffee mug',
      quantity: 2,
      unit_value: { amount: 899, currency: 'USD' },
      weight_oz: 12,
      hs_tariff_number: '6912.00.48',
      origin_country: 'CN',
    },
  ],
};

/** 3 × 12.50 + 2 × 8.99 USD. */
export const UK_CUSTOMS_TOTAL_MINOR = 3 * 1250 + 2 * 899;

export const ukCustomsWithItn: CustomsDeclaration = {
  ...ukCustoms,
  incoterm: 'DDU',
  eel_pfc: null,
  aes_itn: 'X20260302123456',
};
