import createClient from 'openapi-fetch';
// The one generated schema (`npm run openapi` writes it from openapi.json for the Node client
// too): a type-only import, erased from the bundle, so the dashboard ships none of packages/.
import type { components, operations, paths } from '../../../packages/client/src/schema';

export type Schemas = components['schemas'];
export type Operations = operations;
export type Order = Schemas['Order'];
export type Account = Schemas['Account'];
export type Workspace = Schemas['Workspace'];
export type ApiKey = Schemas['ApiKey'];
export type Environment = 'test' | 'live';

/**
 * The workspace and environment the dashboard acts on, sent as X-Service-Workspace and
 * X-Service-Environment on every /api/admin call. Set by the session provider; held in memory
 * only (the session itself is an httpOnly cookie the scripts never see).
 */
export const scope: { workspaceId: string | null; environment: Environment } = { workspaceId: null, environment: 'test' };

/** Fired when a call answers 401: the session ended (expired, revoked, suspended). */
export const sessionEnded = new EventTarget();

export const api = createClient<paths>({ baseUrl: location.origin, credentials: 'same-origin' });
api.use({
  onRequest({ request }) {
    if (new URL(request.url).pathname.startsWith('/api/admin/')) {
      if (scope.workspaceId) request.headers.set('X-Service-Workspace', scope.workspaceId);
      request.headers.set('X-Service-Environment', scope.environment);
    }
    return request;
  },
});

export interface FieldError {
  field: string;
  message: string;
}

/** An error answer in the service's common shape, or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldError[] = [],
    readonly requestId?: string,
  ) {
    super(message);
  }
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

/** Await an openapi-fetch call: its data, or an ApiError. */
export async function call<T>(promise: Promise<Answer<T>>): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await promise;
  } catch {
    throw new ApiError(0, 'network_error', 'Could not reach the service. Check your connection and try again.');
  }
  if (answer.response.ok) return answer.data as T;
  throw toApiError(answer.response.status, answer.error, answer.response.headers.get('x-request-id') ?? undefined);
}

export function toApiError(status: number, body: unknown, requestId?: string): ApiError {
  const b = (body ?? {}) as { code?: string; message?: string; details?: unknown; request_id?: string };
  const details = Array.isArray(b.details) ? (b.details as FieldError[]).filter((d) => d && typeof d.field === 'string') : [];
  const err = new ApiError(status, b.code ?? `http_${status}`, b.message ?? `The service answered ${status}.`, details, b.request_id ?? requestId);
  if (status === 401 && b.code === 'unauthorized') sessionEnded.dispatchEvent(new Event('ended'));
  return err;
}

/**
 * `ask` made into an answer asked once per page load (the service's carrier and platform types):
 * a failed answer is forgotten, so the next caller asks again.
 */
export function askedOnce<T>(ask: () => Promise<T>): () => Promise<T> {
  let answer: Promise<T> | null = null;
  return () =>
    (answer ??= ask().catch((err: unknown) => {
      answer = null;
      throw err;
    }));
}
