import type { CarrierDefinition, CarrierPackage, EndOfDayOffer, LabelPresentation, ServiceInfo, UsHoliday } from '../types.js';
import type { RateCard } from './rate-card.js';
import type { CarrierOptionsTable } from './options-table.js';
import { simulatedAdapter } from './simulated-adapter.js';

export interface SimulatedCarrierSpec {
  slug: string;
  name: string;
  card: RateCard;
  /** What each service offers and the option tariff (the carrier's one options table). */
  options: CarrierOptionsTable;
  observed_holidays: readonly UsHoliday[];
  trackingNumber(reference: string, serviceCode: string): string;
  isValidTrackingNumber(trackingNumber: string): boolean;
  label: LabelPresentation;
  /** See CarrierDefinition.return_charges and void_window_days. */
  return_charges?: CarrierDefinition['return_charges'];
  void_window_days?: number;
  end_of_day?: EndOfDayOffer;
  /** The carrier's own packaging (its folder's packages.ts). */
  packages?: readonly CarrierPackage[];
}

/** Builds the registry metadata of a built-in simulated carrier from its rate card. */
export function defineSimulatedCarrier(spec: SimulatedCarrierSpec): CarrierDefinition {
  // The options table must cover every service: a service missing from it would be published as
  // offering nothing by accident.
  const uncovered = spec.card.services.filter((s) => !spec.options.services[s.code]).map((s) => s.code);
  if (uncovered.length > 0) throw new Error(`${spec.slug}: options table lacks ${uncovered.join(', ')}`);
  const services: ServiceInfo[] = spec.card.services.map((s) => ({
    code: s.code,
    name: s.name,
    domestic: s.lane === 'us_domestic' || s.lane === 'in_country_non_us',
    international: s.lane === 'us_export' || s.lane === 'international',
    guaranteed: s.guaranteed,
    ...(s.return_service_code ? { return_service_code: s.return_service_code } : {}),
    options: spec.options.services[s.code],
  }));
  return {
    slug: spec.slug,
    name: spec.name,
    rate_table_version: spec.card.version,
    services,
    capabilities: { rate: true, purchase: true, void: true, track: true },
    observed_holidays: spec.observed_holidays,
    isValidTrackingNumber: spec.isValidTrackingNumber,
    label: spec.label,
    ...(spec.return_charges ? { return_charges: spec.return_charges } : {}),
    ...(spec.void_window_days !== undefined ? { void_window_days: spec.void_window_days } : {}),
    ...(spec.end_of_day ? { end_of_day: spec.end_of_day } : {}),
    ...(spec.packages ? { packages: spec.packages } : {}),
    adapter: simulatedAdapter({
      card: spec.packages ? { ...spec.card, packages: spec.packages } : spec.card,
      options: spec.options,
      trackingNumber: spec.trackingNumber,
      isValidTrackingNumber: spec.isValidTrackingNumber,
    }),
  };
}
