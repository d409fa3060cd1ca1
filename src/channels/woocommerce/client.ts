/**
 * The WooCommerce channel: the only file of this folder that performs HTTP, through the shared
 * channel client (deadline, retries of idempotent calls honouring Retry-After, redaction, the
 * exchange log). Every request goes to `{origin}/wp-json/wc/v3/…` with the REST API key pair as
 * HTTP Basic; what it sends and reads is built and parsed by the pure modules beside it.
 * Operations, what is re-sent, and the write-back: docs/channels-woocommerce.md.
 */
import { obj, str } from '../../carriers/http/json-read.js';
import { readJson, type ChannelHttpClient, type ChannelHttpResponse, type HttpMethod } from '../http/client.js';
import {
  ChannelError,
  type CancelFulfillmentRequest,
  type Channel,
  type ChannelCallContext,
  type ChannelConnection,
  type ChannelOrder,
  type ChannelWebhookSubscription,
  type FulfillRequest,
  type FulfillResult,
  type WebhookContent,
} from '../types.js';
import { basicAuthorization } from './credentials.js';
import { liveTrackingNumbers, noteRef, ourNotes, shipmentNote, trackingState, voidNote, type OurNote } from './notes.js';
import { parseWebhook, parseWooOrder, parseWooOrders } from './parsers.js';
import { API_PATH, CLOSED_STATUSES, DELETED_TOPIC, MAX_PER_PAGE, modifiedAfter, ORDER_TOPICS, trackingCompany } from './units.js';
import { verifyWooWebhook } from './webhooks.js';

const PLATFORM = 'woocommerce';
const NAME = 'WooCommerce';

const rejected = (message: string, messages: string[], platformStatus: string | number) =>
  new ChannelError(PLATFORM, 'rejected', message, { messages, platformStatus });

const malformed = (operation: string) => new ChannelError(PLATFORM, 'server_error', `WooCommerce answered ${operation} with a body we cannot read`);

/** A non-2xx answer that is not a transport failure (those the HTTP client already threw), in channel words. */
function statusError(operation: string, res: ChannelHttpResponse): ChannelError {
  let code: string | null = null;
  let message: string | null = null;
  try {
    const body = obj(readJson(PLATFORM, NAME, res));
    code = str(body.code);
    message = str(body.message);
  } catch {
    // An unreadable refusal is still a refusal.
  }
  const detail = message ? `: ${message.slice(0, 300)}` : '';
  const options = { platformStatus: res.status, messages: [message ?? `HTTP ${res.status}`] };
  if (res.status === 401 || res.status === 403)
    return new ChannelError(PLATFORM, 'unauthorized', `WooCommerce refused the API key for ${operation} (${res.status})${detail}`, options);
  if (res.status === 404) return new ChannelError(PLATFORM, 'not_found', `WooCommerce has no such site or resource for ${operation} (404)${detail}`, options);
  return rejected(`WooCommerce refused ${operation} (${res.status}${code ? ` ${code}` : ''})${detail}`, options.messages, code ?? res.status);
}

const originOf = (conn: ChannelConnection) => conn.origin.replace(/\/+$/, '');

function numericId(kind: string, id: string): string {
  if (!/^\d+$/.test(id)) throw new ChannelError(PLATFORM, 'not_found', `${id} is not a WooCommerce ${kind} id`);
  return id;
}

interface Send {
  method: HttpMethod;
  path: string;
  query?: Record<string, string>;
  json?: unknown;
  /** Safe to send again after a lost answer, 429 or 5xx. */
  idempotent: boolean;
}

export class WooCommerceChannel implements Channel {
  readonly platform = PLATFORM;

  constructor(private readonly http: ChannelHttpClient) {}

  trackingCompany(carrierSlug: string): string | null {
    return trackingCompany(carrierSlug);
  }

  private deadline(ctx?: ChannelCallContext): number {
    return this.http.deadlineFor(ctx);
  }

  /** One REST call within the operation's deadline: every answer the platform gave (2xx, 4xx), or a ChannelError. */
  private async send(conn: ChannelConnection, operation: string, req: Send, deadline: number, ctx?: ChannelCallContext): Promise<ChannelHttpResponse> {
    const authorization = basicAuthorization(conn.credentials);
    if (!authorization) throw new ChannelError(PLATFORM, 'unauthorized', 'The integration has no WooCommerce consumer key and secret');
    const timeoutMs = deadline - this.http.now();
    if (timeoutMs <= 0) throw new ChannelError(PLATFORM, 'timeout', `WooCommerce did not finish ${operation} within the deadline`);
    const query = req.query ? `?${new URLSearchParams(req.query).toString()}` : '';
    return this.http.request({
      platform: PLATFORM,
      integrationId: conn.integrationId,
      operation,
      method: req.method,
      url: `${originOf(conn)}${API_PATH}${req.path}${query}`,
      headers: { authorization },
      json: req.json,
      idempotent: req.idempotent,
      timeoutMs,
      requestId: ctx?.requestId,
    });
  }

  /** A call whose every non-2xx answer is an error; the parsed body. */
  private async call(
    conn: ChannelConnection,
    operation: string,
    req: Send,
    deadline: number,
    ctx?: ChannelCallContext,
  ): Promise<{ body: unknown; res: ChannelHttpResponse }> {
    const res = await this.send(conn, operation, req, deadline, ctx);
    if (res.status >= 300) throw statusError(operation, res);
    return { body: readJson(PLATFORM, NAME, res), res };
  }

  /**
   * `GET /orders?per_page=1`: the cheapest authenticated read of what the connection is for
   * (`/system_status` needs the manager capability and runs checks that take seconds). WooCommerce
   * does not tell a key's permissions (read, write): no scopes.
   */
  async testConnection(conn: ChannelConnection, ctx?: ChannelCallContext) {
    const { body } = await this.call(
      conn,
      'connection_test',
      { method: 'GET', path: '/orders', query: { per_page: '1' }, idempotent: true },
      this.deadline(ctx),
      ctx,
    );
    if (!Array.isArray(body)) throw malformed('connection_test');
    return { scopes: [] as string[] };
  }

  async listWebhookSubscriptions(conn: ChannelConnection, ctx?: ChannelCallContext): Promise<ChannelWebhookSubscription[]> {
    const deadline = this.deadline(ctx);
    const out: ChannelWebhookSubscription[] = [];
    for (let page = 1; ; page++) {
      const { body, res } = await this.call(
        conn,
        'webhooks_list',
        { method: 'GET', path: '/webhooks', query: { per_page: String(MAX_PER_PAGE), page: String(page) }, idempotent: true },
        deadline,
        ctx,
      );
      if (!Array.isArray(body)) throw malformed('webhooks_list');
      for (const w of body) {
        const parsed = parseWebhook(w);
        if (parsed) out.push(parsed);
      }
      if (page >= totalPages(res) || body.length === 0) return out;
    }
  }

  async createWebhookSubscription(conn: ChannelConnection, topic: string, callbackUrl: string, ctx?: ChannelCallContext): Promise<ChannelWebhookSubscription> {
    const secret = conn.credentials.webhook_secret;
    // Without our secret WooCommerce would sign with one of its own, which no delivery could be checked against.
    if (typeof secret !== 'string' || !secret)
      throw rejected('The integration has no webhook secret to give WooCommerce', ['no webhook_secret'], 'webhook_secret');
    const { body } = await this.call(
      conn,
      'webhooks_create',
      // Not re-sent after a lost answer: reconciliation lists the webhooks and finds it.
      {
        method: 'POST',
        path: '/webhooks',
        json: { name: `Shipping service: ${topic}`, status: 'active', topic, delivery_url: callbackUrl, secret },
        idempotent: false,
      },
      this.deadline(ctx),
      ctx,
    );
    const made = parseWebhook(body);
    if (!made) throw malformed('webhooks_create');
    return made;
  }

  async deleteWebhookSubscription(conn: ChannelConnection, id: string, ctx?: ChannelCallContext): Promise<void> {
    if (!/^\d+$/.test(id)) return;
    // `force=true`: webhooks cannot be trashed. Deleting again answers 404, which is what we wanted.
    const res = await this.send(
      conn,
      'webhooks_delete',
      { method: 'DELETE', path: `/webhooks/${id}`, query: { force: 'true' }, idempotent: true },
      this.deadline(ctx),
      ctx,
    );
    if (res.status === 404 || res.status === 410) return;
    if (res.status >= 300) throw statusError('webhooks_delete', res);
  }

  /** `disabled` (after failed deliveries) or `paused` (by the merchant) back to `active`. */
  async reactivateWebhookSubscription(conn: ChannelConnection, id: string, ctx?: ChannelCallContext): Promise<void> {
    await this.call(
      conn,
      'webhooks_reactivate',
      { method: 'PUT', path: `/webhooks/${numericId('webhook', id)}`, json: { status: 'active' }, idempotent: true },
      this.deadline(ctx),
      ctx,
    );
  }

  async listOrdersUpdatedSince(conn: ChannelConnection, sinceIso: string, cursor: string | null, pageSize: number, ctx?: ChannelCallContext) {
    const after = modifiedAfter(sinceIso);
    if (!after) throw rejected(`${sinceIso} is not an instant`, ['since is not an ISO-8601 instant'], 'since');
    if (cursor !== null && !/^[1-9]\d*$/.test(cursor)) throw rejected(`${cursor} is not a WooCommerce page cursor`, ['cursor is not a page number'], 'cursor');
    const page = cursor === null ? 1 : Number(cursor);
    const perPage = Math.min(MAX_PER_PAGE, Math.max(1, Math.floor(pageSize)));
    const { body, res } = await this.call(
      conn,
      'orders_list',
      {
        method: 'GET',
        path: '/orders',
        query: { modified_after: after, dates_are_gmt: 'true', orderby: 'modified', order: 'asc', per_page: String(perPage), page: String(page) },
        idempotent: true,
      },
      this.deadline(ctx),
      ctx,
    );
    const orders = parseWooOrders(body);
    if (!orders) throw malformed('orders_list');
    return { orders, nextCursor: page < totalPages(res) && (body as unknown[]).length > 0 ? String(page + 1) : null };
  }

  async fetchOrder(conn: ChannelConnection, externalId: string, ctx?: ChannelCallContext): Promise<ChannelOrder | null> {
    const read = await this.readOrder(conn, numericId('order', externalId), this.deadline(ctx), ctx);
    return read?.order ?? null;
  }

  /** The order, and its raw status and line ids for the write-back; null when WooCommerce has none (deleted for good). */
  private async readOrder(
    conn: ChannelConnection,
    id: string,
    deadline: number,
    ctx?: ChannelCallContext,
  ): Promise<{ order: ChannelOrder; lines: { id: string; quantity: number }[] } | null> {
    const res = await this.send(conn, 'order_get', { method: 'GET', path: `/orders/${id}`, idempotent: true }, deadline, ctx);
    if (res.status === 404) return null;
    if (res.status >= 300) throw statusError('order_get', res);
    const order = parseWooOrder(readJson(PLATFORM, NAME, res));
    if (!order) throw malformed('order_get');
    return { order, lines: order.line_items.map((l) => ({ id: l.external_line_id, quantity: l.quantity })) };
  }

  verifyWebhook = verifyWooWebhook;

  parseWebhookOrder(topic: string, body: unknown): WebhookContent {
    if (topic === DELETED_TOPIC) {
      const id = this.webhookOrderId(body);
      if (!id || !/^\d+$/.test(id)) throw rejected(`The ${topic} delivery does not name an order`, ['body has no order id'], 'body');
      // Trashed (read back with status `trash`) or deleted for good (404): the order is read to know which.
      return { kind: 'fetch', external_id: id };
    }
    if (!ORDER_TOPICS.has(topic)) throw rejected(`WooCommerce topic ${topic} is not one we handle`, [`unhandled topic ${topic}`], 'topic');
    const order = parseWooOrder(body);
    if (!order) throw rejected(`The ${topic} delivery does not carry an order`, ['body is not an order'], 'body');
    return order;
  }

  webhookOrderId(body: unknown): string | null {
    const id = obj(body).id;
    return typeof id === 'number' || typeof id === 'string' ? String(id) : null;
  }

  private async readNotes(conn: ChannelConnection, id: string, deadline: number, ctx?: ChannelCallContext): Promise<OurNote[]> {
    const { body } = await this.call(conn, 'notes_read', { method: 'GET', path: `/orders/${id}/notes`, idempotent: true }, deadline, ctx);
    const notes = ourNotes(body);
    if (!notes) throw malformed('notes_read');
    return notes;
  }

  private async setStatus(conn: ChannelConnection, operation: string, id: string, status: string, deadline: number, ctx?: ChannelCallContext): Promise<void> {
    // The same status sent twice is the same order: re-sent after a lost answer.
    await this.call(conn, operation, { method: 'PUT', path: `/orders/${id}`, json: { status }, idempotent: true }, deadline, ctx);
  }

  /**
   * Read before write: the order (gone → not_found; cancelled, trashed, refunded → closed), then
   * its notes (ours naming this tracking number → already_fulfilled, finishing the status an
   * earlier attempt may not have reached). Else one shipment note, never re-sent, then `completed`.
   */
  async fulfill(conn: ChannelConnection, request: FulfillRequest, ctx?: ChannelCallContext): Promise<FulfillResult> {
    const deadline = this.deadline(ctx);
    const id = numericId('order', request.externalOrderId);
    const read = await this.readOrder(conn, id, deadline, ctx);
    if (!read) throw new ChannelError(PLATFORM, 'not_found', `WooCommerce has no order ${id}`, { platformStatus: 404 });
    const { order, lines } = read;
    const status = order.platform_status;
    const closed = CLOSED_STATUSES.has(status);
    const wholeOrder = coversWholeOrder(lines, request.lines);
    const complete = async () => {
      if (!closed && wholeOrder && status !== 'completed') await this.setStatus(conn, 'order_complete', id, 'completed', deadline, ctx);
    };

    const notes = await this.readNotes(conn, id, deadline, ctx);
    const known = trackingState(notes, request.tracking.number);
    if (known.state === 'shipped') {
      await complete();
      return { outcome: 'already_fulfilled', refs: [noteRef(known.noteId)] };
    }
    if (closed) return { outcome: 'closed', message: `The WooCommerce order is ${status}: nothing to ship` };

    const named = request.lines ? lineLabels(order, request.lines) : null;
    const { body } = await this.call(
      conn,
      'note_create',
      { method: 'POST', path: `/orders/${id}/notes`, json: { note: shipmentNote(request, named), customer_note: request.notifyCustomer }, idempotent: false },
      deadline,
      ctx,
    );
    const noteId = str(obj(body).id);
    if (!noteId) throw malformed('note_create');
    await complete();
    return { outcome: 'created', refs: [noteRef(noteId)] };
  }

  /**
   * A voided label: `completed` back to `processing` when no other shipment of ours stands, then
   * a note saying so. Read before write: a void note already there means done.
   */
  async cancelFulfillment(conn: ChannelConnection, request: CancelFulfillmentRequest, ctx?: ChannelCallContext): Promise<void> {
    const deadline = this.deadline(ctx);
    const id = numericId('order', request.externalOrderId);
    const notes = await this.readNotes(conn, id, deadline, ctx);
    // Voided already, or never shipped by us: nothing to undo.
    if (trackingState(notes, request.trackingNumber).state !== 'shipped') return;
    const others = liveTrackingNumbers(notes).filter((n) => n !== request.trackingNumber);
    const read = await this.readOrder(conn, id, deadline, ctx);
    if (!read) return;
    if (others.length === 0 && read.order.platform_status === 'completed') await this.setStatus(conn, 'order_reopen', id, 'processing', deadline, ctx);
    await this.call(
      conn,
      'note_void',
      { method: 'POST', path: `/orders/${id}/notes`, json: { note: voidNote(request.trackingNumber), customer_note: false }, idempotent: false },
      deadline,
      ctx,
    );
  }
}

/** `X-WP-TotalPages` (1 when absent: a single page). */
function totalPages(res: ChannelHttpResponse): number {
  const n = Number(res.headers['x-wp-totalpages']);
  return Number.isInteger(n) && n > 0 ? n : 1;
}

/** Without lines, or with every line at its full quantity: the whole order ships. */
function coversWholeOrder(orderLines: { id: string; quantity: number }[], requested: FulfillRequest['lines']): boolean {
  if (!requested) return true;
  const asked = new Map<string, number>();
  for (const l of requested) asked.set(l.external_line_id, (asked.get(l.external_line_id) ?? 0) + l.quantity);
  return orderLines.every((l) => (asked.get(l.id) ?? 0) >= l.quantity);
}

/** `2 × Blue mug (MUG-1)` for each requested line, as the note lists them. */
function lineLabels(order: ChannelOrder, requested: NonNullable<FulfillRequest['lines']>): string[] {
  return requested.map((r) => {
    const line = order.line_items.find((l) => l.external_line_id === r.external_line_id);
    const label = line ? `${line.name}${line.sku ? ` (${line.sku})` : ''}` : `line ${r.external_line_id}`;
    return `${r.quantity} × ${label}`;
  });
}
