import { describe, expect, it } from 'vitest';
import { deriveParcel, isParcelDerived, itemsWeightOz } from './orders.parcel.js';
import type { StoredLineItem } from './orders.tables.js';

const item = (quantity: number, weight_oz: number | null): StoredLineItem => ({ sku: 'S', name: null, quantity, unit_price: null, weight_oz });
const box = { length_in: 12, width_in: 9, height_in: 6 };

describe('parcel derivation', () => {
  it('sums weight × quantity over the items, ignoring items without a weight', () => {
    expect(itemsWeightOz([item(2, 8), item(3, 1.5), item(4, null)])).toBe(20.5);
    expect(itemsWeightOz([item(3, 0.1)])).toBe(0.3); // no 0.30000000000000004
    expect(itemsWeightOz([])).toBe(0);
  });

  it('derives everything from the items and the box when no parcel is given', () => {
    expect(deriveParcel(null, [item(2, 8)], box)).toEqual({ parcel: { weight_oz: 16, length_in: 12, width_in: 9, height_in: 6 }, derived: true });
  });

  it('keeps the fields given and fills the rest', () => {
    expect(deriveParcel({ weight_oz: 40 }, [item(2, 8)], box)).toEqual({ parcel: { weight_oz: 40, length_in: 12, width_in: 9, height_in: 6 }, derived: true });
    expect(deriveParcel({ length_in: 5, width_in: 5, height_in: 5 }, [item(1, 7)], box)).toEqual({
      parcel: { weight_oz: 7, length_in: 5, width_in: 5, height_in: 5 },
      derived: true,
    });
  });

  it('a complete parcel is not derived', () => {
    const full = { weight_oz: 1, length_in: 2, width_in: 3, height_in: 4 };
    expect(deriveParcel(full, [item(9, 9)], box)).toEqual({ parcel: full, derived: false });
    expect(isParcelDerived(full)).toBe(false);
    expect(isParcelDerived(undefined)).toBe(true);
  });
});
