// The ceilings the service is compared with (DESIGN.md §7), each run by bench/run.ts as a
// process of its own:
//   node bench/anchors.mjs bare   <port> <payload file>          same JSON text for every request
//   node bench/anchors.mjs pg     <port> <database url> <id> <workspace> <environment>
//   node bench/anchors.mjs pglite <port> <data dir>     <id> <workspace> <environment>
// The two database anchors run the order read's point select per request and answer
// JSON.stringify of the row. Prints "ready" once listening.
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
  const pglite = new PGlite({ dataDir: `file://${source}/pgdata`, postgresqlconf: ['shared_buffers = 32MB'] });
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
} else {
  throw new Error(`unknown anchor ${kind}`);
}

createServer(handler).listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => process.exit(0));
