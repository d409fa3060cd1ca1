/**
 * One GraphQL call with a query-cost bucket (Shopify's Admin API, docs/channels.md): before the
 * call, wait until the bucket holds what this operation cost last time; after it, remember the
 * bucket the answer reports; a THROTTLED answer is waited out for the restore time and sent
 * again (the platform did not run it, so this is safe even for a mutation) while the deadline
 * and the throttle retries allow, else it becomes `ChannelError` throttled with `retryAfterMs`.
 */
import { ChannelError } from '../types.js';
import { readJson, type ChannelHttpClient, type ChannelHttpResponse } from './client.js';
import { throttledWaitMs, type ThrottleStatus } from './cost-bucket.js';

export interface GraphqlCall {
  platform: string;
  platformName: string;
  integrationId: string;
  operation: string;
  url: string;
  headers: Record<string, string>;
  query: string;
  variables?: Record<string, unknown>;
  /** A mutation is never re-sent after a 5xx, 429 or lost answer (it may have been applied). */
  mutation: boolean;
  timeoutMs: number;
  requestId?: string;
}

export interface GraphqlError {
  message: string;
  code: string | null;
}

export interface GraphqlAnswer {
  res: ChannelHttpResponse;
  data: Record<string, unknown> | null;
  errors: GraphqlError[];
}

const THROTTLED = 'THROTTLED';

function readErrors(body: Record<string, unknown>): GraphqlError[] {
  const errors = body.errors;
  if (typeof errors === 'string') return [{ message: errors, code: null }];
  if (!Array.isArray(errors)) return [];
  return errors.map((e) => {
    const o = (e ?? {}) as Record<string, unknown>;
    const ext = (o.extensions ?? {}) as Record<string, unknown>;
    return { message: typeof o.message === 'string' ? o.message : 'error', code: typeof ext.code === 'string' ? ext.code : null };
  });
}

function readCost(body: Record<string, unknown>): { status: ThrottleStatus | null; requested: number | null } {
  const cost = ((body.extensions ?? {}) as Record<string, unknown>).cost as Record<string, unknown> | undefined;
  if (!cost || typeof cost !== 'object') return { status: null, requested: null };
  const t = (cost.throttleStatus ?? {}) as Record<string, unknown>;
  const nums = [t.maximumAvailable, t.currentlyAvailable, t.restoreRate];
  const status = nums.every((n) => typeof n === 'number' && Number.isFinite(n))
    ? { maximumAvailable: t.maximumAvailable as number, currentlyAvailable: t.currentlyAvailable as number, restoreRate: t.restoreRate as number }
    : null;
  return { status, requested: typeof cost.requestedQueryCost === 'number' ? cost.requestedQueryCost : null };
}

export function isThrottledBody(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  return readErrors(body as Record<string, unknown>).some((e) => e.code === THROTTLED);
}

/**
 * Sends the call; returns the answer (any HTTP status below 500 but 429, with `data` and
 * `errors` read) or throws `ChannelError` for a throttle that outlasts the deadline and for
 * transport failures.
 */
export async function sendGraphql(http: ChannelHttpClient, call: GraphqlCall): Promise<GraphqlAnswer> {
  const deadline = http.now() + call.timeoutMs;
  const key = call.integrationId;
  for (let throttles = 0; ; throttles++) {
    const wait = http.costBuckets.waitMs(key, http.costBuckets.lastCost(key, call.operation));
    if (wait > 0) {
      if (http.now() + wait >= deadline) {
        throw new ChannelError(call.platform, 'throttled', `${call.platformName}'s query budget needs ${Math.ceil(wait / 1000)} s to cover ${call.operation}`, {
          retryAfterMs: wait,
          platformStatus: THROTTLED,
        });
      }
      await http.sleep(wait);
    }
    const remaining = deadline - http.now();
    if (remaining <= 0) throw new ChannelError(call.platform, 'timeout', `${call.platformName} did not answer within ${call.timeoutMs} ms`);
    const res = await http.request({
      platform: call.platform,
      integrationId: call.integrationId,
      operation: call.operation,
      method: 'POST',
      url: call.url,
      headers: call.headers,
      json: { query: call.query, ...(call.variables ? { variables: call.variables } : {}) },
      logBody: { operation: call.operation, variables: call.variables ?? {} },
      idempotent: !call.mutation,
      timeoutMs: remaining,
      requestId: call.requestId,
      isThrottled: isThrottledBody,
    });
    if (res.status >= 400) return { res, data: null, errors: [] };
    const parsed = readJson(call.platform, call.platformName, res);
    const body = (parsed && typeof parsed === 'object' ? parsed : {}) as Record<string, unknown>;
    const cost = readCost(body);
    if (cost.status) http.costBuckets.update(key, cost.status, call.operation, cost.requested);
    const errors = readErrors(body);
    if (errors.some((e) => e.code === THROTTLED)) {
      const retryAfterMs = throttledWaitMs(cost.status, cost.requested);
      if (throttles < http.maxThrottleRetries && http.now() + retryAfterMs < deadline) {
        await http.sleep(retryAfterMs);
        continue;
      }
      throw new ChannelError(
        call.platform,
        'throttled',
        `${call.platformName} throttled ${call.operation}; its query budget refills in ${Math.ceil(retryAfterMs / 1000)} s`,
        {
          retryAfterMs,
          platformStatus: THROTTLED,
        },
      );
    }
    const data = body.data && typeof body.data === 'object' ? (body.data as Record<string, unknown>) : null;
    return { res, data, errors };
  }
}
