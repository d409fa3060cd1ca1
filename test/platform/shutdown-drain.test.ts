import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';

// While the server drains on shutdown, a request that still arrives on an open connection is
// turned away in the common error shape with X-Request-Id, not Fastify's own 503 body.
let app: FastifyInstance;

beforeAll(async () => {
  app = await buildTestApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
});

describe('during shutdown', () => {
  it('answers 503 service_unavailable in the common shape, with Retry-After and Connection: close', async () => {
    const { port } = app.server.address() as { port: number };
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.on('data', (d) => (text += d));
    const ended = new Promise((resolve) => socket.on('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    // Half a request: the connection is busy, so the drain waits for it.
    socket.write('GET /health HTTP/1.1\r\nHost: x\r\n');
    await new Promise((r) => setTimeout(r, 50));
    const closing = app.close();
    for (let i = 0; i < 200 && app.server.listening; i++) await new Promise((r) => setTimeout(r, 10));
    socket.write('\r\n');
    await ended;
    await closing;
    const [head, body] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 503/);
    const headers = Object.fromEntries(head.split('\r\n').slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    expect(JSON.parse(body)).toMatchObject({ code: 'service_unavailable', message: expect.any(String), request_id: headers['x-request-id'] });
    expect(headers['retry-after']).toBe('1');
    expect(headers.connection).toBe('close');
  });
});
