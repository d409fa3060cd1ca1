import { describe, expect, it } from 'vitest';
import type { DimRule, WeightStep } from './rate-card.js';
import { billableWeightOz, dimWeightOz, measureParcel, roundUpWeight } from './dim-weight.js';

const UPS_FEDEX: DimRule = { divisor: 139, unit: 'in3_per_lb', applies_above_in3: null };
const USPS: DimRule = { divisor: 166, unit: 'in3_per_lb', applies_above_in3: 1728 };
const DHL: DimRule = { divisor: 5000, unit: 'cm3_per_kg', applies_above_in3: null };
const CM = 1 / 2.54;

describe('measureParcel', () => {
  it('sorts sides and computes length + girth from the longest side', () => {
    const m = measureParcel({ weight_oz: 1, length_in: 10, width_in: 30, height_in: 20 });
    expect([m.longest_in, m.second_longest_in, m.shortest_in]).toEqual([30, 20, 10]);
    expect(m.length_girth_in).toBe(30 + 2 * (20 + 10));
    expect(m.volume_in3).toBe(6000);
    expect(m.dimensions_sum_in).toBe(60);
  });
});

describe('dimWeightOz per carrier rule', () => {
  it('UPS/FedEx: L×W×H / 139 lb, rounded up to a whole ounce, on every box', () => {
    // 1728 / 139 = 12.4317 lb = 198.9 oz
    expect(dimWeightOz(12 * 12 * 12, UPS_FEDEX)).toBe(199);
    // 1000 / 139 = 7.194 lb = 115.1 oz
    expect(dimWeightOz(1000, UPS_FEDEX)).toBe(116);
    // even a small box has a DIM weight
    expect(dimWeightOz(6 * 4 * 2, UPS_FEDEX)).toBe(6); // 48/139*16 = 5.53
  });

  it('an exact multiple of the divisor is not bumped up by float error', () => {
    expect(dimWeightOz(139, UPS_FEDEX)).toBe(16);
    expect(dimWeightOz(1390, UPS_FEDEX)).toBe(160);
  });

  it('USPS: /166 only above 1728 in³ (1 cubic foot)', () => {
    expect(dimWeightOz(12 * 12 * 12, USPS)).toBeNull();
    expect(dimWeightOz(1000, USPS)).toBeNull();
    // 12×12×12.1 = 1742.4 in³ / 166 = 10.496 lb = 167.94 oz
    expect(dimWeightOz(12 * 12 * 12.1, USPS)).toBe(168);
    // 20×20×20 = 8000 / 166 = 48.19 lb = 771.1 oz
    expect(dimWeightOz(8000, USPS)).toBe(772);
  });

  it('DHL Express: cm³ / 5000 kg, converted to ounces', () => {
    // 30×20×10 cm = 6000 cm³ = 1.2 kg = 42.33 oz
    expect(dimWeightOz(30 * CM * 20 * CM * 10 * CM, DHL)).toBe(43);
    // 50×40×30 cm = 60000 cm³ = 12 kg = 423.29 oz
    expect(dimWeightOz(50 * CM * 40 * CM * 30 * CM, DHL)).toBe(424);
  });

  it('no rule → null', () => {
    expect(dimWeightOz(99999, null)).toBeNull();
  });
});

describe('roundUpWeight / billableWeightOz', () => {
  const groundAdvantage: WeightStep[] = [{ up_to_oz: 16, step_oz: 1 }, { step_oz: 16 }];
  const wholePounds: WeightStep[] = [{ step_oz: 16 }];
  const halfPoundFirst: WeightStep[] = [{ up_to_oz: 8, step_oz: 8 }, { step_oz: 16 }];
  const dhl: WeightStep[] = [{ up_to_oz: 160, step_oz: 8 }, { step_oz: 16 }];

  it.each([
    [0.1, 1],
    [4, 4],
    [4.01, 5],
    [15.2, 16],
    [16, 16],
    [16.01, 32],
    [33, 48],
  ])('ounces below 1 lb, then pounds: %s oz → %s oz', (w, expected) => {
    expect(roundUpWeight(w, groundAdvantage)).toBe(expected);
  });

  it.each([
    [0.5, 16],
    [16, 16],
    [17, 32],
    [2399.5, 2400],
  ])('whole pounds: %s oz → %s oz', (w, expected) => {
    expect(roundUpWeight(w, wholePounds)).toBe(expected);
  });

  it.each([
    [3, 8],
    [8, 8],
    [9, 16],
    [24.5, 32],
  ])('a half-pound bracket then pounds: %s oz → %s oz', (w, expected) => {
    expect(roundUpWeight(w, halfPoundFirst)).toBe(expected);
  });

  it.each([
    [1, 8],
    [100, 104],
    [160, 160],
    [161, 176],
  ])('DHL half pounds to 10 lb, then pounds: %s oz → %s oz', (w, expected) => {
    expect(roundUpWeight(w, dhl)).toBe(expected);
  });

  it('billable = max(actual, DIM) rounded up', () => {
    expect(billableWeightOz(10, 199, wholePounds)).toBe(208); // DIM 12.4 lb → 13 lb
    expect(billableWeightOz(300, 199, wholePounds)).toBe(304); // actual 18.75 lb → 19 lb
    expect(billableWeightOz(5, null, groundAdvantage)).toBe(5);
  });
});
