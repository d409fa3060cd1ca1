/**
 * The Shopify channel: the only file of this folder that performs HTTP, through the shared
 * channel client (deadline, retries of reads, cost bucket, exchange log). Everything it sends
 * and reads is built and parsed by the pure modules beside it. Admin API calls go to
 * `POST {origin}/admin/api/2026-07/graphql.json` with `X-Shopify-Access-Token`; token exchanges
 * to `POST {origin}/admin/oauth/access_token`.
 */
import { obj, str } from '../../carriers/http/json-read.js';
import { readJson, type ChannelHttpClient, type ChannelHttpResponse } from '../http/client.js';
import { sendGraphql, type GraphqlError } from '../http/graphql.js';
import {
  ChannelError,
  type Channel,
  type ChannelCallContext,
  type ChannelConnection,
  type ChannelOrder,
  type ChannelWebhookSubscription,
  type FulfillRequest,
  type FulfillResult,
  type OAuthTokens,
  type CancelFulfillmentRequest,
  type WebhookContent,
} from '../types.js';
import {
  CONNECTION_TEST,
  FULFILLMENT_CANCEL,
  FULFILLMENT_CREATE,
  fulfillmentCreateVariables,
  ORDER_BY_ID,
  ORDER_FULFILLMENT_ORDERS,
  ORDER_FULFILLMENTS,
  orderByIdVariables,
  orderGid,
  ORDERS_UPDATED_SINCE,
  ordersUpdatedSinceVariables,
  WEBHOOK_SUBSCRIPTION_CREATE,
  WEBHOOK_SUBSCRIPTION_DELETE,
  WEBHOOK_SUBSCRIPTIONS,
  webhookSubscriptionCreateVariables,
} from './documents.js';
import { ACCESS_TOKEN_PATH, buildCodeExchange, buildRefreshExchange, parseTokenAnswer, verifyShopifyOAuthHmac } from './oauth.js';
import {
  fulfillmentsWithTracking,
  parseFulfillmentOrders,
  parseGraphqlLineItem,
  parseGraphqlOrder,
  parseOrdersPage,
  parseRestOrder,
  parseUserErrors,
  planFulfillment,
  type UserError,
} from './parsers.js';
import { SHOPIFY_API_VERSION, topicEnum, trackingCompany } from './units.js';
import { verifyShopifyWebhook } from './webhooks.js';

const PLATFORM = 'shopify';
const NAME = 'Shopify';

/** The topics whose body is an order (REST order JSON). */
const ORDER_TOPICS = new Set([
  'ORDERS_CREATE',
  'ORDERS_UPDATED',
  'ORDERS_CANCELLED',
  'ORDERS_PAID',
  'ORDERS_FULFILLED',
  'ORDERS_PARTIALLY_FULFILLED',
  'ORDERS_EDITED',
]);

const rejected = (message: string, messages: string[], platformStatus: string | number) =>
  new ChannelError(PLATFORM, 'rejected', message, { messages, platformStatus });

/** A non-2xx answer that is not a transport failure, in channel words. */
function statusError(operation: string, res: ChannelHttpResponse): ChannelError {
  let detail = '';
  try {
    const errors = obj(readJson(PLATFORM, NAME, res)).errors;
    detail =
      typeof errors === 'string'
        ? errors
        : Array.isArray(errors)
          ? errors
              .map((e) => str(obj(e).message) ?? '')
              .filter(Boolean)
              .join('; ')
          : '';
  } catch {
    // An unreadable refusal is still a refusal.
  }
  const suffix = detail ? `: ${detail.slice(0, 300)}` : '';
  if (res.status === 401) return new ChannelError(PLATFORM, 'unauthorized', `Shopify refused the access token (401)${suffix}`, { platformStatus: 401 });
  if (res.status === 403)
    return new ChannelError(PLATFORM, 'unauthorized', `Shopify refused ${operation}: the app lacks a scope (403)${suffix}`, { platformStatus: 403 });
  if (res.status === 404) return new ChannelError(PLATFORM, 'not_found', `Shopify has no such shop or resource (404)${suffix}`, { platformStatus: 404 });
  return rejected(`Shopify refused ${operation} (${res.status})${suffix}`, [detail || `HTTP ${res.status}`], res.status);
}

/** Top-level GraphQL errors (a document Shopify refused, a denied field) in channel words. */
function graphqlError(operation: string, errors: GraphqlError[]): ChannelError {
  const messages = errors.map((e) => e.message);
  const text = `Shopify refused ${operation}: ${messages.join('; ').slice(0, 300)}`;
  if (errors.some((e) => e.code === 'ACCESS_DENIED')) return new ChannelError(PLATFORM, 'unauthorized', text, { messages, platformStatus: 'ACCESS_DENIED' });
  if (errors.some((e) => e.code === 'INTERNAL_SERVER_ERROR'))
    return new ChannelError(PLATFORM, 'server_error', text, { messages, platformStatus: 'INTERNAL_SERVER_ERROR' });
  return rejected(text, messages, errors.find((e) => e.code)?.code ?? 'errors');
}

function userErrorsError(operation: string, errors: UserError[]): ChannelError {
  const messages = errors.map((e) => (e.field?.length ? `${e.field.join('.')}: ${e.message}` : e.message));
  return rejected(`Shopify refused ${operation}: ${messages.join('; ').slice(0, 300)}`, messages, 'userErrors');
}

const malformed = (operation: string) => new ChannelError(PLATFORM, 'server_error', `Shopify answered ${operation} with a body we cannot read`);

function accessToken(conn: ChannelConnection): string {
  const token = conn.credentials.access_token;
  if (typeof token !== 'string' || token === '') {
    throw new ChannelError(PLATFORM, 'unauthorized', 'The integration has no Shopify access token yet (authorize the app first)');
  }
  return token;
}

const originOf = (conn: ChannelConnection) => conn.origin.replace(/\/+$/, '');

export class ShopifyChannel implements Channel {
  readonly platform = PLATFORM;

  constructor(private readonly http: ChannelHttpClient) {}

  /** Carrier slug → the tracking company name Shopify knows (null: pass the carrier's own name). */
  trackingCompany(carrierSlug: string): string | null {
    return trackingCompany(carrierSlug);
  }

  private deadline(ctx?: ChannelCallContext): number {
    return this.http.deadlineFor(ctx);
  }

  /** One Admin API call within the operation's deadline; `data` or a ChannelError. */
  private async graphql(
    conn: ChannelConnection,
    operation: string,
    query: string,
    variables: Record<string, unknown> | undefined,
    mutation: boolean,
    deadline: number,
    ctx?: ChannelCallContext,
  ): Promise<Record<string, unknown>> {
    const timeoutMs = deadline - this.http.now();
    if (timeoutMs <= 0) throw new ChannelError(PLATFORM, 'timeout', `Shopify did not finish ${operation} within the deadline`);
    const answer = await sendGraphql(this.http, {
      platform: PLATFORM,
      platformName: NAME,
      integrationId: conn.integrationId,
      operation,
      url: `${originOf(conn)}/admin/api/${conn.apiVersion ?? SHOPIFY_API_VERSION}/graphql.json`,
      headers: { 'X-Shopify-Access-Token': accessToken(conn) },
      query,
      variables,
      mutation,
      timeoutMs,
      requestId: ctx?.requestId,
    });
    if (answer.res.status >= 300) throw statusError(operation, answer.res);
    if (answer.errors.length && !answer.data) throw graphqlError(operation, answer.errors);
    if (!answer.data) throw malformed(operation);
    // Errors beside data: a field Shopify could not resolve. Anything we read that it left null is handled by the parsers.
    if (answer.errors.length && answer.errors.some((e) => e.code === 'ACCESS_DENIED')) throw graphqlError(operation, answer.errors);
    return answer.data;
  }

  async testConnection(conn: ChannelConnection, ctx?: ChannelCallContext) {
    const data = await this.graphql(conn, 'connection_test', CONNECTION_TEST, undefined, false, this.deadline(ctx), ctx);
    const scopes = (Array.isArray(obj(data.currentAppInstallation).accessScopes) ? (obj(data.currentAppInstallation).accessScopes as unknown[]) : [])
      .map((s) => str(obj(s).handle))
      .filter((s): s is string => !!s);
    const shopName = str(obj(data.shop).name);
    return shopName ? { scopes, shopName } : { scopes };
  }

  async listWebhookSubscriptions(conn: ChannelConnection, ctx?: ChannelCallContext): Promise<ChannelWebhookSubscription[]> {
    const deadline = this.deadline(ctx);
    const out: ChannelWebhookSubscription[] = [];
    let after: string | null = null;
    do {
      const data = await this.graphql(conn, 'webhooks_list', WEBHOOK_SUBSCRIPTIONS, { after }, false, deadline, ctx);
      const conn_ = obj(data.webhookSubscriptions);
      if (!Array.isArray(conn_.nodes)) throw malformed('webhooks_list');
      for (const n of conn_.nodes) {
        const w = obj(n);
        const id = str(w.id);
        if (id) out.push({ id, topic: str(w.topic) ?? '', callbackUrl: str(w.uri) ?? '', active: true });
      }
      const page = obj(conn_.pageInfo);
      after = page.hasNextPage === true ? str(page.endCursor) : null;
    } while (after);
    return out;
  }

  async createWebhookSubscription(conn: ChannelConnection, topic: string, callbackUrl: string, ctx?: ChannelCallContext): Promise<ChannelWebhookSubscription> {
    const data = await this.graphql(
      conn,
      'webhooks_create',
      WEBHOOK_SUBSCRIPTION_CREATE,
      webhookSubscriptionCreateVariables(topic, callbackUrl),
      true,
      this.deadline(ctx),
      ctx,
    );
    const payload = obj(data.webhookSubscriptionCreate);
    const errors = parseUserErrors(payload);
    if (errors.length) throw userErrorsError('webhookSubscriptionCreate', errors);
    const w = obj(payload.webhookSubscription);
    const id = str(w.id);
    if (!id) throw malformed('webhooks_create');
    return { id, topic: str(w.topic) ?? topic, callbackUrl: str(w.uri) ?? callbackUrl, active: true };
  }

  async deleteWebhookSubscription(conn: ChannelConnection, id: string, ctx?: ChannelCallContext): Promise<void> {
    const data = await this.graphql(conn, 'webhooks_delete', WEBHOOK_SUBSCRIPTION_DELETE, { id }, true, this.deadline(ctx), ctx);
    const errors = parseUserErrors(data.webhookSubscriptionDelete);
    // Already gone is what we wanted.
    if (errors.length && !errors.every((e) => /does not exist|not found/i.test(e.message))) throw userErrorsError('webhookSubscriptionDelete', errors);
  }

  /** Shopify removes a failing subscription rather than pausing it: nothing to turn back on. */
  async reactivateWebhookSubscription(): Promise<void> {}

  async listOrdersUpdatedSince(conn: ChannelConnection, sinceIso: string, cursor: string | null, pageSize: number, ctx?: ChannelCallContext) {
    const deadline = this.deadline(ctx);
    const data = await this.graphql(conn, 'orders_list', ORDERS_UPDATED_SINCE, ordersUpdatedSinceVariables(sinceIso, cursor, pageSize), false, deadline, ctx);
    const page = parseOrdersPage(data);
    if (!page) throw malformed('orders_list');
    const orders: ChannelOrder[] = [];
    for (const { order, linesCursor } of page.orders) {
      // More lines than a listing reads: the rest come with the order read whole.
      orders.push(linesCursor ? await this.readOrder(conn, order.external_id, deadline, ctx).then((o) => o ?? order) : order);
    }
    return { orders, nextCursor: page.nextCursor };
  }

  fetchOrder(conn: ChannelConnection, externalId: string, ctx?: ChannelCallContext): Promise<ChannelOrder | null> {
    return this.readOrder(conn, externalId, this.deadline(ctx), ctx);
  }

  /** One order with every line (pages of line items while Shopify says there are more). */
  private async readOrder(conn: ChannelConnection, externalId: string, deadline: number, ctx?: ChannelCallContext): Promise<ChannelOrder | null> {
    if (!/^\d+$/.test(externalId)) throw new ChannelError(PLATFORM, 'not_found', `${externalId} is not a Shopify order id`);
    const data = await this.graphql(conn, 'order_get', ORDER_BY_ID, orderByIdVariables(externalId), false, deadline, ctx);
    if (data.order === null) return null;
    const first = parseGraphqlOrder(data.order);
    if (!first) throw malformed('order_get');
    const { order } = first;
    let cursor = first.linesCursor;
    while (cursor) {
      const more = await this.graphql(conn, 'order_get', ORDER_BY_ID, orderByIdVariables(externalId, cursor), false, deadline, ctx);
      const lines = obj(obj(more.order).lineItems);
      if (!Array.isArray(lines.nodes)) throw malformed('order_get');
      order.line_items.push(...lines.nodes.map((l) => parseGraphqlLineItem(l, order.currency)).filter((l) => l.quantity > 0));
      const page = obj(lines.pageInfo);
      cursor = page.hasNextPage === true ? str(page.endCursor) : null;
    }
    return order;
  }

  verifyWebhook = verifyShopifyWebhook;

  parseWebhookOrder(topic: string, body: unknown): WebhookContent {
    const name = topicEnum(topic);
    if (name === 'APP_UNINSTALLED') return { kind: 'uninstalled' };
    if (!ORDER_TOPICS.has(name)) throw rejected(`Shopify topic ${topic} is not one we handle`, [`unhandled topic ${topic}`], 'topic');
    const order = parseRestOrder(body);
    if (!order) throw rejected(`The ${topic} delivery does not carry an order`, ['body is not an order'], 'body');
    return order;
  }

  async fulfill(conn: ChannelConnection, request: FulfillRequest, ctx?: ChannelCallContext): Promise<FulfillResult> {
    const deadline = this.deadline(ctx);
    const id = orderGid(request.externalOrderId);
    // Read before write: a fulfillment with our tracking number means an earlier attempt went through.
    const fulfillments = await this.graphql(conn, 'fulfillments_read', ORDER_FULFILLMENTS, { id }, false, deadline, ctx);
    const existing = fulfillmentsWithTracking(fulfillments, request.tracking.number);
    if (existing === null) throw new ChannelError(PLATFORM, 'not_found', `Shopify has no order ${request.externalOrderId}`, { platformStatus: 'order' });
    // With lines, what an earlier attempt covered is not told apart from what is left: done.
    if (existing.length && request.lines) return { outcome: 'already_fulfilled', refs: existing };

    const fos = parseFulfillmentOrders(await this.graphql(conn, 'fulfillment_orders_read', ORDER_FULFILLMENT_ORDERS, { id }, false, deadline, ctx));
    if (fos === null) throw new ChannelError(PLATFORM, 'not_found', `Shopify has no order ${request.externalOrderId}`, { platformStatus: 'order' });
    const plan = planFulfillment(fos, request.lines);
    // Without lines the whole order ships: an earlier attempt that reached one location of two leaves the other open.
    if (plan.kind !== 'plan' && existing.length) return { outcome: 'already_fulfilled', refs: existing };
    if (plan.kind === 'on_hold' || plan.kind === 'closed') return { outcome: plan.kind, message: plan.message };
    if (plan.kind === 'too_many_lines') throw rejected(plan.message, [plan.message], 'lines');

    const refs = [...existing];
    // One fulfillmentCreate per location: Shopify refuses fulfillment orders of two locations in one.
    for (const location of plan.locations) {
      const data = await this.graphql(conn, 'fulfillment_create', FULFILLMENT_CREATE, fulfillmentCreateVariables(location, request), true, deadline, ctx);
      const payload = obj(data.fulfillmentCreate);
      const errors = parseUserErrors(payload);
      if (errors.length) throw userErrorsError('fulfillmentCreate', errors);
      const ref = str(obj(payload.fulfillment).id);
      if (!ref) throw malformed('fulfillment_create');
      refs.push(ref);
    }
    return { outcome: 'created', refs };
  }

  webhookOrderId(body: unknown): string | null {
    const id = obj(body).id;
    return typeof id === 'number' || typeof id === 'string' ? String(id) : null;
  }

  async cancelFulfillment(conn: ChannelConnection, request: CancelFulfillmentRequest, ctx?: ChannelCallContext): Promise<void> {
    const data = await this.graphql(conn, 'fulfillment_cancel', FULFILLMENT_CANCEL, { id: request.ref }, true, this.deadline(ctx), ctx);
    const errors = parseUserErrors(data.fulfillmentCancel);
    // Cancelling a cancelled fulfillment is what we wanted.
    if (errors.length && !errors.every((e) => /already (been )?cancel/i.test(e.message))) throw userErrorsError('fulfillmentCancel', errors);
  }

  verifyOAuthHmac = verifyShopifyOAuthHmac;

  exchangeCode(conn: ChannelConnection, input: { clientId: string; clientSecret: string; code: string }, ctx?: ChannelCallContext): Promise<OAuthTokens> {
    return this.tokenCall(conn, 'oauth_code', buildCodeExchange(input), ctx);
  }

  refreshToken(
    conn: ChannelConnection,
    input: { clientId: string; clientSecret: string; refreshToken: string },
    ctx?: ChannelCallContext,
  ): Promise<OAuthTokens> {
    return this.tokenCall(conn, 'oauth_refresh', buildRefreshExchange(input), ctx);
  }

  private async tokenCall(conn: ChannelConnection, operation: string, json: Record<string, string>, ctx?: ChannelCallContext): Promise<OAuthTokens> {
    const res = await this.http.request({
      platform: PLATFORM,
      integrationId: conn.integrationId,
      operation,
      method: 'POST',
      url: `${originOf(conn)}${ACCESS_TOKEN_PATH}`,
      json,
      // A code is single-use and a refresh token rotates: a lost answer is not re-sent.
      idempotent: false,
      timeoutMs: ctx?.timeoutMs ?? this.http.defaultTimeoutMs,
      requestId: ctx?.requestId,
      secretKeys: ['code'],
    });
    if (res.status >= 300) {
      const error = statusError(operation, res);
      // A refused code or refresh token is refused credentials, whatever the status.
      throw res.status === 400 ? new ChannelError(PLATFORM, 'unauthorized', error.message, { platformStatus: 400, messages: error.messages }) : error;
    }
    const tokens = parseTokenAnswer(readJson(PLATFORM, NAME, res), this.http.now());
    if (!tokens) throw malformed(operation);
    return tokens;
  }
}
