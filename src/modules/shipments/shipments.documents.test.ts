import { describe, expect, it } from 'vitest';
import { getCarrierRegistry } from '../../carriers/registry.js';
import type { CustomsDeclaration, CustomsItem } from '../../carriers/types.js';
import { customsDocumentTypes, documentFormat } from './shipments.documents.js';

const item = (over: Partial<CustomsItem> = {}): CustomsItem => ({
  description: 'Cotton T-shirt',
  quantity: 1,
  unit_value: { amount: 100_00, currency: 'USD' },
  weight_oz: 8,
  hs_tariff_number: '610910',
  origin_country: 'US',
  ...over,
});
const declaration = (items: CustomsItem[], over: Partial<CustomsDeclaration> = {}): CustomsDeclaration => ({
  contents_type: 'merchandise',
  non_delivery: 'return',
  incoterm: 'DDU',
  items,
  ...over,
});

describe('customsDocumentTypes', () => {
  it('none without a declaration (a domestic parcel), whatever the carrier', async () => {
    for (const { slug: carrier } of (await getCarrierRegistry()).carriers) {
      expect(customsDocumentTypes(carrier, null, 16)).toEqual([]);
      expect(customsDocumentTypes(carrier, undefined, 16)).toEqual([]);
    }
  });

  it('USPS: CN 22 up to 400 USD and 4 lb inclusive, CN 23 above either', () => {
    expect(customsDocumentTypes('usps', declaration([item({ quantity: 4 })]), 64)).toEqual(['cn22']); // exactly 400.00 USD, exactly 4 lb
    expect(customsDocumentTypes('usps', declaration([item({ quantity: 4 }), item({ unit_value: { amount: 1, currency: 'USD' } })]), 16)).toEqual(['cn23']); // 400.01 USD
    expect(customsDocumentTypes('usps', declaration([item()]), 64.1)).toEqual(['cn23']); // the parcel over 4 lb
    expect(customsDocumentTypes('usps', declaration([item({ quantity: 9, weight_oz: 8, unit_value: { amount: 1_00, currency: 'USD' } })]), 10)).toEqual([
      'cn23',
    ]); // the items weigh 72 oz, more than the parcel says
    expect(customsDocumentTypes('usps', declaration([item({ unit_value: { amount: 399_99, currency: 'USD' } })]), 63.9)).toEqual(['cn22']);
  });

  it('USPS: a value in another currency cannot be compared with 400 USD, so the CN 23; documents too get a form', () => {
    expect(customsDocumentTypes('usps', declaration([item({ unit_value: { amount: 10_00, currency: 'EUR' } })]), 8)).toEqual(['cn23']);
    expect(customsDocumentTypes('usps', declaration([item()], { contents_type: 'documents' }), 8)).toEqual(['cn22']);
  });

  it('UPS, FedEx, DHL Express: a commercial invoice, none for documents', () => {
    for (const carrier of ['ups', 'fedex', 'dhl_express']) {
      expect(customsDocumentTypes(carrier, declaration([item({ quantity: 50 })]), 400)).toEqual(['commercial_invoice']);
      expect(customsDocumentTypes(carrier, declaration([item()], { contents_type: 'gift' }), 4)).toEqual(['commercial_invoice']);
      expect(customsDocumentTypes(carrier, declaration([item()], { contents_type: 'documents' }), 4)).toEqual([]);
    }
  });

  it("names a stored document's format from its media type", () => {
    expect(documentFormat('application/pdf')).toBe('pdf');
    expect(documentFormat('image/png')).toBe('png');
    expect(documentFormat('text/plain')).toBe('bin');
  });
});
