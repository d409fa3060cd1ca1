/**
 * Shared by the api drivers' option builders (docs/carriers.md, "Shipment options"): what was
 * asked, and how an option's charge a carrier itemised joins the rate's surcharges.
 */
import type { ShipmentOptions, Surcharge, SurchargeCode } from './types.js';

/** The options of a request when it carries any; null when it asked for none. */
export function optionsAsked(options: ShipmentOptions | undefined | null): ShipmentOptions | null {
  if (!options) return null;
  const any =
    options.signature !== 'none' ||
    options.saturday_delivery ||
    options.insurance !== null ||
    options.dangerous_goods !== null ||
    options.references.length > 0 ||
    !!options.delivery_instructions;
  return any ? options : null;
}

/** Adds a charge to the surcharge of its code (several itemised lines of one code are summed). */
export function addSurcharge(byCode: Map<string, Surcharge>, code: SurchargeCode, amount: { amount: number; currency: string }): void {
  const prev = byCode.get(code);
  byCode.set(code, { code, amount: { amount: (prev?.amount.amount ?? 0) + amount.amount, currency: amount.currency } });
}
