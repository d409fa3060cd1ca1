import { describe, expect, it } from 'vitest';
import type { CustomsDeclaration } from '../../carriers/types.js';
import { checkCustoms, declaredValue, deriveCustoms, deriveEelPfc, isVagueDescription, requiresCustoms, returnCustoms, withDefaults } from './customs.rules.js';

const item = (over: Partial<CustomsDeclaration['items'][number]> = {}) => ({
  description: 'Ceramic coffee mug',
  quantity: 2,
  unit_value: { amount: 1250, currency: 'USD' },
  weight_oz: 12,
  hs_tariff_number: '6912.00.48',
  origin_country: 'US',
  sku: 'MUG-1',
  ...over,
});
const declaration = (over: Partial<CustomsDeclaration> = {}): CustomsDeclaration => ({
  contents_type: 'merchandise',
  non_delivery: 'return',
  incoterm: 'DDU',
  items: [item()],
  ...over,
});
const toGb = { origin_country: 'US', destination_country: 'GB', parcel_weight_oz: 40 };
const fieldsOf = (d: CustomsDeclaration, ctx = toGb) => {
  const r = checkCustoms(d, ctx);
  return r.ok ? [] : r.details.map((x) => x.field);
};

describe('requiresCustoms', () => {
  it('is required when the parcel leaves the country or goes to a US military address', () => {
    expect(requiresCustoms({ domestic: false }, { state: null })).toBe(true);
    expect(requiresCustoms({ domestic: true }, { state: 'NY' })).toBe(false);
    for (const state of ['AA', 'AE', 'ap']) expect(requiresCustoms({ domestic: true }, { state })).toBe(true);
    expect(requiresCustoms({ domestic: true }, {})).toBe(false);
  });
});

describe('checkCustoms: the customs rules', () => {
  it('accepts a good declaration and keeps it normalised (HS without dots, countries upper case, eel_pfc derived)', () => {
    const r = checkCustoms(declaration({ items: [item({ origin_country: 'pt' })], aes_itn: null }), toGb);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.declaration.items[0]).toMatchObject({ hs_tariff_number: '69120048', origin_country: 'PT' });
    expect(r.declaration.eel_pfc).toBe('NOEEI 30.37(a)');
    expect(r.declaration.derived).toBe(false);
  });

  it('descriptions: 3–50 characters', () => {
    expect(fieldsOf(declaration({ items: [item({ description: 'ab' })] }))).toEqual(['customs.items[0].description']);
    expect(fieldsOf(declaration({ items: [item({ description: 'x'.repeat(51) })] }))).toEqual(['customs.items[0].description']);
    expect(fieldsOf(declaration({ items: [item({ description: 'Mug' })] }))).toEqual([]);
    expect(fieldsOf(declaration({ items: [item({ description: 'x'.repeat(50) })] }))).toEqual([]);
  });

  it('descriptions: a vague word alone is refused, in any case; inside a real description it is fine', () => {
    for (const word of ['gift', 'Merchandise', 'GOODS', 'items', 'stuff', 'misc', 'various', 'parts', 'sample', ' Gift ']) {
      expect(isVagueDescription(word)).toBe(true);
      const r = checkCustoms(declaration({ items: [item({ description: word })] }), toGb);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.details[0]).toMatchObject({ field: 'customs.items[0].description', message: expect.stringContaining('vague') });
    }
    expect(
      fieldsOf(declaration({ items: [item({ description: 'Gift box of soaps' }), item({ description: 'Bicycle parts: brake pads' })] }), {
        ...toGb,
        parcel_weight_oz: 100,
      }),
    ).toEqual([]);
  });

  it('hs_tariff_number: 6 to 10 digits, dots ignored', () => {
    for (const hs of ['691200', '6912.00', '6912.00.4800', '6912004800'])
      expect(fieldsOf(declaration({ items: [item({ hs_tariff_number: hs })] }))).toEqual([]);
    for (const hs of ['69120', '69120048001', '6912-00', 'ABCDEF'])
      expect(fieldsOf(declaration({ items: [item({ hs_tariff_number: hs })] }))).toEqual(['customs.items[0].hs_tariff_number']);
    expect(fieldsOf(declaration({ items: [item({ hs_tariff_number: null })] }))).toEqual([]);
  });

  it('origin_country: ISO 3166-1 alpha-2', () => {
    for (const c of ['USA', 'XX', 'United States', ''])
      expect(fieldsOf(declaration({ items: [item({ origin_country: c })] }))).toEqual(['customs.items[0].origin_country']);
  });

  it('the items weigh no more than the parcel (unit weight × quantity)', () => {
    expect(fieldsOf(declaration({ items: [item({ weight_oz: 12, quantity: 2 })] }), { ...toGb, parcel_weight_oz: 24 })).toEqual([]);
    expect(fieldsOf(declaration({ items: [item({ weight_oz: 12, quantity: 2 })] }), { ...toGb, parcel_weight_oz: 23.9 })).toEqual(['customs.items']);
  });

  it('aes_itn: X followed by 14 digits', () => {
    expect(fieldsOf(declaration({ aes_itn: 'X20260101234567' }))).toEqual([]);
    for (const itn of ['20260101234567', 'X2026010123456', 'Y20260101234567', 'X2026010123456A'])
      expect(fieldsOf(declaration({ aes_itn: itn }))).toEqual(['customs.aes_itn']);
  });

  it('contents_explanation is required for other', () => {
    expect(fieldsOf(declaration({ contents_type: 'other' }))).toEqual(['customs.contents_explanation']);
    expect(fieldsOf(declaration({ contents_type: 'other', contents_explanation: '  ' }))).toEqual(['customs.contents_explanation']);
    expect(fieldsOf(declaration({ contents_type: 'other', contents_explanation: 'Replacement keyboard under warranty' }))).toEqual([]);
  });

  it('one currency per declaration', () => {
    expect(fieldsOf(declaration({ items: [item(), item({ unit_value: { amount: 100, currency: 'EUR' } })] }), { ...toGb, parcel_weight_oz: 100 })).toEqual([
      'customs.items[1].unit_value.currency',
    ]);
  });

  it('gives one detail per problem, all at once', () => {
    const d = declaration({ contents_type: 'other', aes_itn: 'nope', items: [item({ description: 'gift', hs_tariff_number: '12', origin_country: 'ZZ' })] });
    expect(fieldsOf(d)).toEqual([
      'customs.contents_explanation',
      'customs.aes_itn',
      'customs.items[0].description',
      'customs.items[0].hs_tariff_number',
      'customs.items[0].origin_country',
    ]);
  });
});

describe('eel_pfc', () => {
  const pricey = item({ quantity: 3, unit_value: { amount: 90_000, currency: 'USD' } }); // 2,700 USD on one line
  it('NOEEI 30.37(a) when every line is worth at most 2,500 USD (unit × quantity)', () => {
    expect(deriveEelPfc([item({ quantity: 2, unit_value: { amount: 125_000, currency: 'USD' } })], 'GB', null)).toBe('NOEEI 30.37(a)');
    expect(deriveEelPfc([item({ quantity: 1, unit_value: { amount: 250_001, currency: 'USD' } })], 'GB', null)).toBeNull();
  });
  it('NOEEI 30.36 to Canada above that', () => {
    expect(deriveEelPfc([pricey], 'CA', null)).toBe('NOEEI 30.36');
    const r = checkCustoms(declaration({ items: [pricey] }), { origin_country: 'US', destination_country: 'CA', parcel_weight_oz: 100 });
    expect(r.ok && r.declaration.eel_pfc).toBe('NOEEI 30.36');
  });
  it('elsewhere above it the AES ITN is required, and becomes the proof of filing', () => {
    const ctx = { ...toGb, parcel_weight_oz: 100 };
    const refused = checkCustoms(declaration({ items: [pricey] }), ctx);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.details).toEqual([{ field: 'customs.aes_itn', message: expect.stringContaining('2,500 USD') }]);
    const filed = checkCustoms(declaration({ items: [pricey], aes_itn: 'x20260101234567' }), ctx);
    expect(filed.ok && [filed.declaration.aes_itn, filed.declaration.eel_pfc]).toEqual(['X20260101234567', 'AES X20260101234567']);
  });
  it('a given eel_pfc is kept; none is derived for an export from outside the US', () => {
    const given = checkCustoms(declaration({ items: [pricey], eel_pfc: 'NOEEI 30.37(h)' }), { ...toGb, parcel_weight_oz: 100 });
    expect(given.ok && given.declaration.eel_pfc).toBe('NOEEI 30.37(h)');
    const fromDe = checkCustoms(declaration({ items: [pricey] }), { origin_country: 'DE', destination_country: 'GB', parcel_weight_oz: 100 });
    expect(fromDe.ok && fromDe.declaration.eel_pfc).toBeNull();
  });
});

describe('deriveCustoms', () => {
  const line = (over: Record<string, unknown> = {}) => ({
    sku: 'MUG-1',
    name: 'Ceramic coffee mug',
    quantity: 2,
    unit_price: { amount: 1250, currency: 'USD' },
    weight_oz: 12,
    ...over,
  });
  it('builds merchandise from the lines: name, unit price, unit weight, sku; origin the ship-from country', () => {
    const r = deriveCustoms(
      [line(), line({ sku: null, name: 'Cotton tea towel', quantity: 1, unit_price: { amount: 900, currency: 'USD' }, weight_oz: 3 })],
      'US',
    );
    expect(r).toEqual({
      ok: true,
      declaration: {
        contents_type: 'merchandise',
        contents_explanation: null,
        non_delivery: 'return',
        incoterm: 'DDU',
        eel_pfc: null,
        aes_itn: null,
        signer: null,
        importer: null,
        derived: true,
        items: [
          {
            description: 'Ceramic coffee mug',
            quantity: 2,
            unit_value: { amount: 1250, currency: 'USD' },
            weight_oz: 12,
            hs_tariff_number: null,
            origin_country: 'US',
            sku: 'MUG-1',
          },
          {
            description: 'Cotton tea towel',
            quantity: 1,
            unit_value: { amount: 900, currency: 'USD' },
            weight_oz: 3,
            hs_tariff_number: null,
            origin_country: 'US',
            sku: null,
          },
        ],
      },
    });
  });
  it("takes a line's HS number when it has one, and cuts a long name to 50 characters", () => {
    const r = deriveCustoms([line({ hs_tariff_number: '6912.00', name: `${'Very long product name '.repeat(4)}` })], 'US');
    expect(r.ok && r.declaration.items[0].hs_tariff_number).toBe('6912.00');
    expect(r.ok && r.declaration.items[0].description.length).toBeLessThanOrEqual(50);
  });
  it('names every missing field, one detail each (customs_required)', () => {
    const r = deriveCustoms([line(), line({ unit_price: null, weight_oz: null }), line({ name: ' ', weight_oz: 0 })], 'US');
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.details.map((d) => d.field)).toEqual(['line_items[1].unit_price', 'line_items[1].weight_oz', 'line_items[2].name', 'line_items[2].weight_oz']);
  });
});

describe('declaredValue, defaults and the return copy', () => {
  it("totals unit × quantity in the declaration's currency", () => {
    expect(declaredValue(declaration({ items: [item(), item({ quantity: 1, unit_value: { amount: 900, currency: 'USD' } })] }))).toEqual({
      amount: 3400,
      currency: 'USD',
    });
  });
  it('applies the defaults: non_delivery return, incoterm DDU', () => {
    const d = withDefaults({
      contents_type: 'gift',
      items: [{ description: 'Wool scarf', quantity: 1, unit_value: { amount: 3000, currency: 'USD' }, weight_oz: 5, origin_country: 'GB' }],
    });
    expect(d).toMatchObject({ non_delivery: 'return', incoterm: 'DDU', eel_pfc: null, aes_itn: null, importer: null });
    expect(d.items[0]).toMatchObject({ hs_tariff_number: null, sku: null });
  });
  it("copies a shipment's declaration for its return label as return_merchandise, without the export legend", () => {
    const outbound = { ...declaration({ eel_pfc: 'NOEEI 30.37(a)', signer: 'Grace Hopper', incoterm: 'DDP' }), derived: true };
    const back = returnCustoms(outbound);
    expect(back).toMatchObject({
      contents_type: 'return_merchandise',
      eel_pfc: null,
      aes_itn: null,
      derived: false,
      signer: 'Grace Hopper',
      incoterm: 'DDP',
      items: outbound.items,
    });
    back.items[0].quantity = 99;
    expect(outbound.items[0].quantity).toBe(2); // a copy, not the same objects
  });
});
