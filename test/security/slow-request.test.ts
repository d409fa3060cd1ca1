import { connect } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';

/**
 * A client that sends its headers and then its body one byte at a time, over a real socket.
 * Resolves when the server closes the connection (or after `giveUpMs`), with what it answered.
 */
async function dribble(app: FastifyInstance, giveUpMs: number): Promise<{ text: string; closedAfterMs: number | null }> {
  const { port } = app.server.address() as { port: number };
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (d) => (text += d));
  socket.on('error', () => {});
  await new Promise((resolve) => socket.once('connect', resolve));
  const started = Date.now();
  const body = JSON.stringify({ email: 'slow@example.com', password: 'x'.repeat(200) });
  socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  let i = 0;
  const timer = setInterval(() => {
    if (!socket.destroyed && i < body.length) socket.write(body[i++]);
  }, 100);
  const closedAfterMs = await Promise.race([closed, new Promise<null>((r) => setTimeout(() => r(null), giveUpMs))]);
  clearInterval(timer);
  socket.destroy();
  return { text, closedAfterMs };
}

describe('a request body dribbled one byte at a time', () => {
  it('is cut with 408 request_timeout once REQUEST_TIMEOUT_MS has passed, within 1.25× of it', { timeout: 30_000 }, async () => {
    const app = await buildTestApp({ config: { requestTimeoutMs: 2_000 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { text, closedAfterMs } = await dribble(app, 8_000);
    expect(closedAfterMs, 'the connection was still open after 8 s').not.toBeNull();
    expect(closedAfterMs!).toBeGreaterThanOrEqual(1_900);
    // 2 s + Node's check every 500 ms, plus slack for a loaded machine.
    expect(closedAfterMs!).toBeLessThan(3_500);
    const [head, json] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408/);
    expect(JSON.parse(json)).toMatchObject({ code: 'request_timeout', details: [], request_id: expect.stringMatching(/^req_/) });
  });

  it('has a 20 s deadline by default, checked at least every 5 s (cut by 25 s)', async () => {
    const app = await buildTestApp();
    expect(app.server.requestTimeout).toBe(20_000);
    expect(app.server.headersTimeout).toBeLessThanOrEqual(20_000);
    expect((app.server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval).toBeLessThanOrEqual(5_000);
  });
});
