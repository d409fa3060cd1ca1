import { AppError, notFound, validationError, type ErrorDetail } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Deps } from '../../platform/deps.js';
import type { Executor } from '../../platform/db/types.js';
import type { Scope, ServiceContext } from '../../platform/context.js';
import { paginate, type Page } from '../../platform/http/pagination.js';
import { iso } from '../../platform/http/wire.js';
import { originTimeZone } from '../rates/index.js';
import * as repo from './locations.repo.js';
import type { CreateLocationInput, Location, LocationListFilter, UpdateLocationInput } from './locations.schemas.js';
import type { LocationAddress, LocationRow } from './locations.tables.js';

/** What a rate or a label needs of a location: its address, its clock and its cut-off. */
export interface ShippingOrigin {
  id: string;
  address: LocationAddress & { postal_code: string };
  timezone: string;
  /** Minutes after local midnight. */
  cutoff_minutes: number;
  is_default: boolean;
}

function toLocation(row: LocationRow): Location {
  return {
    id: row.id,
    name: row.name,
    address: row.address as Location['address'],
    return_address: row.return_address as Location['return_address'],
    timezone: row.timezone,
    pickup_cutoff: row.pickup_cutoff,
    is_default: row.is_default,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

function checkLocation(input: Partial<CreateLocationInput>): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  if (input.timezone !== undefined && !isTimeZone(input.timezone)) details.push({ field: 'timezone', message: 'is not an IANA time zone (America/New_York)' });
  if (input.address) {
    for (const f of ['street1', 'city', 'country'] as const)
      if (!input.address[f]) details.push({ field: `address.${f}`, message: 'is required for a location' });
  }
  return details;
}

function normalised<T extends { country?: string } | null | undefined>(address: T): T {
  return address && address.country ? { ...address, country: address.country.toUpperCase() } : address;
}

/**
 * Where a workspace ships from (`loc_…`): an address, a return address, a time zone and a
 * cut-off. One is the default (the first one made is; making another default unmakes it). A
 * rate query naming `location_id` ships from its address, on its clock, with its cut-off.
 */
export class LocationsService {
  constructor(private readonly deps: Deps) {}

  async create(ctx: ServiceContext, input: CreateLocationInput): Promise<Location> {
    const details = checkLocation(input);
    if (details.length) throw validationError(details);
    const now = this.deps.now();
    const row = await this.deps.db.transaction().execute(async (trx) => {
      const first = (await repo.countLocations(trx, ctx)) === 0;
      const isDefault = first || input.is_default === true;
      if (isDefault) await repo.clearDefault(trx, ctx);
      return repo.insertLocation(trx, {
        id: newId('location'),
        workspace_id: ctx.workspaceId,
        environment: ctx.environment,
        name: input.name,
        address: JSON.stringify(normalised(input.address)),
        return_address: input.return_address ? JSON.stringify(normalised(input.return_address)) : null,
        timezone: input.timezone,
        pickup_cutoff: input.pickup_cutoff ?? '17:00',
        is_default: isDefault,
        created_at: now,
        updated_at: now,
      });
    });
    return toLocation(row);
  }

  async get(scope: Scope, id: string): Promise<Location> {
    const row = await repo.findLocation(this.deps.db, scope, id);
    if (!row) throw notFound('location');
    return toLocation(row);
  }

  async list(scope: Scope, filter: LocationListFilter): Promise<Page<Location>> {
    const page = await paginate(repo.locationsQuery(this.deps.db, scope), { limit: filter.limit, cursor: filter.cursor });
    return { ...page, data: page.data.map(toLocation) };
  }

  async update(scope: Scope, id: string, input: UpdateLocationInput): Promise<Location> {
    const details = checkLocation(input);
    if (details.length) throw validationError(details);
    const row = await this.deps.db.transaction().execute(async (trx) => {
      const current = await repo.findLocation(trx, scope, id, { forUpdate: true });
      if (!current) throw notFound('location');
      if (input.is_default === false && current.is_default) {
        throw validationError([{ field: 'is_default', message: 'make another location the default instead' }]);
      }
      if (input.is_default === true && !current.is_default) await repo.clearDefault(trx, scope);
      const { address, return_address: returnAddress, ...rest } = input;
      return repo.updateLocation(trx, scope, id, {
        ...rest,
        ...(address ? { address: JSON.stringify(normalised(address)) } : {}),
        ...(returnAddress !== undefined ? { return_address: returnAddress ? JSON.stringify(normalised(returnAddress)) : null } : {}),
        updated_at: this.deps.now(),
      });
    });
    return toLocation(row!);
  }

  /** The default location cannot go while others remain (make another the default first). */
  async remove(scope: Scope, id: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const current = await repo.findLocation(trx, scope, id, { forUpdate: true });
      if (!current) throw notFound('location');
      if (current.is_default && (await repo.countLocations(trx, scope)) > 1) {
        throw new AppError('invalid_state', 'The default location cannot be deleted while others remain; make another the default first.', {
          details: [{ field: 'is_default', message: 'is the default location', current_state: 'default', allowed_moves: ['update'] }],
        });
      }
      await repo.deleteLocation(trx, scope, id);
    });
  }

  /**
   * The location a row ships from: the named one (404 naming `field` when it is not this
   * scope's), else the default one (null: the scope has none). Read through `executor` so a
   * caller's open transaction can ask (PGlite has one connection).
   */
  async locationIdFor(scope: Scope, id: string | undefined, executor: Executor = this.deps.db, field = 'location_id'): Promise<string | null> {
    const row = id !== undefined ? await repo.findLocation(executor, scope, id) : await repo.findDefaultLocation(executor, scope);
    if (id !== undefined && !row)
      throw new AppError('not_found', `No such location: ${id}.`, { details: [{ field, message: 'is not a location of this workspace and environment' }] });
    return row?.id ?? null;
  }

  /**
   * The workspace origin was set (PATCH /api/admin/workspace): the default location of each
   * environment moves to it, or is made there when the environment has none, so the origin and
   * the default location never disagree (docs/api-conventions.md, "Locations"). A US address
   * brings its state's time zone; elsewhere the location keeps its own (UTC when new).
   */
  async adoptOrigin(executor: Executor, workspaceId: string, origin: Record<string, unknown>): Promise<void> {
    const address = normalised(origin as unknown as LocationAddress);
    const state = typeof address.state === 'string' ? address.state.toUpperCase() : null;
    const usZone = address.country === 'US' ? originTimeZone(state) : null;
    const now = this.deps.now();
    for (const environment of ['test', 'live'] as const) {
      const scope: Scope = { workspaceId, environment };
      const current = await repo.findDefaultLocation(executor, scope);
      if (current) {
        await repo.updateLocation(executor, scope, current.id, { address: JSON.stringify(address), ...(usZone ? { timezone: usZone } : {}), updated_at: now });
        continue;
      }
      const name = [address.company, address.name].find((v) => typeof v === 'string' && v.trim() !== '') ?? 'Origin';
      await repo.insertLocation(executor, {
        id: newId('location'),
        workspace_id: workspaceId,
        environment,
        name,
        address: JSON.stringify(address),
        return_address: null,
        timezone: usZone ?? 'UTC',
        pickup_cutoff: '17:00',
        is_default: true,
        created_at: now,
        updated_at: now,
      });
    }
  }

  /** The named location as an origin, else the scope's default location (null: none). */
  async originFor(scope: Scope, id: string | undefined): Promise<ShippingOrigin | null> {
    if (id !== undefined) return this.origin(scope, id);
    const row = await repo.findDefaultLocation(this.deps.db, scope);
    return row ? this.origin(scope, row.id) : null;
  }

  /** A location of this scope as a shipping origin; another workspace's (or none) is 404 naming `field`. */
  async origin(scope: Scope, id: string, field = 'location_id'): Promise<ShippingOrigin> {
    const row = await repo.findLocation(this.deps.db, scope, id);
    if (!row)
      throw new AppError('not_found', `No such location: ${id}.`, { details: [{ field, message: 'is not a location of this workspace and environment' }] });
    const [h, m] = row.pickup_cutoff.split(':').map(Number);
    return {
      id: row.id,
      address: { ...row.address, postal_code: row.address.postal_code ?? '' },
      timezone: row.timezone,
      cutoff_minutes: h! * 60 + m!,
      is_default: row.is_default,
    };
  }
}
