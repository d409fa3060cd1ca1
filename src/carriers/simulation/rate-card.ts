import type { CarrierPackage, CountryGroup, DimDivisorUnit, SurchargeCode } from '../types.js';

/**
 * The shape of a simulated carrier's published rate card. A card is DATA: one versioned file
 * per carrier (`<slug>/rates.v2026-01.ts`). The only code that reads it is the generic
 * `rate-engine.ts`, so a price change is a data change and every quoted number can be traced
 * back to a cell of the card.
 */

/** Which zone the platform-supplied route facts give this service. */
export type ZoningScheme =
  /** USPS distance zones 1–9. */
  | 'usps'
  /** UPS/FedEx distance zones 2–8. */
  | 'ground'
  /** International zones 1–4 by country group. */
  | 'international'
  /** A single in-country zone (zone 1), for non-US domestic lanes. */
  | 'in_country'
  /** The destination country's price group (`country_groups`), as USPS prices its international services. */
  | 'country_group';

/** Price groups by destination country; a country not listed takes its region's group. */
export interface CountryPriceGroups {
  by_country: Readonly<Record<string, number>>;
  by_region: Readonly<Record<CountryGroup, number>>;
}

/** Where a service goes. */
export type Lane =
  /** US origin, US destination (territories and military included). */
  | 'us_domestic'
  /** US origin, non-US destination. */
  | 'us_export'
  /** Origin and destination in the same non-US country. */
  | 'in_country_non_us'
  /** Any origin, destination in another country. */
  | 'international';

/**
 * Billable-weight rounding: the first step whose rounded result fits under `up_to_oz` wins.
 * E.g. `[{up_to_oz: 16, step_oz: 1}, {step_oz: 16}]` = whole ounces below 1 lb, then whole
 * pounds.
 */
export interface WeightStep {
  up_to_oz?: number;
  step_oz: number;
}

export interface DimRule {
  divisor: number;
  unit: DimDivisorUnit;
  /** DIM applies only when the box is bigger than this many cubic inches (USPS: 1728). */
  applies_above_in3: number | null;
}

export interface ServiceLimits {
  /** Actual (scale) weight limit. */
  max_weight_oz: number;
  max_longest_in: number;
  /** Second-longest side (DHL's 120 × 80 × 80 cm piece). */
  max_second_longest_in?: number;
  /** Length + girth, girth = 2 × (width + height) of the sorted sides. */
  max_length_girth_in?: number;
  /** Length + width + height (USPS First-Class Package International). */
  max_dimensions_sum_in?: number;
}

/**
 * A price grid: `rows[i] = [bracket_upper_bound_oz, price_zone_a, price_zone_b, ...]` with
 * prices in cents for `zones[0], zones[1], ...`. A billable weight is priced at the first
 * row whose bound is ≥ it.
 */
export interface PriceGrid {
  zones: readonly number[];
  rows: readonly (readonly number[])[];
}

export interface ServiceRateCard {
  /** `<slug>_<service>`. */
  code: string;
  name: string;
  lane: Lane;
  zoning: ZoningScheme;
  /** The price groups of `country_group` zoning. */
  country_groups?: CountryPriceGroups;
  guaranteed: boolean;
  /**
   * Ground networks do not reach Alaska, Hawaii, territories or APO/FPO/DPO; such services are
   * unavailable when the route is noncontiguous.
   */
  ground_network: boolean;
  /** FedEx Ground serves businesses, FedEx Home Delivery homes. */
  delivers_to: 'any' | 'commercial' | 'residential';
  /**
   * The carrier's service a return of this one travels by (absent: this service). A
   * residential-only service names one that delivers to the merchant's business address.
   */
  return_service_code?: string;
  limits: ServiceLimits;
  dim: DimRule | null;
  weight_steps: readonly WeightStep[];
  /** Percent of the base price. */
  fuel_percent: number;
  /** Cents, charged when the destination is residential; 0 = none. */
  residential_fee: number;
  /** Business days by zone; a zone missing here is not served. */
  transit_days: Readonly<Record<number, number>>;
  grid: PriceGrid;
}

export interface SizeCondition {
  longest_in_gt?: number;
  second_longest_in_gt?: number;
  length_girth_in_gt?: number;
  volume_in3_gt?: number;
  /** Actual weight. */
  weight_oz_gt?: number;
}

export interface SizeSurchargeRule {
  code: Extract<SurchargeCode, 'additional_handling' | 'oversize' | 'nonstandard_length' | 'nonstandard_volume'>;
  /** Any one condition triggers the rule. */
  any_of: readonly SizeCondition[];
  /** Cents. When several rules of one code trigger, the highest amount is charged once. */
  amount: number;
  /** Only these services; absent = all. */
  services?: readonly string[];
  /** Codes this surcharge replaces (UPS/FedEx: oversize replaces additional handling). */
  replaces?: readonly SurchargeCode[];
}

export interface RemoteAreaRule {
  /** Cents per package. */
  amount: number;
  /** Inclusive ZIP3 ranges, e.g. ['995', '999'] for Alaska. */
  zip3_ranges: readonly (readonly [string, string])[];
}

export interface RateCard {
  carrier: string;
  /** Carrier display name, used in reasons. */
  carrier_name: string;
  version: string;
  currency: 'USD';
  /** Whether the carrier delivers to APO/FPO/DPO (only USPS does). */
  serves_military: boolean;
  services: readonly ServiceRateCard[];
  size_surcharges: readonly SizeSurchargeRule[];
  remote_area: RemoteAreaRule | null;
  /** The carrier's own packaging, some priced flat (see CarrierPackage). */
  packages?: readonly CarrierPackage[];
}
