import { createHash } from 'node:crypto';
import type { CarrierDefinition } from '../../carriers/types.js';
import type { ApiManifestResult } from '../../carriers/driver.js';
import { AppError, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Deps } from '../../platform/deps.js';
import type { Scope, ServiceContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import { paginate, type Page } from '../../platform/http/pagination.js';
import { recordEvent } from '../events/index.js';
import { writeAudit } from '../audit/index.js';
import { findWorkspaceOrigin } from '../identity/index.js';
import { isValidDate, localClock, originTimeZone } from '../rates/index.js';
import type { LocationsService, ShippingOrigin } from '../locations/index.js';
import { batchShipmentIds } from '../batches/index.js';
import { renderManifestDocument } from '../labels/index.js';
import type { CarrierAccountRow, CarrierGateway } from '../carrier-accounts/index.js';
import type { EndOfDayShipment, ShipmentsEndOfDay } from '../shipments/index.js';
import * as repo from './manifests.repo.js';
import type { CreateManifestInput, Manifest, ManifestListFilter } from './manifests.schemas.js';
import type { ManifestError, Rejection } from './manifests.tables.js';
import { toManifest } from './manifests.wire.js';

export const BUILD_MANIFEST_JOB = 'manifests.build';
/** A carrier that cannot be reached is asked again (5 s, 10 s, 20 s…); after the last attempt the manifest fails. */
const BUILD_JOB_OPTIONS = { retryLimit: 5, retryDelaySeconds: 5, expireInSeconds: 120 } as const;

export interface BuildManifestJob {
  manifest_id: string;
  workspace_id: string;
  environment: 'test' | 'live';
}

interface Address {
  name?: string;
  company?: string;
  street1?: string;
  street2?: string;
  city?: string;
  state?: string;
  postal_code?: string;
  country: string;
}

/** 422 capability_unavailable: the carrier does not offer this (the same in test and live). */
export function capabilityUnavailable(carrier: CarrierDefinition, capability: 'manifests' | 'pickups'): AppError {
  return new AppError('capability_unavailable', `${carrier.name} does not offer ${capability} (GET /v1/carrier-types: capabilities.${capability}).`, {
    details: [{ field: 'carrier', message: `${carrier.slug} does not offer ${capability}`, capability }],
  });
}

/**
 * A SCAN form number in the shape of an IMpb (22 digits: 92 75 …, a mod-10 check digit last),
 * derived from the manifest id so a rebuilt form prints the same number.
 */
export function scanFormNumber(manifestId: string): string {
  const hash = createHash('sha256').update(manifestId).digest();
  let digits = '';
  for (let i = 0; digits.length < 15; i++) digits += String(hash[i]! % 10);
  const body = `927509${digits}`;
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[body.length - 1 - i]) * (i % 2 === 0 ? 3 : 1);
  return `${body}${(10 - (sum % 10)) % 10}`;
}

/**
 * End-of-day manifests. Creating one settles which labels go on the form at
 * once, in one transaction (each label's `manifest_id` is claimed, so two manifests never share
 * one and one bad label never sinks the form), and queues a job that makes the form: the
 * carrier's own through its API where the account's driver has `manifest` (USPS SCAN form,
 * FedEx Ground close), else printed here. The job moves pending → ready (and records
 * `manifest.ready`) or → failed, which frees the labels again.
 */
export class ManifestsService {
  constructor(
    private readonly deps: Deps,
    private readonly gateway: CarrierGateway,
    private readonly shipments: ShipmentsEndOfDay,
    private readonly locations: Pick<LocationsService, 'originFor' | 'origin'>,
  ) {}

  private get baseUrl(): string {
    return this.deps.config.publicBaseUrl;
  }

  /** POST /v1/manifests → 202 with the pending manifest (its shipment_ids and rejected already settled). */
  async create(ctx: ServiceContext, input: CreateManifestInput): Promise<Manifest> {
    const carrier = this.deps.carriers.get(input.carrier);
    if (!carrier)
      throw validationError([{ field: 'carrier', message: `is not a carrier of this service (${this.deps.carriers.carriers.map((c) => c.slug).join(', ')})` }]);
    if (!carrier.end_of_day?.manifest) throw capabilityUnavailable(carrier, 'manifests');
    if (input.shipment_ids && input.batch_id) throw validationError([{ field: 'batch_id', message: 'give shipment_ids or batch_id, not both' }]);
    if (input.ship_date !== undefined && !isValidDate(input.ship_date))
      throw validationError([{ field: 'ship_date', message: 'must be a calendar date YYYY-MM-DD' }]);
    const account = await this.gateway.accountForPurchase(ctx, carrier.slug, input.carrier_account_id);
    // Per location and carrier: the named location (404 when not this scope's), else the default one.
    const location = await this.locations.originFor(ctx, input.location_id);
    const shipDate = input.ship_date ?? (location ? localClock(this.deps.now(), location.timezone).date : await this.today(ctx));
    const now = this.deps.now();
    const id = newId('manifest');

    const row = await this.deps.db.transaction().execute(async (trx) => {
      let listed: string[] | null = input.shipment_ids ? [...new Set(input.shipment_ids)] : null;
      if (input.batch_id) {
        listed = await batchShipmentIds(trx, ctx, input.batch_id);
        if (!listed) throw validationError([{ field: 'batch_id', message: 'is not a batch of this workspace and environment' }]);
      }
      const rejected: Rejection[] = [];
      let eligible: EndOfDayShipment[];
      if (listed) {
        const found = new Map((await this.shipments.byIds(trx, ctx, listed)).map((s) => [s.id, s]));
        eligible = [];
        for (const shipmentId of listed) {
          const s = found.get(shipmentId);
          const reason = rejectionOf(s, account, shipDate, location);
          if (reason) rejected.push({ shipment_id: shipmentId, ...reason });
          else eligible.push(s!);
        }
      } else {
        // The default location's form also takes the labels of no location (an order's own
        // ship_from, labels from before locations): every label lands on some location's form.
        eligible = await this.shipments.unmanifested(trx, ctx, account.id, shipDate, location ? { id: location.id, withUnlocated: location.is_default } : null);
      }
      const claimed = new Set(
        await this.shipments.claimForManifest(
          trx,
          ctx,
          eligible.map((s) => s.id),
          id,
        ),
      );
      // Taken by a manifest created at the same moment.
      for (const s of eligible)
        if (!claimed.has(s.id)) rejected.push({ shipment_id: s.id, code: 'already_manifested', message: 'The label is already on another manifest.' });
      const included = eligible.filter((s) => claimed.has(s.id)).map((s) => s.id);
      if (included.length === 0) throw noEligible(rejected, listed, account, shipDate, input.batch_id !== undefined, location);

      const inserted = await repo.insertManifest(trx, {
        id,
        workspace_id: ctx.workspaceId,
        environment: ctx.environment,
        carrier: carrier.slug,
        carrier_account_id: account.id,
        ship_date: shipDate,
        status: 'pending',
        shipment_ids: JSON.stringify(included),
        rejected: JSON.stringify(rejected),
        batch_id: input.batch_id ?? null,
        location_id: location?.id ?? null,
        created_at: now,
        updated_at: now,
      });
      await this.deps.jobs.send<BuildManifestJob>(
        BUILD_MANIFEST_JOB,
        { manifest_id: id, workspace_id: ctx.workspaceId, environment: ctx.environment },
        { executor: trx, ...BUILD_JOB_OPTIONS },
      );
      if (ctx.actor.type === 'account') {
        await writeAudit(trx, ctx.actor, ctx, {
          action: 'manifest.created',
          targetType: 'manifest',
          targetId: id,
          workspaceId: ctx.workspaceId,
          environment: ctx.environment,
          changes: { carrier: carrier.slug, location_id: location?.id ?? null, ship_date: shipDate, shipments: included.length },
        });
      }
      return inserted;
    });
    return toManifest(row, this.baseUrl);
  }

  async get(scope: Scope, id: string): Promise<Manifest> {
    const row = await repo.findManifest(this.deps.db, scope, id);
    if (!row) throw new AppError('not_found', 'No such manifest.');
    return toManifest(row, this.baseUrl);
  }

  async list(scope: Scope, filter: ManifestListFilter): Promise<Page<Manifest>> {
    const page = await paginate(repo.manifestsQuery(this.deps.db, scope, { status: filter.status, carrier: filter.carrier, locationId: filter.location_id }), {
      limit: filter.limit,
      cursor: filter.cursor,
    });
    return { ...page, data: page.data.map((r) => toManifest(r, this.baseUrl)) };
  }

  /** GET /v1/manifests/:id/document: the form (PDF); 409 invalid_state until ready. */
  async document(scope: Scope, id: string): Promise<{ body: Buffer; content_type: string; filename: string }> {
    const row = await repo.findManifestDocument(this.deps.db, scope, id);
    if (!row) throw new AppError('not_found', 'No such manifest.');
    if (row.status !== 'ready' || !row.document) {
      throw new AppError(
        'invalid_state',
        row.status === 'failed' ? 'The manifest failed; it has no document.' : 'The manifest is still being made; its document is available once it is ready.',
        {
          details: [{ field: 'status', message: `is ${row.status}`, current_state: row.status, allowed_moves: [] }],
        },
      );
    }
    const ext = row.document_content_type === 'application/pdf' ? 'pdf' : 'bin';
    return {
      body: Buffer.from(row.document.buffer, row.document.byteOffset, row.document.byteLength),
      content_type: row.document_content_type ?? 'application/pdf',
      filename: `${row.document_type ?? 'manifest'}-${row.id}.${ext}`,
    };
  }

  /**
   * The job: makes the form of a pending manifest (a manifest no longer pending is left as it
   * is, so a second run does nothing). A carrier that cannot be reached is asked again on the
   * job's retries; its refusal, or no answer after the last attempt, fails the manifest.
   */
  async build(job: BuildManifestJob, attempt: { attempt: number; maxAttempts: number }): Promise<void> {
    try {
      await this.#build(job, attempt);
    } catch (err) {
      // The last attempt of something unforeseen (a render that crashed): failed, not pending forever.
      if (attempt.attempt >= attempt.maxAttempts) {
        this.deps.log.error({ err, manifest_id: job.manifest_id }, 'manifest could not be made');
        await this.fail({ workspaceId: job.workspace_id, environment: job.environment }, job.manifest_id, {
          code: 'internal_error',
          message: 'The form could not be made; create the manifest again.',
          details: [],
        });
        return;
      }
      throw err;
    }
  }

  async #build(job: BuildManifestJob, attempt: { attempt: number; maxAttempts: number }): Promise<void> {
    const scope: Scope = { workspaceId: job.workspace_id, environment: job.environment };
    const row = await repo.findManifest(this.deps.db, scope, job.manifest_id);
    if (!row || row.status !== 'pending') return;
    const carrier = this.deps.carriers.get(row.carrier);
    const shipments = await this.shipments.byIds(this.deps.db, scope, row.shipment_ids);
    const byId = new Map(shipments.map((s) => [s.id, s]));
    const listed = row.shipment_ids.flatMap((sid) => (byId.has(sid) ? [byId.get(sid)!] : []));
    const account = await this.gateway.accountOf(scope, row.carrier_account_id);
    // The form names where the parcels are handed over: the manifest's location, else the origin.
    const location = row.location_id ? await this.locations.origin(scope, row.location_id).catch(() => null) : null;
    const origin = (location?.address as Address | undefined) ?? (await this.origin(scope)) ?? (listed[0]?.ship_from as Address | undefined) ?? null;

    let issued: ApiManifestResult | null = null;
    const driver = account ? this.gateway.driverOf(account) : undefined;
    if (account && driver?.manifest) {
      try {
        issued = await this.gateway.call(scope, account, undefined, (d, c) =>
          d.manifest!(c, {
            ship_date: row.ship_date,
            address: { ...(origin ?? { country: 'US' }), postal_code: origin?.postal_code ?? '' },
            shipments: listed.map((s) => ({ tracking_number: s.tracking_number, carrier_shipment_id: s.carrier_shipment_id, service_code: s.service_code })),
          }),
        );
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (err.retryable && attempt.attempt < attempt.maxAttempts) throw err;
        await this.fail(scope, row.id, { code: err.code, message: err.message, details: [...(err.details ?? [])] });
        return;
      }
    }

    const refused = new Map((issued?.rejected ?? []).map((r) => [r.tracking_number, r]));
    const carrierRejected: Rejection[] = listed
      .filter((s) => refused.has(s.tracking_number))
      .map((s) => ({ shipment_id: s.id, code: 'carrier_rejected', message: refused.get(s.tracking_number)!.message }));
    const included = listed.filter((s) => !refused.has(s.tracking_number));
    if (included.length === 0) {
      await this.fail(
        scope,
        row.id,
        {
          code: 'carrier_rejected',
          message: 'The carrier left every label off the form.',
          details: carrierRejected.map((r) => ({ field: 'shipment_ids', message: r.message, shipment_id: r.shipment_id })),
        },
        carrierRejected,
      );
      return;
    }

    const kind = carrier?.end_of_day?.manifest ?? 'close_report';
    let document: { type: string; content_type: string; bytes: Buffer };
    let formNumber = issued?.carrier_manifest_id ?? null;
    if (issued?.document) {
      document = { type: issued.document.type, content_type: issued.document.artifact.mime, bytes: issued.document.artifact.bytes };
    } else {
      formNumber ??= kind === 'scan_form' ? scanFormNumber(row.id) : row.id.toUpperCase();
      const bytes = await renderManifestDocument({
        kind,
        form_number: formNumber,
        manifest_id: row.id,
        carrier: row.carrier,
        carrier_name: carrier?.name ?? row.carrier,
        account: account?.account_number ?? row.carrier_account_id,
        ship_date: row.ship_date,
        origin,
        created_at: this.deps.now().toISOString(),
        shipments: included.map((s) => ({ tracking_number: s.tracking_number, service_name: s.service_name, weight_oz: s.weight_oz })),
        sample: scope.environment === 'test',
      });
      document = { type: kind, content_type: 'application/pdf', bytes };
    }

    await this.deps.db.transaction().execute(async (trx) => {
      const current = await repo.findManifest(trx, scope, row.id, { forUpdate: true });
      if (!current || current.status !== 'pending') return;
      await this.shipments.release(
        trx,
        scope,
        carrierRejected.map((r) => r.shipment_id),
        row.id,
      );
      const now = this.deps.now();
      const ready = await repo.updateManifest(trx, row.id, {
        status: 'ready',
        shipment_ids: JSON.stringify(included.map((s) => s.id)),
        rejected: JSON.stringify([...current.rejected, ...carrierRejected]),
        document_type: document.type,
        document_content_type: document.content_type,
        document: document.bytes,
        carrier_manifest_id: formNumber,
        ready_at: now,
        updated_at: now,
      });
      await recordEvent(trx, scope, 'manifest.ready', { manifest: toManifest(ready, this.baseUrl) });
    });
  }

  /** pending → failed: the labels are free for another manifest again. */
  private async fail(scope: Scope, id: string, error: ManifestError, extraRejected: Rejection[] = []): Promise<void> {
    await this.deps.db.transaction().execute(async (trx: Executor) => {
      const current = await repo.findManifest(trx, scope, id, { forUpdate: true });
      if (!current || current.status !== 'pending') return;
      await this.shipments.release(trx, scope, current.shipment_ids, id);
      const now = this.deps.now();
      await repo.updateManifest(trx, id, {
        status: 'failed',
        error: JSON.stringify(error),
        rejected: JSON.stringify([...current.rejected, ...extraRejected]),
        updated_at: now,
      });
    });
  }

  private async origin(scope: Scope): Promise<Address | null> {
    const origin = (await findWorkspaceOrigin(this.deps.db, scope.workspaceId)) as Address | null;
    return origin && typeof origin.country === 'string' ? origin : null;
  }

  /** Today at the workspace origin (its state's time zone), UTC when it has none: workspaces keep no time zone of their own. */
  private async today(scope: Scope): Promise<string> {
    const origin = await this.origin(scope);
    return localClock(this.deps.now(), originTimeZone(origin?.country === 'US' ? (origin.state ?? null) : null)).date;
  }
}

/** Why a listed label cannot go on this manifest (null: it can). */
function rejectionOf(
  s: EndOfDayShipment | undefined,
  account: CarrierAccountRow,
  shipDate: string,
  location: ShippingOrigin | null,
): Omit<Rejection, 'shipment_id'> | null {
  if (!s) return { code: 'not_found', message: 'No such label in this workspace and environment.' };
  if (s.status === 'voided') return { code: 'voided', message: 'The label is voided.' };
  if (s.carrier !== account.carrier || s.carrier_account_id !== account.id) {
    return {
      code: 'carrier_mismatch',
      message: `The label is ${s.carrier}'s (account ${s.carrier_account_id ?? 'none'}), not this manifest's (${account.carrier}, account ${account.id}).`,
    };
  }
  // A label of no location (an order with an address of its own) may be listed on any location's form.
  if (location && s.location_id && s.location_id !== location.id)
    return { code: 'location_mismatch', message: `The label ships from location ${s.location_id}, not this manifest's (${location.id}).` };
  if (s.ship_date !== shipDate) return { code: 'ship_date_mismatch', message: `The label ships on ${s.ship_date}, not ${shipDate}.` };
  if (s.manifest_id) return { code: 'already_manifested', message: `The label is already on manifest ${s.manifest_id}.` };
  return null;
}

/** 422 no_eligible_shipments: details list each rejection (or, for the implicit form, say there was nothing to list). */
function noEligible(
  rejected: Rejection[],
  listed: string[] | null,
  account: CarrierAccountRow,
  shipDate: string,
  fromBatch: boolean,
  location: ShippingOrigin | null,
): AppError {
  const details = listed
    ? rejected.map((r) => ({
        field: fromBatch ? 'batch_id' : `shipment_ids[${listed.indexOf(r.shipment_id)}]`,
        message: r.message,
        shipment_id: r.shipment_id,
        code: r.code,
      }))
    : [
        {
          field: 'ship_date',
          message: `account ${account.id} has no live label for ${shipDate}${location ? ` from location ${location.id}` : ''} that is on no manifest yet`,
        },
      ];
  return new AppError(
    'no_eligible_shipments',
    listed
      ? 'None of the labels listed can go on a manifest; details say why for each.'
      : `No live ${account.carrier} label of this account ships on ${shipDate} without a manifest already.`,
    { details },
  );
}
