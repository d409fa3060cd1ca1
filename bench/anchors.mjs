// The ceilings the service is compared with, each run by bench/run.ts as a
// process of its own:
//   node bench/anchors.mjs bare   <port> <payload file>          same JSON text for every request
//   node bench/anchors.mjs floor-fastify <port> <payload file>   the rate query's floors (below)
//   node bench/anchors.mjs floor-node    <port> <payload file>
//   node bench/anchors.mjs pg     <port> <database url> <id> <workspace> <environment>
//   node bench/anchors.mjs pglite <port> <data dir>     <id> <workspace> <environment>
//     (with the service's PGlite settings as JSON in BENCH_PGLITE_CONF, bench/lib/measure.ts)
//   node bench/anchors.mjs receiver <port> <count> <delivery id prefix>
//   node bench/anchors.mjs fanout <port> <carrier urls, JSON array>
// The two database anchors run the order read's point select per request and answer
// JSON.stringify of the row. The receiver is the webhook target (not an anchor): it answers 200
// to every POST and, once it has seen <count> distinct X-Service-Delivery-Id values starting
// with the prefix, prints `done {"first":…,"last":…,"count":…}` (epoch ms of the first and the
// last of them), so the delivery rate is measured where the deliveries arrive.
// The fan-out anchor is the floor of the carriers row: what a bare server pays on this machine for
// one rate query sent on to every fake UPS at once (undici keep-alive, the same Bearer-token call
// the driver makes, a body built from the query) and answered when the last of them has: the
// answers parsed and one JSON text sent back. No framework, no database, no auth, no mapping.
// The two floors answer POST /v1/rates/query with the same JSON text as the bare anchor and do
// nothing else a service must: floor-fastify is Fastify (the service's HTTP framework) with the
// service's access line a request, through the service's log destination; floor-node reads and
// parses the body in node:http and writes the same line. No auth, no validation, no quoting: what
// any service on that stack pays before its own work, so the ceiling of the rate query's ratio.
// Prints "ready" once listening.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [kind, portText, source, ...params] = process.argv.slice(2);
const port = Number(portText);
const POINT_SELECT = 'select * from orders where id = $1 and workspace_id = $2 and environment = $3';

let handler;
if (kind === 'bare') {
  const payload = readFileSync(source, 'utf8');
  handler = (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(payload);
  };
} else if (kind === 'pg') {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: source, max: 10 });
  handler = (req, res) => {
    pool.query(POINT_SELECT, params).then(
      ({ rows }) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(rows[0]));
      },
      (err) => {
        res.writeHead(500);
        res.end(String(err));
      },
    );
  };
} else if (kind === 'pglite') {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = new PGlite({ dataDir: `file://${source}/pgdata`, postgresqlconf: JSON.parse(process.env.BENCH_PGLITE_CONF) });
  await pglite.waitReady;
  handler = (req, res) => {
    pglite.query(POINT_SELECT, params).then(
      ({ rows }) => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(rows[0]));
      },
      (err) => {
        res.writeHead(500);
        res.end(String(err));
      },
    );
  };
} else if (kind === 'floor-fastify' || kind === 'floor-node') {
  const payload = readFileSync(source, 'utf8');
  const { default: pino } = await import('pino');
  // The service's destination, and its access line written as it writes it: one template to the
  // stream (src/platform/logger.ts, src/platform/http/access-log.ts accessLine).
  const stream = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 });
  // The time text is made once per millisecond, as the service's timeField does.
  let lastMs = 0;
  let time = '';
  const line = (reqId, method, status, ms) => {
    const now = Date.now();
    if (now !== lastMs) [lastMs, time] = [now, new Date(now).toISOString()];
    stream.write(
      `{"level":30,"time":"${time}","service":"shipping-service","reqId":${JSON.stringify(reqId)},"method":${JSON.stringify(method)},"route":"/v1/rates/query","status":${status},"ms":${Math.round(ms * 100) / 100},"workspace_id":null,"msg":"request"}\n`,
    );
  };
  if (kind === 'floor-fastify') {
    const { default: Fastify } = await import('fastify');
    const app = Fastify({ logger: false });
    app.post('/v1/rates/query', (request, reply) => {
      reply.type('application/json; charset=utf-8').send(payload);
    });
    app.addHook('onResponse', (request, reply, done) => {
      line(request.id, request.method, reply.statusCode, reply.elapsedTime);
      done();
    });
    await app.ready();
    // Fastify's request handler on the server below, as its serverFactory option would have it.
    handler = app.routing;
  } else {
    let n = 0;
    handler = (req, res) => {
      const started = performance.now();
      const chunks = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(payload);
        line(`req-${++n}`, req.method, 200, performance.now() - started);
      });
    };
  }
} else if (kind === 'receiver') {
  const expected = Number(source);
  const [prefix] = params;
  const seen = new Set();
  let first;
  handler = (req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['x-service-delivery-id'] ?? '');
      if (id.startsWith(prefix) && !seen.has(id)) {
        const now = performance.timeOrigin + performance.now();
        first ??= now;
        seen.add(id);
        if (seen.size === expected) process.stdout.write(`done ${JSON.stringify({ first, last: now, count: seen.size })}\n`);
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  };
} else if (kind === 'fanout') {
  const { Agent } = await import('undici');
  const agent = new Agent({ connections: 16, keepAliveTimeout: 30_000 });
  const carriers = [];
  for (const url of JSON.parse(source)) {
    // The fake's own client credentials (test/helpers/fake-ups.ts), as the bench's accounts use.
    const basic = Buffer.from('fake-client-id:fake-client-secret').toString('base64');
    const res = await agent.request({
      origin: url,
      path: '/security/v1/oauth/token',
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    const { access_token: token } = await res.body.json();
    carriers.push({ url, authorization: `Bearer ${token}` });
  }
  const ask = async ({ url, authorization }, query) => {
    const body = JSON.stringify({
      RateRequest: { Request: { RequestOption: 'Shoptimeintransit' }, Shipment: { Shipper: query.ship_from, ShipTo: query.ship_to, Package: [query.parcel] } },
    });
    const res = await agent.request({
      origin: url,
      path: '/api/rating/v2409/Shoptimeintransit',
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', accept: 'application/json' },
      body,
    });
    return JSON.parse(await res.body.text());
  };
  handler = (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const query = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      Promise.all(carriers.map((c) => ask(c, query))).then(
        (answers) => {
          res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify({ data: answers.map((a) => a.RateResponse?.RatedShipment ?? a) }));
        },
        (err) => {
          res.writeHead(502);
          res.end(String(err));
        },
      );
    });
  };
} else {
  throw new Error(`unknown anchor ${kind}`);
}

const server = createServer(handler);
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => process.exit(0));
