import type { Parcel } from '../../carriers/types.js';
import { AppError, notFound, validationError, type ErrorDetail } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Deps } from '../../platform/deps.js';
import type { Scope, ServiceContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { paginate, type Page } from '../../platform/http/pagination.js';
import * as repo from './packages.repo.js';
import type { CarrierPackageWire, CreatePackageInput, Package, PackageListFilter, UpdatePackageInput } from './packages.schemas.js';
import { toCarrierPackage, toPackage } from './packages.wire.js';

/** A parcel given by a package instead of dimensions. */
export interface PackagedParcelInput {
  package_id: string;
  weight_oz: number;
}

export function isPackagedParcel(parcel: unknown): parcel is PackagedParcelInput {
  return typeof parcel === 'object' && parcel !== null && typeof (parcel as { package_id?: unknown }).package_id === 'string';
}

const DIMENSIONS = ['length_in', 'width_in', 'height_in'] as const;

/**
 * The either-or of a parcel that may name a package: every dimension without `package_id`, none
 * with it. Accepts any JSON value (a route's body checks run on bodies the schema refused).
 */
export function checkParcelShape(parcel: unknown, field = 'parcel'): ErrorDetail[] {
  if (typeof parcel !== 'object' || parcel === null || Array.isArray(parcel)) return [];
  const p = parcel as Record<string, unknown>;
  if (p.package_id !== undefined) {
    return DIMENSIONS.filter((d) => p[d] !== undefined).map((d) => ({ field: `${field}.${d}`, message: 'give package_id or the dimensions, not both' }));
  }
  return DIMENSIONS.filter((d) => p[d] === undefined).map((d) => ({ field: `${field}.${d}`, message: 'is required (or give package_id)' }));
}

/**
 * Package presets of a workspace (`pkg_…`) and the carriers' own packaging (data in each carrier
 * folder). A parcel given as `{package_id, weight_oz}` becomes dimensions here: a preset adds its
 * tare weight; a carrier's packaging keeps its id, so that carrier prices it (flat where it says)
 * and no other carrier carries it.
 */
export class PackagesService {
  constructor(private readonly deps: Deps) {}

  async create(ctx: ServiceContext, input: CreatePackageInput): Promise<Package> {
    const now = this.deps.now();
    const row = await repo.insertPackage(this.deps.db, {
      id: newId('package'),
      workspace_id: ctx.workspaceId,
      environment: ctx.environment,
      name: input.name,
      length_in: input.length_in,
      width_in: input.width_in,
      height_in: input.height_in,
      tare_weight_oz: input.tare_weight_oz ?? 0,
      max_weight_oz: input.max_weight_oz ?? null,
      created_at: now,
      updated_at: now,
    });
    return toPackage(row);
  }

  async get(scope: Scope, id: string): Promise<Package> {
    const row = await repo.findPackage(this.deps.db, scope, id);
    if (!row) throw notFound('package');
    return toPackage(row);
  }

  async list(scope: Scope, filter: PackageListFilter): Promise<Page<Package>> {
    const page = await paginate(repo.packagesQuery(this.deps.db, scope), { limit: filter.limit, cursor: filter.cursor });
    return { ...page, data: page.data.map(toPackage) };
  }

  async update(scope: Scope, id: string, input: UpdatePackageInput): Promise<Package> {
    const row = await repo.updatePackage(this.deps.db, scope, id, { ...input, updated_at: this.deps.now() });
    if (!row) throw notFound('package');
    return toPackage(row);
  }

  async remove(scope: Scope, id: string): Promise<void> {
    if (!(await repo.deletePackage(this.deps.db, scope, id))) throw notFound('package');
  }

  /** GET /v1/carrier-packages: every registered carrier's own packaging, carrier by carrier. */
  carrierPackages(): CarrierPackageWire[] {
    return this.deps.carriers.carriers.flatMap((c) => (c.packages ?? []).map((p) => toCarrierPackage(c, p)));
  }

  /**
   * The parcel a `{package_id, weight_oz}` stands for. A package of another workspace, or none,
   * is 404; contents that make it heavier than the package allows are 400 on `<field>.weight_oz`.
   */
  async resolveParcel(scope: Scope, parcel: PackagedParcelInput, field = 'parcel', executor: Executor = this.deps.db): Promise<Parcel> {
    for (const carrier of this.deps.carriers.carriers) {
      const own = carrier.packages?.find((p) => p.id === parcel.package_id);
      if (!own) continue;
      if (parcel.weight_oz > own.max_weight_oz)
        throw validationError([{ field: `${field}.weight_oz`, message: `exceeds the ${own.name}'s limit of ${own.max_weight_oz} oz` }]);
      return { weight_oz: parcel.weight_oz, length_in: own.length_in, width_in: own.width_in, height_in: own.height_in, package_id: own.id };
    }
    const row = parcel.package_id.startsWith('pkg_') ? await repo.findPackage(executor, scope, parcel.package_id) : undefined;
    if (!row)
      throw new AppError('not_found', `No such package: ${parcel.package_id}.`, {
        details: [
          {
            field: `${field}.package_id`,
            message: "is neither a package of this workspace and environment nor a carrier's packaging (GET /v1/carrier-packages)",
          },
        ],
      });
    const weight = parcel.weight_oz + Number(row.tare_weight_oz);
    if (row.max_weight_oz !== null && weight > Number(row.max_weight_oz)) {
      throw validationError([
        { field: `${field}.weight_oz`, message: `with the box's tare (${Number(row.tare_weight_oz)} oz) exceeds its limit of ${Number(row.max_weight_oz)} oz` },
      ]);
    }
    return { weight_oz: weight, length_in: Number(row.length_in), width_in: Number(row.width_in), height_in: Number(row.height_in) };
  }
}
