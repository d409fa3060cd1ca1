import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/helpers/app.js';
import { RequestsInFlight, requestsInFlight } from './in-flight.js';

// Requests in flight as the embedded database's background rounds see them (docs/architecture.md, "Jobs").

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

async function until(inFlight: RequestsInFlight, n: number): Promise<void> {
  for (let i = 0; i < 200 && inFlight.count !== n; i++) await new Promise((r) => setTimeout(r, 5));
  expect(inFlight.count).toBe(n);
}

describe('requests in flight', () => {
  it('counts a request until its response closes, answered or cut; a gap waits for none, at most its bound', async () => {
    const inFlight = new RequestsInFlight();
    const held: (() => void)[] = [];
    const server = createServer((req, res) => {
      inFlight.opened(res);
      held.push(() => res.end('ok'));
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;

    const answered = new Promise<number>((resolve) => request({ port }, (res) => resolve(res.statusCode!)).end());
    await until(inFlight, 1);
    let started = Date.now();
    await inFlight.gap(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    held.shift()!();
    expect(await answered).toBe(200);
    await until(inFlight, 0);
    started = Date.now();
    await inFlight.gap(1_000);
    expect(Date.now() - started).toBeLessThan(500);

    const cut = request({ port });
    cut.on('error', () => {});
    cut.end();
    await until(inFlight, 1);
    cut.destroy();
    await until(inFlight, 0);
  });

  it('the app counts its requests on the embedded database only (PostgreSQL rounds never wait on them)', async () => {
    const app = await buildTestApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const inFlight = requestsInFlight(app.deps);
    const counted = app.deps.database.engine === 'pglite' ? 1 : 0;
    const { port } = app.server.address() as AddressInfo;
    // A body still arriving: the request is in flight from its headers on.
    const slow = request({ port, method: 'POST', path: '/api/auth/login', headers: { 'content-type': 'application/json', 'content-length': '100' } });
    slow.on('error', () => {});
    slow.write('{"email":');
    await until(inFlight, counted);
    slow.destroy();
    await until(inFlight, 0);
    expect((await app.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    await until(inFlight, 0);
  });
});
