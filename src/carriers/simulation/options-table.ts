import type { DangerousGoodsCategory, Money, ServiceOptions, ShipmentOptions, Surcharge } from '../types.js';

/**
 * A carrier's shipment options as DATA (`<slug>/options.v2026-01.ts`), the one table per
 * carrier: `services` says what each service offers (GET /v1/carrier-types publishes it and the
 * platform checks every rate query and purchase against it, for the simulated and the api
 * driver alike); `tariff` prices each option for the simulated driver (an api driver's carrier
 * prices them itself).
 */
export interface CarrierOptionsTable {
  version: string;
  currency: 'USD';
  tariff: OptionTariff;
  services: Readonly<Record<string, ServiceOptions>>;
}

/** Cents, per package. */
export interface OptionTariff {
  signature: number;
  adult_signature: number;
  saturday_delivery: number;
  /** Declared value: nothing up to `included_up_to` (the carrier's own liability), then `per_100` for each started 100 USD of the whole value, at least `minimum`. */
  insurance: { included_up_to: number; per_100: number; minimum: number };
  /** Per category offered; a category missing here costs nothing. */
  dangerous_goods: Partial<Record<DangerousGoodsCategory, number>>;
}

/** A service that offers no option and one parcel (a service missing from the table). */
export const NO_OPTIONS: ServiceOptions = {
  signature: false,
  adult_signature: false,
  saturday_delivery: false,
  insurance_max: null,
  dangerous_goods: [],
  max_parcels: 1,
};

const usd = (amount: number): Money => ({ amount, currency: 'USD' });

/** The insurance premium for a declared value (0: within the carrier's included liability). */
export function insurancePremium(tariff: OptionTariff, amount: number): number {
  const { included_up_to, per_100, minimum } = tariff.insurance;
  if (amount <= included_up_to) return 0;
  return Math.max(minimum, Math.ceil(amount / 10_000) * per_100);
}

/**
 * The surcharges of the options asked for, per package, times `packages`. A free option adds no
 * entry. The caller has already checked that the service offers them.
 */
export function optionSurcharges(table: CarrierOptionsTable, options: ShipmentOptions | undefined, packages = 1): Surcharge[] {
  if (!options) return [];
  const { tariff } = table;
  const out: Surcharge[] = [];
  const add = (code: Surcharge['code'], cents: number) => {
    if (cents > 0) out.push({ code, amount: usd(cents * packages) });
  };
  if (options.signature === 'standard') add('signature', tariff.signature);
  if (options.signature === 'adult') add('adult_signature', tariff.adult_signature);
  if (options.saturday_delivery) add('saturday_delivery', tariff.saturday_delivery);
  // Declared value is for the whole shipment: charged once, not per package.
  if (options.insurance) {
    const premium = insurancePremium(tariff, options.insurance.amount.amount);
    if (premium > 0) out.push({ code: 'insurance', amount: usd(premium) });
  }
  if (options.dangerous_goods) add('dangerous_goods', tariff.dangerous_goods[options.dangerous_goods.category] ?? 0);
  return out;
}
