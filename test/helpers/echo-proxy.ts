import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A proxy in front of a fake carrier (or store platform) that, once `echo` is on, quotes the
 * request it forwarded back inside the error answers it relays: every string under a
 * `message`, `detail` or `title` key of a JSON answer with status >= 400 gets the request's
 * Authorization header and body appended, as a careless carrier or a hostile proxy at an
 * account's `base_url` would. Quotes are kept under 512 characters so that the exchange log's
 * truncation of long strings does not hide them.
 */
export interface EchoProxy {
  url: string;
  echo: boolean;
  /** The Authorization values and bodies that passed through (what a leak would be made of). */
  seen: { authorization: string[]; bodies: string[] };
  close(): Promise<void>;
}

const QUOTED_KEYS = new Set(['message', 'detail', 'title']);

export async function startEchoProxy(target: string): Promise<EchoProxy> {
  const seen = { authorization: [] as string[], bodies: [] as string[] };
  const proxy: EchoProxy = { url: '', echo: false, seen, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const authorization = String(req.headers.authorization ?? '');
      if (authorization) seen.authorization.push(authorization);
      seen.bodies.push(body);
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length' && k !== 'connection')) as Record<
        string,
        string
      >;
      try {
        const answer = await fetch(`${target}${req.url ?? '/'}`, { method: req.method, headers, body: body === '' ? undefined : body });
        let text = await answer.text();
        if (proxy.echo && answer.status >= 400) {
          const quote = ` (you sent authorization: ${authorization}; body: ${body.length > 200 ? `${body.slice(0, 200)}…` : body})`;
          try {
            text = JSON.stringify(quoteInto(JSON.parse(text), quote));
          } catch {
            text = `${text}${quote}`;
          }
        }
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(text);
      } catch (err) {
        res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(err));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => new Promise<void>((r) => server.close(() => r()));
  return proxy;
}

function quoteInto(value: unknown, quote: string): unknown {
  if (Array.isArray(value)) return value.map((v) => quoteInto(v, quote));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, QUOTED_KEYS.has(k) && typeof v === 'string' ? `${v}${quote}` : quoteInto(v, quote)]));
  }
  return value;
}
