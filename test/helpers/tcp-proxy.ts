import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of a real service (Redis, PostgreSQL) that a test can break:
 * `blackhole()` keeps connections open but holds every byte back (a hung peer; `resume()` lets
 * them through in order), `cut()` drops every connection and resets each new one until
 * `restore()` (a restart or network blip: the port stays, nothing gets through), `close()` drops
 * every connection and stops listening (the peer is gone).
 */
export interface TcpProxy {
  port: number;
  blackhole(): void;
  resume(): void;
  cut(): void;
  restore(): void;
  /** Connections refused or dropped by `cut()` so far. */
  dropped(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const held: Array<[Socket, Buffer]> = [];
  let forwarding = true;
  let cut = false;
  let dropped = 0;
  const relay = (to: Socket, chunk: Buffer) => {
    if (forwarding) to.write(chunk);
    else held.push([to, chunk]);
  };
  const server: Server = createServer((client) => {
    if (cut) {
      dropped++;
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('data', (chunk: Buffer) => relay(upstream, chunk));
    upstream.on('data', (chunk: Buffer) => relay(client, chunk));
    for (const s of [client, upstream]) {
      s.on('error', drop);
      s.on('close', drop);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    blackhole: () => {
      forwarding = false;
    },
    resume: () => {
      forwarding = true;
      for (const [to, chunk] of held.splice(0)) if (!to.destroyed) to.write(chunk);
    },
    cut: () => {
      cut = true;
      held.length = 0;
      dropped += sockets.size / 2;
      for (const s of sockets) s.resetAndDestroy();
      sockets.clear();
    },
    restore: () => {
      cut = false;
    },
    dropped: () => dropped,
    close: async () => {
      held.length = 0;
      for (const s of sockets) s.destroy();
      sockets.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
