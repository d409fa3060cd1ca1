import type { CarrierDefinition, OptionName, ServiceOptions, ShipmentOptions } from '../../carriers/types.js';
import { AppError, type ErrorDetail } from '../../platform/errors.js';
import type { ShipmentOptionsInput } from './options.schemas.js';

/** The options of a parcel that asked for none. */
export const DEFAULT_OPTIONS: ShipmentOptions = {
  signature: 'none',
  saturday_delivery: false,
  insurance: null,
  dangerous_goods: null,
  references: [],
  delivery_instructions: null,
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The rules the schema cannot say, on a value of any shape (a route's body checks run them on
 * bodies the schema refused too): insurance above zero, dry ice weighed, no dry-ice weight for
 * other goods, references not blank. One detail per bad field, named under `field`.
 */
export function checkOptions(value: unknown, field = 'options'): ErrorDetail[] {
  if (!isObject(value)) return [];
  const details: ErrorDetail[] = [];
  const insurance = value.insurance;
  if (isObject(insurance) && isObject(insurance.amount) && typeof insurance.amount.amount === 'number' && insurance.amount.amount <= 0) {
    details.push({ field: `${field}.insurance.amount.amount`, message: 'must be > 0 (leave insurance null for none)' });
  }
  const dg = value.dangerous_goods;
  if (isObject(dg) && typeof dg.category === 'string') {
    if (dg.category === 'dry_ice' && dg.dry_ice_weight_oz === undefined) {
      details.push({ field: `${field}.dangerous_goods.dry_ice_weight_oz`, message: 'is required with category dry_ice' });
    } else if (dg.category !== 'dry_ice' && dg.dry_ice_weight_oz !== undefined) {
      details.push({ field: `${field}.dangerous_goods.dry_ice_weight_oz`, message: 'is only allowed with category dry_ice' });
    }
  }
  if (Array.isArray(value.references)) {
    value.references.forEach((r, i) => {
      if (typeof r === 'string' && r.trim() === '') details.push({ field: `${field}.references[${i}]`, message: 'must not be blank' });
    });
  }
  return details;
}

/** `checkOptions` on a body's `options` (a route's body checks: any shape). */
export function checkOptionsOfBody(body: unknown): ErrorDetail[] {
  return isObject(body) ? checkOptions(body.options) : [];
}

/** Given options (any subset) over `base` (the order's, else the defaults), key by key. */
export function resolveOptions(given: ShipmentOptionsInput | null | undefined, base: ShipmentOptions = DEFAULT_OPTIONS): ShipmentOptions {
  const out: ShipmentOptions = { ...base };
  if (!given) return out;
  if (given.signature !== undefined) out.signature = given.signature;
  if (given.saturday_delivery !== undefined) out.saturday_delivery = given.saturday_delivery;
  if (given.insurance !== undefined) out.insurance = given.insurance ? { amount: { ...given.insurance.amount } } : null;
  if (given.dangerous_goods !== undefined) out.dangerous_goods = given.dangerous_goods ? { ...given.dangerous_goods } : null;
  if (given.references !== undefined) out.references = given.references.map((r) => r.trim());
  if (given.delivery_instructions !== undefined) out.delivery_instructions = given.delivery_instructions?.trim() || null;
  return out;
}

/** True when nothing beyond the defaults is asked (the rate query then skips the option checks). */
export function asksNothing(options: ShipmentOptions): boolean {
  return options.signature === 'none' && !options.saturday_delivery && !options.insurance && !options.dangerous_goods;
}

export interface OptionGap {
  option: OptionName;
  message: string;
}

const money = (m: { amount: number; currency: string }) => `${(m.amount / 100).toFixed(2)} ${m.currency}`;

/**
 * The options (and parcel count) a service does not offer, each with why. References and
 * delivery instructions every service takes.
 */
export function optionGaps(serviceName: string, offer: ServiceOptions | undefined, options: ShipmentOptions, parcels = 1): OptionGap[] {
  const o = offer ?? { signature: false, adult_signature: false, saturday_delivery: false, insurance_max: null, dangerous_goods: [], max_parcels: 1 };
  const gaps: OptionGap[] = [];
  if (options.signature === 'standard' && !o.signature) gaps.push({ option: 'signature', message: `${serviceName} does not offer signature confirmation` });
  if (options.signature === 'adult' && !o.adult_signature) gaps.push({ option: 'adult_signature', message: `${serviceName} does not offer adult signature` });
  if (options.saturday_delivery && !o.saturday_delivery) gaps.push({ option: 'saturday_delivery', message: `${serviceName} does not deliver on Saturdays` });
  if (options.insurance) {
    const max = o.insurance_max;
    const asked = options.insurance.amount;
    if (!max) gaps.push({ option: 'insurance', message: `${serviceName} does not offer insurance` });
    else if (max.currency !== asked.currency) gaps.push({ option: 'insurance', message: `${serviceName} insures in ${max.currency}, not ${asked.currency}` });
    else if (asked.amount > max.amount) gaps.push({ option: 'insurance', message: `${serviceName} insures up to ${money(max)}; ${money(asked)} asked` });
  }
  if (options.dangerous_goods && !o.dangerous_goods.includes(options.dangerous_goods.category)) {
    gaps.push({ option: 'dangerous_goods', message: `${serviceName} does not carry ${options.dangerous_goods.category}` });
  }
  if (parcels > o.max_parcels) {
    gaps.push({
      option: 'parcels',
      message:
        o.max_parcels === 1
          ? `${serviceName} takes one parcel per shipment (no multi-piece)`
          : `${serviceName} takes at most ${o.max_parcels} parcels per shipment`,
    });
  }
  return gaps;
}

/**
 * 422 option_unavailable when the service lacks any option asked for: one detail per option,
 * nothing bought. The same options table answers for the simulated and the api drivers (the api
 * drivers send each option to the carrier in its own fields, docs/carriers.md "Shipment options").
 */
export function assertOptionsOffered(carrier: CarrierDefinition, serviceCode: string, options: ShipmentOptions, parcels = 1): void {
  const service = carrier.services.find((s) => s.code === serviceCode);
  const gaps = optionGaps(service?.name ?? serviceCode, service?.options, options, parcels);
  if (gaps.length === 0) return;
  throw new AppError('option_unavailable', `${service?.name ?? serviceCode} does not offer ${gaps.map((g) => g.option).join(', ')}.`, {
    details: gaps.map((g) => ({
      field: g.option === 'parcels' ? 'parcels' : `options.${g.option === 'adult_signature' ? 'signature' : g.option}`,
      option: g.option,
      message: g.message,
    })),
  });
}

/**
 * Whether a service takes this many pieces in one shipment (its `max_parcels`; USPS takes one),
 * the same for both drivers: the api drivers send every piece to the carrier
 * (docs/carriers.md, "Multi-piece shipments"). Null when it does.
 */
export function parcelsGap(serviceName: string, offer: ServiceOptions | undefined, parcels: number): OptionGap | null {
  if (parcels <= 1) return null;
  return optionGaps(serviceName, offer, DEFAULT_OPTIONS, parcels)[0] ?? null;
}

/** 422 option_unavailable (field `parcels`) when the service does not take this many pieces; nothing bought. */
export function assertParcelsTaken(carrier: CarrierDefinition, serviceCode: string, parcels: number): void {
  const service = carrier.services.find((s) => s.code === serviceCode);
  const gap = parcelsGap(service?.name ?? serviceCode, service?.options, parcels);
  if (!gap) return;
  throw new AppError('option_unavailable', gap.message, { details: [{ field: 'parcels', option: 'parcels', message: gap.message }] });
}
