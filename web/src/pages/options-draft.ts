/**
 * The shipment options of the buy-label form (order page, "Generate label"): what the fields
 * hold, and the `options` body they make. The API checks everything again (400 per field,
 * 422 option_unavailable when the service lacks one); this only turns text fields into JSON.
 */
export const SIGNATURES = ['none', 'standard', 'adult'] as const;
export const DANGEROUS_GOODS = [
  '',
  'lithium_ion_in_equipment',
  'lithium_ion_with_equipment',
  'lithium_metal_in_equipment',
  'limited_quantity_ground',
  'dry_ice',
] as const;

export interface OptionsDraft {
  signature: (typeof SIGNATURES)[number];
  saturday_delivery: boolean;
  /** Declared value in dollars ("250.00"); empty: no insurance. */
  insurance_usd: string;
  dangerous_goods: (typeof DANGEROUS_GOODS)[number];
  dry_ice_weight_oz: string;
  reference1: string;
  reference2: string;
  delivery_instructions: string;
}

export interface OptionsBody {
  signature?: 'none' | 'standard' | 'adult';
  saturday_delivery?: boolean;
  insurance?: { amount: { amount: number; currency: string } };
  dangerous_goods?: { category: Exclude<(typeof DANGEROUS_GOODS)[number], ''>; dry_ice_weight_oz?: number };
  references?: string[];
  delivery_instructions?: string;
}

/** The form filled from the order's options (its default for every label). */
export function draftOf(
  options:
    | {
        signature: string;
        saturday_delivery: boolean;
        insurance: { amount: { amount: number } } | null;
        dangerous_goods: { category: string; dry_ice_weight_oz?: number } | null;
        references: string[];
        delivery_instructions: string | null;
      }
    | undefined,
): OptionsDraft {
  return {
    signature: (SIGNATURES as readonly string[]).includes(options?.signature ?? '') ? (options!.signature as OptionsDraft['signature']) : 'none',
    saturday_delivery: options?.saturday_delivery ?? false,
    insurance_usd: options?.insurance ? (options.insurance.amount.amount / 100).toFixed(2) : '',
    dangerous_goods: (options?.dangerous_goods?.category ?? '') as OptionsDraft['dangerous_goods'],
    dry_ice_weight_oz: options?.dangerous_goods?.dry_ice_weight_oz !== undefined ? String(options.dangerous_goods.dry_ice_weight_oz) : '',
    reference1: options?.references[0] ?? '',
    reference2: options?.references[1] ?? '',
    delivery_instructions: options?.delivery_instructions ?? '',
  };
}

/** The `options` to send: every key, so the form is what the label gets (the order's defaults included). */
export function bodyOf(d: OptionsDraft): OptionsBody {
  const body: OptionsBody = { signature: d.signature, saturday_delivery: d.saturday_delivery };
  const usd = d.insurance_usd.trim();
  // A number the API refuses (0, "abc") is sent as it reads, so the 400 names the field.
  if (usd !== '') body.insurance = { amount: { amount: Math.round(Number(usd) * 100), currency: 'USD' } };
  if (d.dangerous_goods) {
    body.dangerous_goods = { category: d.dangerous_goods };
    if (d.dry_ice_weight_oz.trim() !== '') body.dangerous_goods.dry_ice_weight_oz = Number(d.dry_ice_weight_oz);
  }
  body.references = [d.reference1, d.reference2].map((r) => r.trim()).filter(Boolean);
  if (d.delivery_instructions.trim() !== '') body.delivery_instructions = d.delivery_instructions.trim();
  return body;
}
