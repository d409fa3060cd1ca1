/**
 * The BigCommerce channel: the only file of this folder that performs HTTP, through the shared
 * channel client (deadline, retries of reads, waits BigCommerce asks for, exchange log).
 * Everything it sends and reads is built and parsed by the pure modules beside it. Calls go to
 * `{origin}/v2/...` (Orders V2) and `{origin}/v3/hooks` (Webhooks V3) with `X-Auth-Token`;
 * `origin` is `https://api.bigcommerce.com/stores/{store_hash}` or the integration's `base_url`.
 */
import { asList, obj, str } from '../../carriers/http/json-read.js';
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
import { decodeCursor, nextCursor, parseOrder, parseShipmentRef, planShipment, shipmentRef, type OrderParts } from './parsers.js';
import { dateFilter, SECRET_HEADER, trackingCarrier, WEBHOOK_TOPICS } from './units.js';
import { verifyBigcommerceWebhook } from './webhooks.js';

const PLATFORM = 'bigcommerce';
const NAME = 'BigCommerce';

/** Orders V2 and Webhooks V3 both take up to 250 a page. */
const PAGE_LIMIT = 250;

/** `X-Rate-Limit-Time-Reset-Ms`: the wait BigCommerce's 429 asks for (docs/channels-bigcommerce.md). */
function rateLimitReset(headers: Record<string, string>): number | null {
  const value = headers['x-rate-limit-time-reset-ms']?.trim();
  return value && /^\d+$/.test(value) ? Number(value) : null;
}

/** BigCommerce's messages from an error body: V2 `[{status, message}]`, V3 `{title, errors: {field: message}}`. */
function errorMessages(res: ChannelHttpResponse): string[] {
  let body: unknown;
  try {
    body = readJson(PLATFORM, NAME, res);
  } catch {
    return [];
  }
  if (Array.isArray(body)) return body.map((e) => str(obj(e).message) ?? '').filter(Boolean);
  const b = obj(body);
  const out: string[] = [];
  const title = str(b.title) ?? str(b.message);
  if (title) out.push(title);
  for (const [field, message] of Object.entries(obj(b.errors))) if (str(message)) out.push(`${field}: ${str(message)}`);
  return out;
}

/** A non-2xx answer that is not a transport failure, in channel words (never a secret: the bodies are BigCommerce's). */
function statusError(operation: string, res: ChannelHttpResponse): ChannelError {
  const messages = errorMessages(res);
  const detail = messages.join('; ').slice(0, 300);
  const suffix = detail ? `: ${detail}` : '';
  const options = { platformStatus: res.status, messages: messages.length ? messages : [`HTTP ${res.status}`] };
  if (res.status === 401) return new ChannelError(PLATFORM, 'unauthorized', `BigCommerce refused the access token (401)${suffix}`, options);
  if (res.status === 403)
    return new ChannelError(PLATFORM, 'unauthorized', `BigCommerce refused ${operation}: the API account lacks a scope (403)${suffix}`, options);
  if (res.status === 404) return new ChannelError(PLATFORM, 'not_found', `BigCommerce has no such store or resource (404)${suffix}`, options);
  return new ChannelError(PLATFORM, 'rejected', `BigCommerce refused ${operation} (${res.status})${suffix}`, options);
}

const malformed = (operation: string) => new ChannelError(PLATFORM, 'server_error', `BigCommerce answered ${operation} with a body we cannot read`);

function accessToken(conn: ChannelConnection): string {
  const token = conn.credentials.access_token;
  if (typeof token !== 'string' || token === '') throw new ChannelError(PLATFORM, 'unauthorized', 'The integration has no BigCommerce access token');
  return token;
}

function webhookSecret(conn: ChannelConnection): string {
  const secret = conn.credentials.webhook_secret;
  if (typeof secret !== 'string' || secret === '')
    throw new ChannelError(PLATFORM, 'rejected', 'The integration has no webhook secret to give BigCommerce', { platformStatus: 'webhook_secret' });
  return secret;
}

const originOf = (conn: ChannelConnection) => conn.origin.replace(/\/+$/, '');

const ORDER_ID = /^\d+$/;

interface Call {
  operation: string;
  method: HttpMethod;
  /** Path under the origin, query included. */
  path: string;
  json?: unknown;
  idempotent: boolean;
}

export class BigcommerceChannel implements Channel {
  readonly platform = PLATFORM;

  constructor(private readonly http: ChannelHttpClient) {}

  trackingCompany(carrierSlug: string): string | null {
    return trackingCarrier(carrierSlug);
  }

  private deadline(ctx?: ChannelCallContext): number {
    return this.http.deadlineFor(ctx);
  }

  /** One call within the operation's deadline; the answer whatever its status (4xx included). */
  private async send(conn: ChannelConnection, call: Call, deadline: number, ctx?: ChannelCallContext): Promise<ChannelHttpResponse> {
    const timeoutMs = deadline - this.http.now();
    if (timeoutMs <= 0) throw new ChannelError(PLATFORM, 'timeout', `BigCommerce did not finish ${call.operation} within the deadline`);
    return this.http.request({
      platform: PLATFORM,
      integrationId: conn.integrationId,
      operation: call.operation,
      method: call.method,
      url: `${originOf(conn)}${call.path}`,
      // The transport adds `Accept: application/json`, which Orders V2 requires.
      headers: { 'X-Auth-Token': accessToken(conn) },
      json: call.json,
      idempotent: call.idempotent,
      timeoutMs,
      requestId: ctx?.requestId,
      retryAfterMs: rateLimitReset,
    });
  }

  /** A read answering JSON; 204 (BigCommerce's empty list) is `[]`, 404 is null. */
  private async read(conn: ChannelConnection, operation: string, path: string, deadline: number, ctx?: ChannelCallContext): Promise<unknown> {
    const res = await this.send(conn, { operation, method: 'GET', path, idempotent: true }, deadline, ctx);
    if (res.status === 204) return [];
    if (res.status === 404) return null;
    if (res.status >= 300) throw statusError(operation, res);
    return readJson(PLATFORM, NAME, res);
  }

  /** Every page of a V2 sub-list (`/orders/{id}/products`, …); null when the order is gone. */
  private async readAll(conn: ChannelConnection, operation: string, path: string, deadline: number, ctx?: ChannelCallContext): Promise<unknown[] | null> {
    const out: unknown[] = [];
    for (let page = 1; ; page++) {
      const body = await this.read(conn, operation, `${path}?page=${page}&limit=${PAGE_LIMIT}`, deadline, ctx);
      if (body === null) return page === 1 ? null : out;
      if (!Array.isArray(body)) throw malformed(operation);
      out.push(...body);
      if (body.length < PAGE_LIMIT) return out;
    }
  }

  async testConnection(conn: ChannelConnection, ctx?: ChannelCallContext) {
    // The order statuses: one small authenticated read of the Orders API we need (the scope the
    // token must grant), the same for every store, touching no order.
    const body = await this.read(conn, 'connection_test', '/v2/order_statuses', this.deadline(ctx), ctx);
    if (!Array.isArray(body))
      throw body === null
        ? new ChannelError(PLATFORM, 'not_found', 'BigCommerce has no such store (404)', { platformStatus: 404 })
        : malformed('connection_test');
    return { scopes: [] };
  }

  async listWebhookSubscriptions(conn: ChannelConnection, ctx?: ChannelCallContext): Promise<ChannelWebhookSubscription[]> {
    const deadline = this.deadline(ctx);
    const out: ChannelWebhookSubscription[] = [];
    for (let page = 1; ; page++) {
      const body = await this.read(conn, 'webhooks_list', `/v3/hooks?page=${page}&limit=${PAGE_LIMIT}`, deadline, ctx);
      if (body === null) throw new ChannelError(PLATFORM, 'not_found', 'BigCommerce has no such store (404)', { platformStatus: 404 });
      // 204 reads as []: no hooks at all.
      const b = Array.isArray(body) ? { data: body } : obj(body);
      if (!Array.isArray(b.data)) throw malformed('webhooks_list');
      for (const h of asList(b.data)) {
        const hook = toSubscription(h);
        if (hook) out.push(hook);
      }
      const pagination = obj(obj(b.meta).pagination);
      const totalPages = typeof pagination.total_pages === 'number' ? pagination.total_pages : null;
      const more = totalPages !== null ? page < totalPages : b.data.length >= PAGE_LIMIT;
      if (!more) return out;
    }
  }

  async createWebhookSubscription(conn: ChannelConnection, topic: string, callbackUrl: string, ctx?: ChannelCallContext): Promise<ChannelWebhookSubscription> {
    const json = { scope: topic, destination: callbackUrl, is_active: true, headers: { [SECRET_HEADER]: webhookSecret(conn) } };
    // Not re-sent: a lost answer may have made the hook, and a second would deliver twice.
    const res = await this.send(conn, { operation: 'webhooks_create', method: 'POST', path: '/v3/hooks', json, idempotent: false }, this.deadline(ctx), ctx);
    if (res.status >= 300) throw statusError('webhooks_create', res);
    const hook = toSubscription(obj(readJson(PLATFORM, NAME, res)).data);
    if (!hook) throw malformed('webhooks_create');
    return hook;
  }

  async deleteWebhookSubscription(conn: ChannelConnection, id: string, ctx?: ChannelCallContext): Promise<void> {
    if (!ORDER_ID.test(id)) return;
    const res = await this.send(conn, { operation: 'webhooks_delete', method: 'DELETE', path: `/v3/hooks/${id}`, idempotent: true }, this.deadline(ctx), ctx);
    // Already gone is what we wanted.
    if (res.status >= 300 && res.status !== 404) throw statusError('webhooks_delete', res);
  }

  async reactivateWebhookSubscription(conn: ChannelConnection, id: string, ctx?: ChannelCallContext): Promise<void> {
    if (!ORDER_ID.test(id)) throw new ChannelError(PLATFORM, 'not_found', `${id} is not a BigCommerce hook id`);
    // Setting is_active to true twice is the same as once: safe to re-send.
    const res = await this.send(
      conn,
      { operation: 'webhooks_reactivate', method: 'PUT', path: `/v3/hooks/${id}`, json: { is_active: true }, idempotent: true },
      this.deadline(ctx),
      ctx,
    );
    if (res.status >= 300) throw statusError('webhooks_reactivate', res);
  }

  async listOrdersUpdatedSince(conn: ChannelConnection, sinceIso: string, cursor: string | null, pageSize: number, ctx?: ChannelCallContext) {
    const deadline = this.deadline(ctx);
    const at = decodeCursor(cursor, sinceIso);
    const since = at ? dateFilter(at.since) : null;
    if (!at || !since) throw new ChannelError(PLATFORM, 'rejected', 'Not a BigCommerce listing cursor or instant', { platformStatus: 'cursor' });
    const limit = Math.max(1, Math.min(PAGE_LIMIT, Math.floor(pageSize)));
    const query = new URLSearchParams({ min_date_modified: since, sort: 'date_modified:asc', page: String(at.page), limit: String(limit) });
    const body = await this.read(conn, 'orders_list', `/v2/orders?${query.toString()}`, deadline, ctx);
    if (body === null) throw new ChannelError(PLATFORM, 'not_found', 'BigCommerce has no such store (404)', { platformStatus: 404 });
    if (!Array.isArray(body)) throw malformed('orders_list');
    const orders: ChannelOrder[] = [];
    for (const listed of body) {
      const id = str(obj(listed).id);
      if (!id || !ORDER_ID.test(id)) throw malformed('orders_list');
      // The listing holds the order itself; its products, addresses and shipments are read beside it.
      const parts = await this.readParts(conn, id, listed, deadline, ctx);
      const order = parts ? parseOrder(parts) : null;
      // Gone between the listing and its parts: the next run (or its deletion) says the rest.
      if (parts && !order) throw malformed('orders_list');
      if (order) orders.push(order);
    }
    return { orders, nextCursor: nextCursor(at, body, limit) };
  }

  async fetchOrder(conn: ChannelConnection, externalId: string, ctx?: ChannelCallContext): Promise<ChannelOrder | null> {
    if (!ORDER_ID.test(externalId)) throw new ChannelError(PLATFORM, 'not_found', `${externalId} is not a BigCommerce order id`);
    const parts = await this.readParts(conn, externalId, undefined, this.deadline(ctx), ctx);
    if (!parts) return null;
    const order = parseOrder(parts);
    if (!order) throw malformed('order_get');
    return order;
  }

  /** The order (unless already read) and its sub-resources; null when BigCommerce has no such order. */
  private async readParts(conn: ChannelConnection, id: string, order: unknown, deadline: number, ctx?: ChannelCallContext): Promise<OrderParts | null> {
    const o = order ?? (await this.read(conn, 'order_get', `/v2/orders/${id}`, deadline, ctx));
    if (o === null) return null;
    const products = await this.readAll(conn, 'order_products', `/v2/orders/${id}/products`, deadline, ctx);
    const shippingAddresses = await this.readAll(conn, 'order_shipping_addresses', `/v2/orders/${id}/shipping_addresses`, deadline, ctx);
    const shipments = await this.readAll(conn, 'order_shipments', `/v2/orders/${id}/shipments`, deadline, ctx);
    if (!products || !shippingAddresses || !shipments) return null;
    return { order: o, products, shippingAddresses, shipments };
  }

  verifyWebhook = verifyBigcommerceWebhook;

  parseWebhookOrder(topic: string, body: unknown): WebhookContent {
    if (!WEBHOOK_TOPICS.includes(topic))
      throw new ChannelError(PLATFORM, 'rejected', `BigCommerce scope ${topic} is not one we handle`, {
        messages: [`unhandled scope ${topic}`],
        platformStatus: 'scope',
      });
    const id = this.webhookOrderId(body);
    if (!id || !ORDER_ID.test(id) || obj(obj(body).data).type !== 'order') {
      throw new ChannelError(PLATFORM, 'rejected', `The ${topic} delivery does not name an order`, {
        messages: ['body does not name an order'],
        platformStatus: 'body',
      });
    }
    // Deliveries are thin: the apply step fetches the order.
    return { kind: 'fetch', external_id: id };
  }

  webhookOrderId(body: unknown): string | null {
    const id = obj(obj(body).data).id;
    return typeof id === 'number' || typeof id === 'string' ? String(id) : null;
  }

  async fulfill(conn: ChannelConnection, request: FulfillRequest, ctx?: ChannelCallContext): Promise<FulfillResult> {
    const deadline = this.deadline(ctx);
    const id = request.externalOrderId;
    if (!ORDER_ID.test(id)) throw new ChannelError(PLATFORM, 'not_found', `${id} is not a BigCommerce order id`, { platformStatus: 'order' });
    // Read before write: a shipment with our tracking number means an earlier attempt went through.
    const parts = await this.readParts(conn, id, undefined, deadline, ctx);
    if (!parts) throw new ChannelError(PLATFORM, 'not_found', `BigCommerce has no order ${id}`, { platformStatus: 'order' });
    const plan = planShipment(parts, request, trackingCarrier(request.tracking.carrier));
    if (plan.kind === 'already_fulfilled') return { outcome: 'already_fulfilled', refs: plan.refs };
    if (plan.kind !== 'post') return { outcome: plan.kind, message: plan.message };
    // Never re-sent: after a lost answer the next attempt's read finds the shipment instead.
    const res = await this.send(
      conn,
      { operation: 'shipment_create', method: 'POST', path: `/v2/orders/${id}/shipments`, json: plan.body, idempotent: false },
      deadline,
      ctx,
    );
    if (res.status >= 300) throw statusError('shipment_create', res);
    const shipmentId = obj(readJson(PLATFORM, NAME, res)).id;
    if (typeof shipmentId !== 'number') throw malformed('shipment_create');
    return { outcome: 'created', refs: [shipmentRef(id, shipmentId)] };
  }

  async cancelFulfillment(conn: ChannelConnection, request: CancelFulfillmentRequest, ctx?: ChannelCallContext): Promise<void> {
    const ref = parseShipmentRef(request.ref);
    if (!ref) throw new ChannelError(PLATFORM, 'rejected', `${request.ref} is not a BigCommerce shipment reference`, { platformStatus: 'ref' });
    const path = `/v2/orders/${ref.orderId}/shipments/${ref.shipmentId}`;
    // Deleting a deleted shipment answers 404, the state we wanted: safe to re-send.
    const res = await this.send(conn, { operation: 'shipment_delete', method: 'DELETE', path, idempotent: true }, this.deadline(ctx), ctx);
    if (res.status >= 300 && res.status !== 404) throw statusError('shipment_delete', res);
  }
}

function toSubscription(value: unknown): ChannelWebhookSubscription | null {
  const h = obj(value);
  const id = str(h.id);
  if (!id) return null;
  return { id, topic: str(h.scope) ?? '', callbackUrl: str(h.destination) ?? '', active: h.is_active === true };
}
