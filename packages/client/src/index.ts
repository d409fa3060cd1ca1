// The shipping service's Node client: the typed openapi-fetch client generated from openapi.json
// (`client.api.GET('/v1/orders/{id}', …)` for any operation), plus what generation cannot give:
// credentials on every request, an Idempotency-Key on every POST, retries of 429/503, cursor
// iteration and webhook signature checks.
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';
import { retryingFetch, type RetryOptions } from './retry.js';

export type { paths, components, operations } from './schema.js';
export { verifyWebhookSignature } from './webhooks.js';
export { retryAfterMs } from './retry.js';

export interface ShippingClientOptions {
  /** e.g. https://shipping.example.com (no trailing /v1). */
  baseUrl: string;
  /** A secret API key, sk_test_… or sk_live_…. */
  apiKey: string;
  /** The workspace the key belongs to (X-Service-Workspace). */
  workspaceId: string;
  retry?: RetryOptions;
  /** Set false to send POSTs without an automatic Idempotency-Key. */
  idempotencyKeys?: boolean;
  fetch?: typeof fetch;
}

/**
 * One entry of an error's `details` (always a list): `{field, message}` for validation errors;
 * a 409 invalid_state's one entry also names `current_state` and `allowed_moves`.
 */
export type ErrorDetail = NonNullable<components['schemas']['Error']['details']>[number];

/** A non-2xx answer, thrown by the convenience methods (the raw `api` returns `{error}` instead). */
export class ShippingApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId: string | undefined,
    /** Always a list (e.g. `[{field, message}]`), empty when the body had none. */
    readonly details: ErrorDetail[],
  ) {
    super(`${status} ${code}: ${message}`);
    this.name = 'ShippingApiError';
  }
}

type JsonOk<Op> = Op extends { responses: { 200: { content: { 'application/json': infer B } } } } ? B : never;
type ListBody = { data: unknown[]; has_more: boolean; next_cursor?: string | null };
/** The paths whose GET answers a cursor page `{data, has_more, next_cursor}`. */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: infer G } ? (JsonOk<G> extends ListBody ? P : never) : never;
}[keyof paths];
type GetOp<P extends ListPath> = paths[P] extends { get: infer G } ? G : never;
export type ListItem<P extends ListPath> = JsonOk<GetOp<P>> extends { data: Array<infer T> } ? T : never;
export type ListQuery<P extends ListPath> = GetOp<P> extends { parameters: { query?: infer Q } } ? Omit<NonNullable<Q>, 'cursor'> : never;
type PathParams<P extends ListPath> = GetOp<P> extends { parameters: { path: infer A } } ? A : never;

type Body<P extends keyof paths, M extends 'post'> = paths[P][M] extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;

export function createShippingClient(options: ShippingClientOptions) {
  const api = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${options.apiKey}`, 'x-service-workspace': options.workspaceId },
    fetch: retryingFetch(options.fetch ?? globalThis.fetch, { ...options.retry, idempotencyKeys: options.idempotencyKeys }),
  });

  function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
    if (result.error !== undefined || result.data === undefined) {
      const e = (result.error ?? {}) as { code?: string; message?: string; request_id?: string; details?: unknown };
      const details = (e.details === undefined || e.details === null ? [] : Array.isArray(e.details) ? e.details : [e.details]) as ErrorDetail[];
      throw new ShippingApiError(result.response.status, e.code ?? 'unknown', e.message ?? result.response.statusText, e.request_id, details);
    }
    return result.data;
  }

  /** Every item of a cursor-paginated list, fetching pages as the loop asks for them. */
  async function* paginate<P extends ListPath>(path: P, query?: ListQuery<P>, pathParams?: PathParams<P>): AsyncGenerator<ListItem<P>> {
    let cursor: string | undefined;
    do {
      const get = api.GET as unknown as (p: string, init: unknown) => Promise<{ data?: ListBody; error?: unknown; response: Response }>;
      const page = unwrap(await get(path, { params: { path: pathParams, query: { ...(query ?? {}), ...(cursor ? { cursor } : {}) } } }));
      for (const item of page.data) yield item as ListItem<P>;
      cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
    } while (cursor);
  }

  /** Per-call options for POSTs: your own Idempotency-Key instead of a random one. */
  type PostOptions = { idempotencyKey?: string };
  const postHeaders = (o?: PostOptions) => (o?.idempotencyKey ? { 'idempotency-key': o.idempotencyKey } : undefined);

  return {
    /** The generated client for every operation: `await client.api.GET('/v1/orders/{id}', {params: {path: {id}}})`. */
    api,
    paginate,
    orders: {
      list: (query?: ListQuery<'/v1/orders'>) => paginate('/v1/orders', query),
      get: async (id: string) => unwrap(await api.GET('/v1/orders/{id}', { params: { path: { id } } })),
      create: async (body: Body<'/v1/orders', 'post'>, o?: PostOptions) => unwrap(await api.POST('/v1/orders', { body, headers: postHeaders(o) })),
    },
    shipments: {
      list: (query?: ListQuery<'/v1/shipments'>) => paginate('/v1/shipments', query),
      get: async (id: string) => unwrap(await api.GET('/v1/shipments/{id}', { params: { path: { id } } })),
      create: async (body: Body<'/v1/shipments', 'post'>, o?: PostOptions) => unwrap(await api.POST('/v1/shipments', { body, headers: postHeaders(o) })),
    },
    rates: {
      query: async (body: Body<'/v1/rates/query', 'post'>, o?: PostOptions) => unwrap(await api.POST('/v1/rates/query', { body, headers: postHeaders(o) })),
    },
    webhooks: {
      list: (query?: ListQuery<'/v1/webhooks'>) => paginate('/v1/webhooks', query),
      create: async (body: Body<'/v1/webhooks', 'post'>, o?: PostOptions) => unwrap(await api.POST('/v1/webhooks', { body, headers: postHeaders(o) })),
      deliveries: (query?: ListQuery<'/v1/webhook-deliveries'>) => paginate('/v1/webhook-deliveries', query),
    },
    tracking: {
      events: (query?: ListQuery<'/v1/tracking/events'>) => paginate('/v1/tracking/events', query),
    },
  };
}

export type ShippingClient = ReturnType<typeof createShippingClient>;
