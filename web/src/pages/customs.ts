/**
 * The customs declaration as the dashboard edits and shows it. The order's
 * `customs` on the wire; typed here until the generated client knows the field.
 */
export interface CustomsItemWire {
  description: string;
  quantity: number;
  unit_value: { amount: number; currency: string };
  weight_oz: number;
  hs_tariff_number: string | null;
  origin_country: string;
  sku: string | null;
}
export interface CustomsWire {
  contents_type: string;
  contents_explanation: string | null;
  non_delivery: string;
  incoterm: string;
  eel_pfc: string | null;
  aes_itn: string | null;
  signer: string | null;
  importer: { tax_id: string | null; eori: string | null; ioss: string | null; vat: string | null } | null;
  items: CustomsItemWire[];
}

export const CONTENTS_TYPES = ['merchandise', 'gift', 'documents', 'sample', 'return_merchandise', 'humanitarian_donation', 'other'] as const;
export const INCOTERMS = ['DDU', 'DDP', 'DAP'] as const;
export const NON_DELIVERY = ['return', 'abandon'] as const;

/** The order's declaration, or null (the generated Order type may not name it yet). */
export function customsOf(order: unknown): CustomsWire | null {
  return ((order as { customs?: CustomsWire | null } | undefined)?.customs ?? null) as CustomsWire | null;
}

export interface CustomsItemRow {
  description: string;
  quantity: string;
  value: string;
  weight_oz: string;
  hs_tariff_number: string;
  origin_country: string;
  sku: string;
}
export interface CustomsFormState {
  declared: boolean;
  contents_type: string;
  contents_explanation: string;
  incoterm: string;
  non_delivery: string;
  signer: string;
  items: CustomsItemRow[];
}

export const blankCustomsItem: CustomsItemRow = {
  description: '',
  quantity: '1',
  value: '',
  weight_oz: '',
  hs_tariff_number: '',
  origin_country: 'US',
  sku: '',
};

export function customsForm(c: CustomsWire | null): CustomsFormState {
  return {
    declared: c !== null,
    contents_type: c?.contents_type ?? 'merchandise',
    contents_explanation: c?.contents_explanation ?? '',
    incoterm: c?.incoterm ?? 'DDU',
    non_delivery: c?.non_delivery ?? 'return',
    signer: c?.signer ?? '',
    items: c
      ? c.items.map((it) => ({
          description: it.description,
          quantity: String(it.quantity),
          value: (it.unit_value.amount / 100).toFixed(2),
          weight_oz: String(it.weight_oz),
          hs_tariff_number: it.hs_tariff_number ?? '',
          origin_country: it.origin_country,
          sku: it.sku ?? '',
        }))
      : [{ ...blankCustomsItem }],
  };
}

/** Checks the browser can make (shape only: the customs rules are the server's, at purchase). */
export function customsLocalErrors(c: CustomsFormState): { field: string; message: string }[] {
  if (!c.declared) return [];
  const out: { field: string; message: string }[] = [];
  c.items.forEach((it, i) => {
    if (!it.description.trim()) out.push({ field: `customs.items[${i}].description`, message: 'is required' });
    if (!/^\d+$/.test(it.quantity) || Number(it.quantity) < 1) out.push({ field: `customs.items[${i}].quantity`, message: 'must be a whole number ≥ 1' });
    if (!/^\d+(\.\d{1,2})?$/.test(it.value)) out.push({ field: `customs.items[${i}].unit_value`, message: 'must be an amount like 12.50' });
    if (!(Number(it.weight_oz) > 0)) out.push({ field: `customs.items[${i}].weight_oz`, message: 'must be a number > 0' });
    if (!/^[A-Za-z]{2}$/.test(it.origin_country.trim())) out.push({ field: `customs.items[${i}].origin_country`, message: 'must be a 2-letter ISO code' });
  });
  return out;
}

/** The `customs` of the request body: null when not declared (on an edit, null removes it). */
export function customsBody(c: CustomsFormState) {
  if (!c.declared) return null;
  const nz = (s: string) => (s.trim() === '' ? null : s.trim());
  return {
    contents_type: c.contents_type,
    contents_explanation: nz(c.contents_explanation),
    incoterm: c.incoterm,
    non_delivery: c.non_delivery,
    signer: nz(c.signer),
    items: c.items.map((it) => ({
      description: it.description.trim(),
      quantity: Number(it.quantity),
      unit_value: { amount: Math.round(Number(it.value) * 100), currency: 'USD' },
      weight_oz: Number(it.weight_oz),
      hs_tariff_number: nz(it.hs_tariff_number),
      origin_country: it.origin_country.trim().toUpperCase(),
      sku: nz(it.sku),
    })),
  };
}
