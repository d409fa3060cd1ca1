import { createServer, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { WebhookTransport } from './webhooks.transport.js';

// A receiver that answers the first request on each connection and keeps it open, then closes a
// connection when a second request arrives on it, without answering: what a receiver's
// keep-alive timeout does to a pooled connection reused at that moment.
const connections: { requests: number }[] = [];
const sockets = new Set<Socket>();
const server = createServer((socket) => {
  sockets.add(socket);
  const conn = { requests: 0 };
  connections.push(conn);
  let buffered = '';
  socket.on('data', (chunk) => {
    buffered += chunk.toString('latin1');
    // One request: the headers, then content-length bytes of body.
    for (;;) {
      const head = buffered.indexOf('\r\n\r\n');
      if (head < 0) return;
      const length = Number(/content-length:\s*(\d+)/i.exec(buffered.slice(0, head))?.[1] ?? 0);
      if (buffered.length < head + 4 + length) return;
      buffered = buffered.slice(head + 4 + length);
      conn.requests++;
      if (conn.requests > 1) return void socket.destroy();
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
    }
  });
  socket.on('error', () => {});
});
const url = await new Promise<string>((resolve) =>
  server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}/hook`)),
);
afterAll(() => {
  for (const s of sockets) s.destroy();
  server.close();
});

describe('webhook transport', () => {
  it('sends again on a new connection when a reused one is closed under the request, once', async () => {
    const transport = new WebhookTransport({ allowPrivateTargets: true });
    try {
      const first = await transport.post(url, '{"n":1}', { 'content-type': 'application/json' });
      expect(first).toMatchObject({ statusCode: 200, error: null });
      // The same pooled connection is reused: the receiver closes it; the second connection answers.
      const second = await transport.post(url, '{"n":2}', { 'content-type': 'application/json' });
      expect(second).toMatchObject({ statusCode: 200, error: null, responseBody: 'ok' });
      expect(connections.map((c) => c.requests)).toEqual([2, 1]);
    } finally {
      transport.close();
    }
  });

  it('a connection refused on a new connection is a failed attempt, not sent again', async () => {
    const closed = createServer();
    const port = await new Promise<number>((resolve) => closed.listen(0, '127.0.0.1', () => resolve((closed.address() as { port: number }).port)));
    await new Promise((r) => closed.close(r));
    const transport = new WebhookTransport({ allowPrivateTargets: true });
    try {
      const outcome = await transport.post(`http://127.0.0.1:${port}/hook`, '{}', {});
      expect(outcome.statusCode).toBeNull();
      expect(outcome.error).toMatch(/^ECONNREFUSED/);
    } finally {
      transport.close();
    }
  });
});
