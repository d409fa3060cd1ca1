import type { Parcel } from '../types.js';
import type { DimRule, WeightStep } from './rate-card.js';

/** Cubic centimetres in a cubic inch, and ounces in a kilogram (exact conversions). */
const CM3_PER_IN3 = 16.387064;
const OZ_PER_KG = 35.27396195;
const OZ_PER_LB = 16;

/**
 * Floating-point slack for ceilings: 139 in³ / 139 × 16 must be exactly 16 oz, not 17 after
 * an ulp of error.
 */
const EPSILON = 1e-9;

export interface ParcelMeasures {
  /** Sides sorted longest first. */
  longest_in: number;
  second_longest_in: number;
  shortest_in: number;
  /** Longest side + 2 × (the other two). */
  length_girth_in: number;
  dimensions_sum_in: number;
  volume_in3: number;
}

export function measureParcel(parcel: Parcel): ParcelMeasures {
  const [longest, second, shortest] = [parcel.length_in, parcel.width_in, parcel.height_in].sort((a, b) => b - a);
  return {
    longest_in: longest,
    second_longest_in: second,
    shortest_in: shortest,
    length_girth_in: longest + 2 * (second + shortest),
    dimensions_sum_in: longest + second + shortest,
    volume_in3: longest * second * shortest,
  };
}

/**
 * Dimensional weight in whole ounces (rounded up), or null when the rule does not apply to
 * this box (no rule, or USPS's box not above 1 cubic foot).
 *
 * - `in3_per_lb`: L×W×H / divisor pounds (UPS/FedEx 139, USPS 166).
 * - `cm3_per_kg`: the box in cm³ / divisor kilograms (DHL Express 5000), converted to ounces.
 */
export function dimWeightOz(volumeIn3: number, rule: DimRule | null): number | null {
  if (!rule) return null;
  if (rule.applies_above_in3 !== null && !(volumeIn3 > rule.applies_above_in3)) return null;
  const oz = rule.unit === 'in3_per_lb' ? (volumeIn3 / rule.divisor) * OZ_PER_LB : ((volumeIn3 * CM3_PER_IN3) / rule.divisor) * OZ_PER_KG;
  return ceilSafe(oz);
}

/** Rounds a weight up to the carrier's billing increment (see WeightStep). */
export function roundUpWeight(weightOz: number, steps: readonly WeightStep[]): number {
  for (const step of steps) {
    const rounded = ceilSafe(weightOz / step.step_oz) * step.step_oz;
    if (step.up_to_oz === undefined || rounded <= step.up_to_oz) return Math.max(rounded, step.step_oz);
  }
  // The last step has no bound by construction; this is for a malformed card only.
  const last = steps[steps.length - 1];
  return ceilSafe(weightOz / last.step_oz) * last.step_oz;
}

/** billable = max(actual, DIM), rounded up to the carrier's increment. */
export function billableWeightOz(actualOz: number, dimOz: number | null, steps: readonly WeightStep[]): number {
  return roundUpWeight(Math.max(actualOz, dimOz ?? 0), steps);
}

function ceilSafe(value: number): number {
  return Math.ceil(value - EPSILON);
}
