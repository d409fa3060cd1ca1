import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The body's bytes as sent (what a signature covers). */
  raw: Buffer;
  /** ms since the epoch when the request ended. */
  at: number;
}

/** What the receiver answers for a path: a status (and optional headers/body). */
export type Responder = (req: ReceivedRequest, countForPath: number) => { status: number; headers?: Record<string, string>; body?: string };

/**
 * A real webhook receiver on 127.0.0.1 (a fake of the integrator's server, not of our code):
 * records every request with its raw body; answers per path with a responder (default 200).
 */
export async function startReceiver() {
  const received: ReceivedRequest[] = [];
  const responders = new Map<string, Responder>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0];
      const raw = Buffer.concat(chunks);
      const entry: ReceivedRequest = { path, headers: req.headers, body: raw.toString('utf8'), raw, at: Date.now() };
      received.push(entry);
      const count = received.filter((r) => r.path === path).length;
      const answer = responders.get(path)?.(entry, count) ?? { status: 200, body: 'ok' };
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    at: (path: string) => received.filter((r) => r.path === path),
    on(path: string, responder: Responder) {
      responders.set(path, responder);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Poll `check` until it returns a value (not undefined/false) or the time runs out. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
