import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * The core the fake carriers (fake-ups.ts, fake-fedex.ts, fake-dhl.ts, fake-usps.ts) share: a
 * real HTTP server on 127.0.0.1 that checks every request against the carrier's published
 * description, records it (and every problem, in `violations`), lets the carrier answer (its own
 * checks in its own order, then a queued scenario or its default answer), checks the answer
 * against the description too, and plays it after the operation's latency, if it has one.
 */

export interface FakeReply {
  status?: number;
  body?: unknown;
  /** Sent as is (a malformed body). */
  raw?: string;
  headers?: Record<string, string>;
  /** Never answer (the driver's deadline must end it). */
  hang?: boolean;
}

export interface FakeRequest<Op extends string> {
  operation: Op | null;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  problems: string[];
}

/** A request as the carrier's answer sees it. */
export interface IncomingRequest<Op extends string, SpecOp, R extends FakeReply> {
  /** Our name of the operation (null: a route the fake does not serve). */
  name: Op | null;
  /** The description's operation (null without the description). */
  op: SpecOp | null;
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** What the description found wrong with the request. */
  problems: string[];
  /** The next scenario queued for the operation, taken off its queue. */
  queued(): R | undefined;
}

export interface FakeCarrierConfig<Op extends string, SpecOp, R extends FakeReply> {
  /** The carrier's host, to read request URLs against. */
  host: string;
  /** The carrier's published description (null when absent: requests go unchecked). */
  specs: { checkRequest(method: string, url: URL, headers: http.IncomingHttpHeaders, body: string): { op: SpecOp | null; problems: string[] } } | null;
  /** Our name of an operation, from the description's or (without it) from the path alone. */
  operationOf(op: SpecOp | null, method: string, url: URL): Op | null;
  /** The carrier's answer; `{hang: true}` never answers. */
  reply(request: IncomingRequest<Op, SpecOp, R>): R;
  /** What the description finds wrong with an answer the fake gives, leaving out what it leaves open. */
  checkAnswer(op: SpecOp, status: number, reply: R): string[];
  /** The answer's content type (JSON unless the carrier says otherwise, e.g. problem+json for errors). */
  contentType?(status: number): string;
  /** Milliseconds each answer to an operation waits before it is sent (a carrier's latency). */
  delayMs?: Partial<Record<Op, number>>;
}

export async function startFakeCarrierServer<Op extends string, SpecOp extends { operationId: string }, R extends FakeReply = FakeReply>(
  config: FakeCarrierConfig<Op, SpecOp, R>,
) {
  const queues = new Map<Op, R[]>();
  const requests: FakeRequest<Op>[] = [];
  /** Problems in requests we received or answers we gave, for tests to assert empty. */
  const violations: string[] = [];
  const sockets = new Set<Socket>();
  const contentType = config.contentType ?? (() => 'application/json');

  function send(res: http.ServerResponse, name: Op | null, op: SpecOp | null, reply: R) {
    const status = reply.status ?? 200;
    if (name && op) {
      const problems = config.checkAnswer(op, status, reply);
      if (problems.length) violations.push(`answer ${op.operationId} ${status}: ${problems.join('; ')}`);
    }
    res.writeHead(status, { 'content-type': contentType(status), ...reply.headers });
    if (reply.raw !== undefined) res.end(reply.raw);
    else res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', `http://${config.host}`);
      const method = req.method ?? 'GET';
      const { op, problems } = config.specs ? config.specs.checkRequest(method, url, req.headers, body) : { op: null, problems: [] };
      const name = config.operationOf(op, method, url);
      requests.push({ operation: name, method, path: `${url.pathname}${url.search}`, headers: req.headers, body, problems });
      if (problems.length) violations.push(`request ${method} ${url.pathname}: ${problems.join('; ')}`);
      const queued = () => (name ? queues.get(name)?.shift() : undefined);
      const reply = config.reply({ name, op, method, url, headers: req.headers, body, problems, queued });
      if (reply.hang) return; // never answers
      const delay = name ? (config.delayMs?.[name] ?? 0) : 0;
      if (delay > 0) setTimeout(() => send(res, name, op, reply), delay);
      else send(res, name, op, reply);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    specChecked: config.specs !== null,
    requests,
    violations,
    queue(op: Op, ...replies: R[]) {
      queues.set(op, [...(queues.get(op) ?? []), ...replies]);
    },
    count(op: Op) {
      return requests.filter((r) => r.operation === op).length;
    },
    /** The parsed JSON body of the last request of an operation. */
    lastBody(op: Op): any {
      const r = [...requests].reverse().find((q) => q.operation === op);
      return r ? JSON.parse(r.body) : undefined;
    },
    reset() {
      requests.length = 0;
      violations.length = 0;
      queues.clear();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
