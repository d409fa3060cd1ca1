import { randomInt } from 'node:crypto';
import { AppError, invalidState, rateLimited, validationError, type ErrorDetail } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { Deps } from '../../platform/deps.js';
import type { Executor } from '../../platform/db/types.js';
import type { Actor, RequestMeta } from '../../platform/context.js';
import { createSecretBox, type SecretBox } from '../../platform/secret-box.js';
import { clampLimit } from '../../platform/http/pagination.js';
import { iso } from '../../platform/http/wire.js';
import { writeAudit } from '../audit/index.js';
import type { SettingsService } from '../settings/index.js';
import type { AttachmentsProvider, OrderAttachments, OrderExtension } from '../orders/index.js';
import * as repo from './office-redeem.repo.js';
import type { OfficePinRow, OfficeProduct } from './office-redeem.tables.js';
import type { Config365, OfficePin, Slip } from './office-redeem.schemas.js';
import { pinStatus, toOfficePin, toOrderPin } from './office-redeem.wire.js';

export const PIN_VALIDITY_MS = 30 * 24 * 3600 * 1000;
/** More units than this in one order is refused (422): a typo of 10000 would mint 10000 PINs. */
export const MAX_PINS_PER_ORDER = 1000;
const PRODUCT_KEY = /^[A-Z0-9]{5}(?:-[A-Z0-9]{5}){4}$/;
const FAILED_KEY = 'office_redeem:failed_lookups';
const SLIP_FIELDS = ['title', 'instructions', 'support_url', 'support_email', 'footer'] as const;
const URL_FIELDS_365 = ['video_url', 'portal_url', 'installer_url', 'redeem_url'] as const;

/**
 * 16 random digits from the CSPRNG (two draws: randomInt covers < 2^48). The first digit is
 * never 0, so a PIN keeps its 16 digits in tools that read it as a number.
 */
export function generatePin(): string {
  return `${randomInt(10_000_000, 100_000_000)}${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;
}

/** What the customer typed, without the spaces or dashes a printed slip groups digits with. */
export function normalizePin(input: string): string {
  return input.replace(/[\s-]/g, '');
}

export interface OrderForPins {
  id: string;
  workspace_id: string;
  environment: 'test' | 'live';
  line_items: Array<{ sku: string | null; quantity: number }>;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export class OfficeRedeemService {
  private readonly box: SecretBox;

  constructor(
    private readonly deps: Deps,
    private readonly settings: SettingsService,
  ) {
    this.box = createSecretBox(deps.config);
  }

  // ---- issuing ----

  /**
   * Issue one PIN per unit of every line item whose SKU maps (setting office_redeem.sku_map)
   * to an Office product, inside the caller's transaction (the order's process step).
   * Idempotent per (order, line, unit): a retried process returns the PINs already issued.
   */
  async issueForOrder(executor: Executor, order: OrderForPins): Promise<OfficePinRow[]> {
    const skuMap = await this.settings.get('office_redeem.sku_map', executor);
    const products = new Map(Object.entries(skuMap).map(([sku, product]) => [sku.trim().toLowerCase(), product as OfficeProduct]));
    if (products.size === 0) return [];
    const units: Array<{ product: OfficeProduct; line: number; unit: number }> = [];
    const details: ErrorDetail[] = [];
    order.line_items.forEach((item, line) => {
      const product = item.sku ? products.get(item.sku.trim().toLowerCase()) : undefined;
      if (!product) return;
      if (units.length + item.quantity > MAX_PINS_PER_ORDER) {
        details.push({ field: `line_items[${line}].quantity`, message: `an order issues at most ${MAX_PINS_PER_ORDER} office PINs` });
        return;
      }
      for (let unit = 0; unit < item.quantity; unit++) units.push({ product, line, unit });
    });
    if (details.length) throw new AppError('unprocessable', 'Too many office units in one order.', { details });

    const now = this.deps.now();
    const issued: OfficePinRow[] = [];
    for (const u of units) {
      let row: OfficePinRow | undefined;
      for (let attempt = 0; attempt < 5 && !row; attempt++) {
        row = await repo.insertPin(executor, {
          id: newId('pin'),
          pin: generatePin(),
          product: u.product,
          status: 'active',
          expires_at: new Date(now.getTime() + PIN_VALIDITY_MS),
          order_id: order.id,
          workspace_id: order.workspace_id,
          environment: order.environment,
          line_index: u.line,
          unit_index: u.unit,
          created_at: now,
          updated_at: now,
        });
        // Nothing inserted: either this unit already has its PIN, or (1 in 10^16) the digits exist.
        row ??= await repo.findPinByUnit(executor, order.id, u.line, u.unit);
      }
      if (!row) throw new AppError('internal_error', 'Could not issue a unique PIN.');
      issued.push(row);
    }
    return issued;
  }

  /** The orders' `office_pins` (see AttachmentsProvider in the orders module). */
  readonly orderPins: AttachmentsProvider = {
    name: 'office_pins',
    forOrders: async (executor, _scope, orderIds, opts) => {
      const byOrder = new Map<string, OrderAttachments>();
      for (const row of await repo.pinsForOrders(executor, orderIds)) {
        const att = byOrder.get(row.order_id!) ?? { office_pins: [] };
        att.office_pins!.push(toOrderPin(row, this.deps.now(), opts.reveal));
        byOrder.set(row.order_id!, att);
      }
      return byOrder;
    },
    json: (eb) => repo.pinsOfOrderJson(eb),
    version: (eb) => repo.pinsOfOrderVersion(eb),
    decode: (rows, opts) => ({ office_pins: (rows as OfficePinRow[]).map((row) => toOrderPin(row, this.deps.now(), opts.reveal)) }),
    // An active PIN's status turns to expired at its expiry.
    holdsUntil: (rows) => Math.min(...(rows as OfficePinRow[]).filter((row) => row.status === 'active').map((row) => new Date(row.expires_at).getTime())),
  };

  /**
   * What this module adds to orders (registered once, in src/compose.ts): the `office_pins` of
   * the order read, and the PINs issued when an order is processed (in the move's transaction;
   * the audit entry of the move lists them).
   */
  readonly orderExtension: OrderExtension = {
    attachments: this.orderPins,
    onMove: async (executor, move, order) => {
      if (move !== 'process') return {};
      const pins = await this.issueForOrder(executor, order);
      return pins.length ? { office_pins: pins.map((p) => p.id) } : {};
    },
  };

  // ---- public lookup ----

  /**
   * Resolve a PIN for the redeem page. Guessing defence: a per-IP token bucket (setting
   * office_redeem.lookup_limit_per_minute) and a global budget of failed lookups per minute
   * (office_redeem.failed_lookup_budget_per_minute); malformed and unknown PINs run the same
   * statement and both count as failures, so neither answers sooner than the other.
   */
  async lookup(input: string, ip: string) {
    const settings = this.settings;
    const [perIp, budget] = await Promise.all([
      settings.get('office_redeem.lookup_limit_per_minute'),
      settings.get('office_redeem.failed_lookup_budget_per_minute'),
    ]);
    const taken = await this.deps.counters.take(`office_redeem:lookup:${ip}`, perIp, 60_000);
    if (!taken.allowed) {
      throw rateLimited('Too many PIN lookups from this address.', taken.retryAfterSeconds);
    }
    if ((await this.deps.counters.count(FAILED_KEY)) >= budget) {
      throw rateLimited('PIN lookups are paused for a moment; try again in a minute.', 60);
    }

    const pin = normalizePin(input);
    const wellFormed = /^[0-9]{16}$/.test(pin);
    const now = this.deps.now();
    // The same statement either way (a malformed value can never match the digits-only column).
    const row = await repo.countLookup(this.deps.db, wellFormed ? pin : 'x', now);
    if (!row) {
      await this.deps.counters.hit(FAILED_KEY, 60_000);
      if (!wellFormed) throw validationError([{ field: 'pin', message: 'must be 16 digits' }], 'The PIN is not valid.');
      throw new AppError('not_found', 'No such PIN.');
    }
    const status = pinStatus(row, now);
    if (status !== 'active') {
      throw new AppError('gone', status === 'revoked' ? 'This PIN has been revoked.' : 'This PIN has expired.', {
        details: [{ field: 'status', message: status }],
      });
    }
    const base = { status: 'active' as const, expires_at: iso(row.expires_at)! };
    if (row.product === 'office_2024') {
      const config = await this.get2024Config();
      return { product: 'office_2024' as const, ...base, product_key: config.product_key, slip: config.slip };
    }
    const { updated_at: _u, updated_by: _b, ...page } = await this.get365Config();
    return { product: 'office_365' as const, ...base, ...page };
  }

  // ---- super-admin ----

  async listPins(query: { filter?: string; status?: string; product?: string; q?: string; search?: string; limit?: number; offset?: number }) {
    const filter: repo.PinListFilter = { limit: clampLimit(query.limit), offset: Math.max(0, Math.floor(query.offset ?? 0)) };
    if (query.filter) {
      const f = query.filter.trim().toLowerCase();
      if (f === 'active' || f === 'expired' || f === 'revoked') filter.status = f;
      else if (f === 'office_2024' || f === 'office_365') filter.product = f;
      else if (f === '2024' || f === '365') filter.product = `office_${f}`;
      else if (f === 'test') filter.test = true;
      else if (f !== '' && f !== 'all') {
        throw validationError([{ field: 'filter', message: 'must be a status (active, expired, revoked), a product (office_2024, office_365), test or all' }]);
      }
    }
    if (query.status) filter.status = query.status as repo.PinListFilter['status'];
    if (query.product) filter.product = query.product as OfficeProduct;
    const digits = (query.q ?? query.search ?? '').replace(/[\s-]/g, '');
    if (digits) {
      if (!/^[0-9]+$/.test(digits)) throw validationError([{ field: query.q !== undefined ? 'q' : 'search', message: 'must be digits' }]);
      filter.digits = digits;
    }
    const now = this.deps.now();
    const { rows, total } = await repo.listPins(this.deps.db, filter, now);
    return { data: rows.map((r) => toOfficePin(r, now)), total, limit: filter.limit, offset: filter.offset };
  }

  /** Active again for 30 days from now; only an expired or revoked PIN (an active one: 409). */
  async renew(pinOrId: string, actor: Actor, meta: RequestMeta): Promise<OfficePin> {
    return this.change(pinOrId, actor, meta, (row, now) => {
      const status = pinStatus(row, now);
      if (status === 'active') {
        throw invalidState('Only an expired or revoked PIN can be renewed.', { current: status, allowedMoves: ['expire'] });
      }
      return {
        action: 'office_pin.renewed',
        set: { status: 'active', expires_at: new Date(now.getTime() + PIN_VALIDITY_MS), revoked_at: null, renewed_at: now },
        from: status,
      };
    });
  }

  /** Manual revoke (status revoked) of an active or expired PIN, either product. */
  async expire(pinOrId: string, actor: Actor, meta: RequestMeta): Promise<OfficePin> {
    return this.change(pinOrId, actor, meta, (row, now) => {
      const status = pinStatus(row, now);
      if (status === 'revoked') {
        throw invalidState('The PIN is already revoked.', { current: status, allowedMoves: ['renew'] });
      }
      return { action: 'office_pin.revoked', set: { status: 'revoked', revoked_at: now }, from: status };
    });
  }

  private async change(
    pinOrId: string,
    actor: Actor,
    meta: RequestMeta,
    decide: (row: OfficePinRow, now: Date) => { action: string; set: Parameters<typeof repo.updatePin>[2]; from: string },
  ): Promise<OfficePin> {
    const key = normalizePin(pinOrId);
    if (!/^[0-9]{16}$/.test(key) && !key.startsWith('pin_')) throw new AppError('not_found', 'No such PIN.');
    return this.deps.db.transaction().execute(async (trx) => {
      const row = await repo.findPin(trx, key, { forUpdate: true });
      if (!row) throw new AppError('not_found', 'No such PIN.');
      const now = this.deps.now();
      const { action, set, from } = decide(row, now);
      const updated = await repo.updatePin(trx, row.id, set, now);
      const after = toOfficePin(updated, now);
      await writeAudit(trx, actor, meta, {
        action,
        targetType: 'office_pin',
        targetId: row.id,
        workspaceId: row.workspace_id,
        environment: row.environment,
        changes: { pin: row.pin, status: { from, to: after.status }, expires_at: { from: iso(row.expires_at), to: after.expires_at } },
      });
      return after;
    });
  }

  /** A PIN flagged `test`, outside any order (the dev and super-admin test endpoints). */
  async createTestPin(product: OfficeProduct, actor: Actor, meta: RequestMeta): Promise<OfficePin> {
    const now = this.deps.now();
    return this.deps.db.transaction().execute(async (trx) => {
      let row: OfficePinRow | undefined;
      for (let attempt = 0; attempt < 5 && !row; attempt++) {
        row = await repo.insertPin(trx, {
          id: newId('pin'),
          pin: generatePin(),
          product,
          status: 'active',
          expires_at: new Date(now.getTime() + PIN_VALIDITY_MS),
          test: true,
          created_at: now,
          updated_at: now,
        });
      }
      if (!row) throw new AppError('internal_error', 'Could not issue a unique PIN.');
      await writeAudit(trx, actor, meta, { action: 'office_pin.test_created', targetType: 'office_pin', targetId: row.id, changes: { product, pin: row.pin } });
      return toOfficePin(row, now);
    });
  }

  // ---- configuration ----

  async get2024Config() {
    const row = await repo.findConfig(this.deps.db, 'office_2024');
    const value = (row?.value ?? {}) as { product_key_sealed?: string; slip?: Slip };
    const slip = Object.fromEntries(SLIP_FIELDS.map((f) => [f, value.slip?.[f] ?? null])) as Record<(typeof SLIP_FIELDS)[number], string | null>;
    return {
      product_key: value.product_key_sealed ? this.box.open(value.product_key_sealed, 'office_redeem:office_2024') : null,
      slip,
      updated_at: iso(row?.updated_at),
      updated_by: row?.updated_by ?? null,
    };
  }

  /** Store the product key sealed (AES-256-GCM, platform/secret-box) and the default slip; audited with the key masked. */
  async put2024Config(input: { product_key: string; slip?: Slip }, actor: Actor, meta: RequestMeta) {
    const productKey = input.product_key.trim().toUpperCase();
    const details: ErrorDetail[] = [];
    if (!PRODUCT_KEY.test(productKey))
      details.push({ field: 'product_key', message: 'must be five groups of five letters A-Z or digits joined by - (XXXXX-XXXXX-XXXXX-XXXXX-XXXXX)' });
    if (input.slip?.support_url && !isHttpUrl(input.slip.support_url)) details.push({ field: 'slip.support_url', message: 'must be an http(s) URL' });
    if (input.slip?.support_email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(input.slip.support_email))
      details.push({ field: 'slip.support_email', message: 'must be an email address' });
    if (details.length) throw validationError(details);

    const before = await this.get2024Config();
    const slip = input.slip ? Object.fromEntries(SLIP_FIELDS.map((f) => [f, input.slip?.[f] ?? null])) : before.slip;
    await this.deps.db.transaction().execute(async (trx) => {
      const now = this.deps.now();
      await repo.upsertConfig(trx, 'office_2024', { product_key_sealed: this.box.seal(productKey, 'office_redeem:office_2024'), slip }, actor.id, now);
      await writeAudit(trx, actor, meta, {
        action: 'office_redeem_config.updated',
        targetType: 'office_redeem_config',
        targetId: 'office_2024',
        changes: { product_key: { from: before.product_key, to: productKey }, slip: { from: before.slip, to: slip } },
      });
    });
    return this.get2024Config();
  }

  async get365Config() {
    const row = await repo.findConfig(this.deps.db, 'office_365');
    const value = (row?.value ?? {}) as Partial<Config365>;
    return {
      title: value.title ?? null,
      video_url: value.video_url ?? null,
      portal_url: value.portal_url ?? null,
      installer_url: value.installer_url ?? null,
      redeem_url: value.redeem_url ?? null,
      updated_at: iso(row?.updated_at),
      updated_by: row?.updated_by ?? null,
    };
  }

  async put365Config(input: Config365, actor: Actor, meta: RequestMeta) {
    const details: ErrorDetail[] = [];
    if (!input.title.trim()) details.push({ field: 'title', message: 'must not be empty' });
    for (const field of URL_FIELDS_365) if (!isHttpUrl(input[field])) details.push({ field, message: 'must be an http(s) URL' });
    if (details.length) throw validationError(details);
    const value: Config365 = {
      title: input.title.trim(),
      video_url: input.video_url,
      portal_url: input.portal_url,
      installer_url: input.installer_url,
      redeem_url: input.redeem_url,
    };
    const { updated_at: _u, updated_by: _b, ...before } = await this.get365Config();
    await this.deps.db.transaction().execute(async (trx) => {
      await repo.upsertConfig(trx, 'office_365', value, actor.id, this.deps.now());
      await writeAudit(trx, actor, meta, {
        action: 'office_redeem_config.updated',
        targetType: 'office_redeem_config',
        targetId: 'office_365',
        changes: { from: before, to: value },
      });
    });
    return this.get365Config();
  }

  /** Test PINs: the public dev endpoint never in production; the super-admin one also with ALLOW_OFFICE_REDEEM_TEST_PIN=1. */
  assertTestPinsAllowed(surface: 'public' | 'super_admin'): void {
    const { isProduction, allowOfficeRedeemTestPin } = this.deps.config;
    if (isProduction && (surface === 'public' || !allowOfficeRedeemTestPin)) {
      throw new AppError('not_available_in_production', 'Test PINs are not available in production.');
    }
  }
}
