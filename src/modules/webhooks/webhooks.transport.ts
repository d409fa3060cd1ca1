import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { bareHost, ForbiddenTargetError, guardedLookup, isForbiddenAddress, isLocalName } from '../../platform/ssrf.js';

/** What one attempt came to: a status (any, including 3xx/4xx/5xx) or an error, never both. */
export interface AttemptResult {
  statusCode: number | null;
  latencyMs: number;
  /** The first 1 KiB of the response body (UTF-8, lossy), when there was a response. */
  responseBody: string | null;
  error: string | null;
}

export interface TransportOptions {
  /** Allow private, loopback and link-local targets (WEBHOOK_ALLOW_PRIVATE_TARGETS outside production). */
  allowPrivateTargets: boolean;
  /** Name resolution (tests inject one); every answer passes the address guard. */
  lookup?: LookupFunction;
  timeoutMs?: number;
  /** Sockets per receiver (host:port) at once; more requests queue on the agent. */
  maxSocketsPerReceiver?: number;
}

/** PostgreSQL text (and jsonb) cannot hold NUL: a receiver's body may contain anything. */
function storable(text: string | null): string | null {
  return text === null ? null : text.replaceAll('\u0000', '\ufffd');
}

export const ATTEMPT_TIMEOUT_MS = 10_000;
export const STORED_BODY_BYTES = 1024;
/** We read at most this much of a response (for the stored excerpt) and cut the rest. */
const READ_CAP_BYTES = 64 * 1024;

/**
 * Posts signed webhook bodies. Keep-alive agents pool connections per receiver (Node's agent
 * keeps one pool per host:port), so a burst to one receiver reuses its sockets. Redirects are
 * never followed (node:http does not), and a 3xx counts as a failure upstream.
 */
export class WebhookTransport {
  readonly #allowPrivate: boolean;
  readonly #timeoutMs: number;
  readonly #http: http.Agent;
  readonly #https: https.Agent;

  constructor(options: TransportOptions) {
    this.#allowPrivate = options.allowPrivateTargets;
    this.#timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;
    const lookup = this.#allowPrivate ? options.lookup : guardedLookup(options.lookup);
    const agentOptions = {
      keepAlive: true,
      maxSockets: options.maxSocketsPerReceiver ?? 32,
      maxFreeSockets: 32,
      scheduling: 'lifo' as const,
      ...(lookup ? { lookup } : {}),
    };
    this.#http = new http.Agent(agentOptions);
    this.#https = new https.Agent(agentOptions);
  }

  /** One POST. Resolves with the outcome; never rejects. */
  async post(url: string, body: string, headers: Record<string, string>): Promise<AttemptResult> {
    const started = performance.now();
    const done = (r: Omit<AttemptResult, 'latencyMs'>): AttemptResult => ({
      statusCode: r.statusCode,
      responseBody: storable(r.responseBody),
      error: storable(r.error),
      latencyMs: Math.round(performance.now() - started),
    });
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return done({ statusCode: null, responseBody: null, error: 'invalid_url: the endpoint URL does not parse' });
    }
    const host = bareHost(target);
    // An IP literal never reaches the agent's lookup (the socket connects to it directly).
    if (!this.#allowPrivate && ((isIP(host) && isForbiddenAddress(host)) || isLocalName(host))) {
      return done({ statusCode: null, responseBody: null, error: `forbidden_target: ${new ForbiddenTargetError(host).message}` });
    }
    const secure = target.protocol === 'https:';
    const payload = Buffer.from(body, 'utf8');
    return new Promise<AttemptResult>((resolve) => {
      let settled = false;
      let current: http.ClientRequest | undefined;
      // One deadline for the attempt, the resend included.
      const timer = setTimeout(() => {
        current?.destroy(new Error(`timeout: no complete response within ${this.#timeoutMs / 1000} s`));
      }, this.#timeoutMs);
      const finish = (r: Omit<AttemptResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(done(r));
      };
      const send = (retried: boolean) => {
        const request = (secure ? https : http).request(
          target,
          {
            method: 'POST',
            agent: secure ? this.#https : this.#http,
            headers: { ...headers, 'content-length': String(payload.length) },
          },
          (response) => {
            const chunks: Buffer[] = [];
            let size = 0;
            response.on('data', (chunk: Buffer) => {
              if (size < READ_CAP_BYTES) chunks.push(chunk);
              size += chunk.length;
              // A receiver streaming without end must not hold the attempt (or our memory).
              if (size >= READ_CAP_BYTES) response.destroy();
            });
            const end = () =>
              finish({
                statusCode: response.statusCode ?? null,
                responseBody: Buffer.concat(chunks).subarray(0, STORED_BODY_BYTES).toString('utf8'),
                error: null,
              });
            response.on('end', end);
            response.on('close', end);
            response.on('error', end);
          },
        );
        current = request;
        request.on('error', (err: NodeJS.ErrnoException) => {
          // A pooled connection the receiver closed just as we reused it (its keep-alive
          // timeout): the request never reached it. Sent once more on a new connection, as
          // Node's documentation advises (`request.reusedSocket`), instead of a failed attempt
          // and a retry minutes later (docs/architecture.md "Jobs", the outbox).
          if (!retried && !settled && request.reusedSocket && err.code === 'ECONNRESET') return send(true);
          const forbidden = err instanceof ForbiddenTargetError || err.name === 'ForbiddenTargetError';
          const code = forbidden ? 'forbidden_target' : err.message.startsWith('timeout:') ? null : (err.code ?? 'connection_error');
          finish({ statusCode: null, responseBody: null, error: code ? `${code}: ${err.message}` : err.message });
        });
        request.end(payload);
      };
      send(false);
    });
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}
