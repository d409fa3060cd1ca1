import type { CarrierDefinition, CarrierPackage } from '../../carriers/types.js';
import { iso } from '../../platform/http/wire.js';
import type { CarrierPackageWire, Package } from './packages.schemas.js';
import type { PackageRow } from './packages.tables.js';

export function toPackage(row: PackageRow): Package {
  return {
    id: row.id,
    name: row.name,
    length_in: Number(row.length_in),
    width_in: Number(row.width_in),
    height_in: Number(row.height_in),
    tare_weight_oz: Number(row.tare_weight_oz),
    max_weight_oz: row.max_weight_oz === null ? null : Number(row.max_weight_oz),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

export function toCarrierPackage(carrier: CarrierDefinition, p: CarrierPackage): CarrierPackageWire {
  return {
    id: p.id,
    carrier: carrier.slug,
    name: p.name,
    length_in: p.length_in,
    width_in: p.width_in,
    height_in: p.height_in,
    max_weight_oz: p.max_weight_oz,
    flat_rate_services: Object.keys(p.flat_rates),
  };
}
