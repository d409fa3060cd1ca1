import { VAGUE_CUSTOMS_DESCRIPTIONS, type CustomsDeclaration, type CustomsItem, type Money, type RouteFacts } from '../../carriers/types.js';
import type { ErrorDetail } from '../../platform/errors.js';
import { normalizeCountry } from '../addresses/index.js';
import type { CustomsInput } from './customs.schemas.js';

/**
 * The customs rules, as pure functions: when a declaration is required, how
 * one is derived from an order's lines, how a given one is checked and completed (eel_pfc),
 * and its declared value. The shipments module applies them at purchase.
 */

/** US military addresses (APO/FPO/DPO) by their state code: Armed Forces Americas, Europe, Pacific. */
const MILITARY_STATES = new Set(['AA', 'AE', 'AP']);

export function isMilitaryState(state: string | null | undefined): boolean {
  return typeof state === 'string' && MILITARY_STATES.has(state.trim().toUpperCase());
}

/**
 * Whether a parcel on this lane needs a customs declaration: it leaves the country (a US
 * territory counts as the US, as the carriers rate it: USPS needs no customs form to Puerto
 * Rico), or it goes to a US military address (state AA, AE, AP).
 */
export function requiresCustoms(route: Pick<RouteFacts, 'domestic'>, shipTo: { state?: string | null }): boolean {
  return !route.domestic || isMilitaryState(shipTo.state);
}

/** An order line, as the orders module keeps it. */
export interface CustomsSourceLine {
  sku: string | null;
  name: string | null;
  quantity: number;
  unit_price: Money | null;
  weight_oz: number | null;
  hs_tariff_number?: string | null;
}

export type DerivedCustoms = { ok: true; declaration: CustomsDeclaration } | { ok: false; details: ErrorDetail[] };

const DESCRIPTION_MAX = 50;

/**
 * The declaration built from an order's lines when none was given (`derived: true`): each line
 * is an item of merchandise (description the line name, cut to 50 characters; unit value the
 * unit price; weight the unit weight; its HS number and sku when it has them; origin the
 * ship-from country). A line without a name,
 * price or weight cannot be declared: one detail per missing field (`line_items[1].unit_price`),
 * which the purchase answers as 422 customs_required.
 */
export function deriveCustoms(lines: readonly CustomsSourceLine[], originCountry: string): DerivedCustoms {
  const details: ErrorDetail[] = [];
  const items: CustomsItem[] = [];
  lines.forEach((line, i) => {
    const name = line.name?.trim();
    if (!name) details.push({ field: `line_items[${i}].name`, message: 'is required to describe the line to customs' });
    if (!line.unit_price) details.push({ field: `line_items[${i}].unit_price`, message: 'is required to declare the line to customs' });
    if (line.weight_oz == null || !(line.weight_oz > 0))
      details.push({ field: `line_items[${i}].weight_oz`, message: 'is required (more than 0) to declare the line to customs' });
    if (!name || !line.unit_price || line.weight_oz == null || !(line.weight_oz > 0)) return;
    items.push({
      description: name.length > DESCRIPTION_MAX ? name.slice(0, DESCRIPTION_MAX).trimEnd() : name,
      quantity: line.quantity,
      unit_value: { amount: line.unit_price.amount, currency: line.unit_price.currency },
      weight_oz: line.weight_oz,
      hs_tariff_number: line.hs_tariff_number ?? null,
      origin_country: originCountry,
      sku: line.sku ?? null,
    });
  });
  if (details.length) return { ok: false, details };
  return {
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
      items,
      derived: true,
    },
  };
}

/** A declaration as given (order or shipment request) with its defaults: return, DDU. */
export function withDefaults(input: CustomsInput): CustomsDeclaration {
  return {
    contents_type: input.contents_type,
    contents_explanation: input.contents_explanation ?? null,
    non_delivery: input.non_delivery ?? 'return',
    incoterm: input.incoterm ?? 'DDU',
    eel_pfc: input.eel_pfc ?? null,
    aes_itn: input.aes_itn ?? null,
    signer: input.signer ?? null,
    importer: input.importer
      ? { tax_id: input.importer.tax_id ?? null, eori: input.importer.eori ?? null, ioss: input.importer.ioss ?? null, vat: input.importer.vat ?? null }
      : null,
    items: input.items.map((item) => ({
      description: item.description,
      quantity: item.quantity,
      unit_value: { amount: item.unit_value.amount, currency: item.unit_value.currency },
      weight_oz: item.weight_oz,
      hs_tariff_number: item.hs_tariff_number ?? null,
      origin_country: item.origin_country,
      sku: item.sku ?? null,
    })),
  };
}

export function isVagueDescription(description: string): boolean {
  return VAGUE_CUSTOMS_DESCRIPTIONS.has(description.trim().toLowerCase());
}

/** An HS tariff number without its dots when it is 6–10 digits, else null. */
export function normalizeHsTariffNumber(value: string): string | null {
  const digits = value.trim().replace(/\./g, '');
  return /^\d{6,10}$/.test(digits) ? digits : null;
}

/** The AES ITN, upper-cased, when it is X + 14 digits; else null. */
export function normalizeAesItn(value: string): string | null {
  const itn = value.trim().toUpperCase();
  return /^X\d{14}$/.test(itn) ? itn : null;
}

/** FTR 30.37(a): no EEI for a Schedule B line worth at most 2,500 USD (here: each item line). */
const NOEEI_LINE_LIMIT_USD_CENTS = 250_000;

/** What the lane and parcel tell the checks. */
export interface CustomsContext {
  /** ISO alpha-2 of the ship-from country (EEI legends apply to exports from the US). */
  origin_country: string;
  destination_country: string;
  /** The parcel's actual weight, which the items together may not exceed. */
  parcel_weight_oz: number;
}

export type CheckedCustoms = { ok: true; declaration: CustomsDeclaration } | { ok: false; details: ErrorDetail[] };

/** A little slack for unit weights in decimal ounces that add up to the parcel's weight. */
const WEIGHT_EPSILON_OZ = 0.001;

/**
 * The customs rules on a declaration (given or derived), with every problem as one
 * detail (`customs.items[0].description`): what the purchase answers as 422 customs_invalid.
 * On success, the declaration as it is kept and sent to the carrier: texts trimmed, countries
 * and the ITN upper-cased, HS numbers without dots, and `eel_pfc` derived when absent (exports
 * from the US: NOEEI 30.37(a) when every line is worth at most 2,500 USD, NOEEI 30.36 to
 * Canada, else the AES filing, whose ITN is then required).
 */
export function checkCustoms(declaration: CustomsDeclaration, ctx: CustomsContext): CheckedCustoms {
  const details: ErrorDetail[] = [];
  const problem = (field: string, message: string) => details.push({ field: `customs.${field}`, message });

  if (declaration.contents_type === 'other' && !declaration.contents_explanation?.trim()) {
    problem('contents_explanation', 'is required when contents_type is other');
  }
  let aesItn: string | null = null;
  if (declaration.aes_itn != null && declaration.aes_itn.trim() !== '') {
    aesItn = normalizeAesItn(declaration.aes_itn);
    if (!aesItn) problem('aes_itn', 'must be X followed by 14 digits (e.g. X20260101234567)');
  }

  const currency = declaration.items[0]?.unit_value.currency;
  let totalWeightOz = 0;
  const items: CustomsItem[] = declaration.items.map((item, i) => {
    const description = item.description.trim();
    if (description.length < 3 || description.length > DESCRIPTION_MAX) {
      problem(`items[${i}].description`, `must be 3 to ${DESCRIPTION_MAX} characters (is ${description.length})`);
    } else if (isVagueDescription(description)) {
      problem(`items[${i}].description`, `is too vague ("${description}"); say what the item is, e.g. "cotton T-shirt"`);
    }
    let hs: string | null = null;
    if (item.hs_tariff_number != null && item.hs_tariff_number.trim() !== '') {
      hs = normalizeHsTariffNumber(item.hs_tariff_number);
      if (!hs) problem(`items[${i}].hs_tariff_number`, 'must be 6 to 10 digits (dots allowed)');
    }
    const origin = normalizeCountry(item.origin_country);
    if (!origin) problem(`items[${i}].origin_country`, 'must be an ISO 3166-1 alpha-2 country code');
    if (item.unit_value.currency !== currency) {
      problem(`items[${i}].unit_value.currency`, `must be the declaration's one currency ${currency} (as in items[0])`);
    }
    if (!(item.weight_oz > 0)) problem(`items[${i}].weight_oz`, 'must be more than 0');
    totalWeightOz += item.weight_oz * item.quantity;
    return { ...item, description, hs_tariff_number: hs, origin_country: origin ?? item.origin_country, sku: item.sku ?? null };
  });
  if (totalWeightOz > ctx.parcel_weight_oz + WEIGHT_EPSILON_OZ) {
    problem('items', `the items weigh ${round(totalWeightOz)} oz together (weight_oz × quantity), more than the parcel's ${round(ctx.parcel_weight_oz)} oz`);
  }

  let eelPfc = declaration.eel_pfc?.trim() || null;
  const oneCurrency = items.every((item) => item.unit_value.currency === currency);
  // (With two currencies the values cannot be compared: that problem is named, not this one.)
  if (!eelPfc && ctx.origin_country === 'US' && oneCurrency) {
    const derived = deriveEelPfc(items, ctx.destination_country, aesItn);
    if (derived) eelPfc = derived;
    else problem('aes_itn', 'is required: an item line is worth more than 2,500 USD, so the export must be filed in AES (give its ITN, or eel_pfc)');
  }
  if (details.length) return { ok: false, details };
  return {
    ok: true,
    declaration: {
      ...declaration,
      contents_explanation: declaration.contents_explanation?.trim() || null,
      eel_pfc: eelPfc,
      aes_itn: aesItn,
      signer: declaration.signer?.trim() || null,
      importer: declaration.importer ?? null,
      items,
      derived: declaration.derived ?? false,
    },
  };
}

/**
 * The EEL/PFC a US export carries when none was given: NOEEI 30.37(a) when every line's value
 * (unit × quantity) is at most 2,500 USD; NOEEI 30.36 to Canada (no EEI for Canada whatever the
 * value, licensed goods aside); else `AES <ITN>` when the ITN is known; null: the ITN is needed.
 * Lines in another currency than USD cannot be compared without an exchange rate, so they
 * count as over the limit (to Canada still 30.36; elsewhere the ITN or an eel_pfc is asked for).
 */
export function deriveEelPfc(items: readonly CustomsItem[], destinationCountry: string, aesItn: string | null): string | null {
  const underLimit = items.every((item) => item.unit_value.currency === 'USD' && item.unit_value.amount * item.quantity <= NOEEI_LINE_LIMIT_USD_CENTS);
  if (underLimit) return 'NOEEI 30.37(a)';
  if (destinationCountry === 'CA') return 'NOEEI 30.36';
  return aesItn ? `AES ${aesItn}` : null;
}

/** The declaration's total: the sum of unit_value × quantity, in its one currency. */
export function declaredValue(declaration: Pick<CustomsDeclaration, 'items'>): Money {
  const currency = declaration.items[0]?.unit_value.currency ?? 'USD';
  return { amount: declaration.items.reduce((sum, item) => sum + item.unit_value.amount * item.quantity, 0), currency };
}

/**
 * The declaration of a return label (the returns module calls this): the outbound shipment's
 * items coming back as `return_merchandise`. The EEI legend is dropped (an import into the US
 * files no EEI; the return's own purchase derives what its lane needs) and so is `derived`.
 */
export function returnCustoms(outbound: CustomsDeclaration): CustomsDeclaration {
  return {
    contents_type: 'return_merchandise',
    contents_explanation: null,
    non_delivery: 'return',
    incoterm: outbound.incoterm,
    eel_pfc: null,
    aes_itn: null,
    signer: outbound.signer ?? null,
    importer: outbound.importer ? { ...outbound.importer } : null,
    items: outbound.items.map((item) => ({ ...item, unit_value: { ...item.unit_value } })),
    derived: false,
  };
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
