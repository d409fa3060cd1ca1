// A fetch that gives every POST an Idempotency-Key and retries 429/503, and network errors for
// a GET or a keyed POST. The key is fixed before the first attempt, so a retry replays the same
// request and the server's idempotency layer answers it once, whatever happened to the first
// attempt.

export interface RetryOptions {
  /** Extra attempts after the first for 429/503 and network errors (default 3). */
  maxRetries?: number;
  /** Longest single wait; a Retry-After beyond it is capped (default 30 s). */
  maxDelayMs?: number;
  /** Waits when the answer has no Retry-After: 0.5 s, 1 s, 2 s… (default 500 ms). */
  baseDelayMs?: number;
}

const RETRYABLE = new Set([429, 503]);

/** Retry-After as seconds or an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function retryingFetch(
  baseFetch: typeof fetch,
  options: RetryOptions & { idempotencyKeys?: boolean; sleep?: (ms: number) => Promise<void> } = {},
): (input: Request) => Promise<Response> {
  const maxRetries = options.maxRetries ?? 3;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  return async (request: Request) => {
    if (request.method === 'POST' && options.idempotencyKeys !== false && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', crypto.randomUUID());
    }
    // Without a key a POST that failed in transit may have been processed: only a GET, or a POST
    // the server can deduplicate, is safe to send again.
    const replayable = request.method === 'GET' || request.method === 'HEAD' || (request.method === 'POST' && request.headers.has('idempotency-key'));
    for (let attempt = 0; ; attempt++) {
      // A body can be read once: each attempt sends a copy and keeps the original for the next.
      let response: Response;
      try {
        response = await baseFetch(request.clone());
      } catch (error) {
        if (!replayable || attempt >= maxRetries || (error as Error).name === 'AbortError') throw error;
        await sleep(Math.min(baseDelayMs * 2 ** attempt, maxDelayMs));
        continue;
      }
      if (!RETRYABLE.has(response.status) || attempt >= maxRetries) return response;
      const wait = retryAfterMs(response.headers.get('retry-after')) ?? baseDelayMs * 2 ** attempt;
      await response.body?.cancel();
      await sleep(Math.min(wait, maxDelayMs));
    }
  };
}
