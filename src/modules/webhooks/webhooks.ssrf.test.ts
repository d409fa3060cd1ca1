import { randomBytes } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, type Tenant } from '../../../test/helpers/app.js';
import { eventually, startReceiver, type Receiver } from '../../../test/helpers/webhook-receiver.js';
import { registerWebhookJobs } from './index.js';
import { isForbiddenAddress } from '../../platform/ssrf.js';

/** A resolver for made-up names (no DNS needed): each resolves to the address in its table. */
const names: Record<string, string> = {
  'loopback.example.test': '127.0.0.1',
  'v6-loopback.example.test': '::1',
  'mapped.example.test': '::ffff:127.0.0.1',
  '6to4.example.test': '2002:a9fe:a9fe::1', // 169.254.169.254 in 6to4
  'teredo.example.test': '2001:0:4136:e378:8000:63bf:80ff:fffe', // client 127.0.0.1 (inverted)
  'private.example.test': '10.0.0.1',
  'metadata.example.test': '169.254.169.254',
  'public.example.test': '93.184.215.14',
};
const lookup = ((hostname: string, options: { all?: boolean }, callback: (err: Error | null, a: LookupAddress[] | string, f?: number) => void) => {
  const address = names[hostname];
  if (!address) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
  const family = address.includes(':') ? 6 : 4;
  return options.all ? callback(null, [{ address, family }]) : callback(null, address, family);
}) as unknown as LookupFunction;

let app: FastifyInstance;
let t: Tenant;
let receiver: Receiver;

beforeAll(async () => {
  // WEBHOOK_ALLOW_PRIVATE_TARGETS off (the default): the guard is on.
  app = await buildTestApp({ config: { encryptionKey: randomBytes(32).toString('base64') }, webhookLookup: lookup });
  expect(app.deps.config.webhookAllowPrivateTargets).toBe(false);
  await registerWebhookJobs(app.deps);
  await app.deps.jobs.start();
  t = await createTenant(app);
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

describe('SSRF protection (private targets not allowed)', () => {
  it('classifies addresses', () => {
    for (const a of [
      '127.0.0.1',
      '127.8.9.1',
      '10.0.0.1',
      '172.16.3.4',
      '192.168.1.1',
      '169.254.169.254',
      '0.0.0.0',
      '100.64.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      'fe80::1',
      'fc00::1',
      'fd12::1',
      'ff02::1',
      '64:ff9b::a00:1',
    ]) {
      expect(isForbiddenAddress(a), a).toBe(true);
    }
  });

  it('classifies every IPv6 form that embeds an IPv4 address as forbidden, whatever the IPv4 address', () => {
    for (const a of [
      '2002:7f00:1::', // 6to4 of 127.0.0.1
      '2002:a00:1::1', // 6to4 of 10.0.0.1
      '2002:a9fe:a9fe::', // 6to4 of 169.254.169.254
      '2002:5db8:d70e::1', // 6to4 of a public address: refused too (the range, not the address)
      '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1 (inverted)
      '2001:0:a00:1:8000:63bf:5db8:d70e', // Teredo, server 10.0.0.1
      '2001:0:5db8:d70e:0:0:a247:2af1', // Teredo with public addresses: refused too
      '64:ff9b::7f00:1', // NAT64 of 127.0.0.1
      '64:ff9b::5db8:d70e', // NAT64 of a public address
      '64:ff9b:1::a00:1', // local-use NAT64
      '::ffff:a9fe:a9fe', // IPv4-mapped
      '::ffff:0:7f00:1', // IPv4-translated
      '::7f00:1', // IPv4-compatible (deprecated form)
      '::a00:1',
    ]) {
      expect(isForbiddenAddress(a), a).toBe(true);
    }
    // Native addresses next to those ranges stay allowed.
    for (const a of ['2001:4860:4860::8888', '2003::1', '2606:4700:4700::1111', '64:ff9b:2::1']) expect(isForbiddenAddress(a), a).toBe(false);
  });

  it('refuses private, loopback and link-local literals and localhost at registration (400 on url)', async () => {
    const port = receiver.port;
    for (const url of [
      `http://127.0.0.1:${port}/x`,
      `http://localhost:${port}/x`,
      `http://api.localhost:${port}/x`,
      `http://[::1]:${port}/x`,
      `http://[::ffff:127.0.0.1]:${port}/x`,
      'http://10.0.0.1/x',
      'http://169.254.169.254/latest/meta-data',
      'http://0.0.0.0/x',
      'http://2130706433/x', // 127.0.0.1 written as a number
      'http://[fe80::1]/x',
      'http://[2002:7f00:1::]/x', // 6to4 of 127.0.0.1
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x', // Teredo, client 127.0.0.1
      'http://[64:ff9b:1::a9fe:a9fe]/x', // local-use NAT64 of 169.254.169.254
    ]) {
      const res = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: t.headers, payload: { url, events: ['*'] } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().details[0].field).toBe('url');
    }
  });

  it('refuses at connect time a name that resolves to a forbidden address, and records why', async () => {
    for (const host of [
      'loopback.example.test',
      'v6-loopback.example.test',
      'mapped.example.test',
      'private.example.test',
      'metadata.example.test',
      '6to4.example.test',
      'teredo.example.test',
    ]) {
      const created = await app.inject({
        method: 'POST',
        url: '/v1/webhooks',
        headers: t.headers,
        payload: { url: `http://${host}:${receiver.port}/ssrf`, events: ['*'] },
      });
      expect(created.statusCode, created.body).toBe(201);
      const queued = await app.inject({ method: 'POST', url: `/v1/webhooks/${created.json().id}/test`, headers: t.headers });
      const id = queued.json().id as string;
      const failed = await eventually(async () => {
        const d = (await app.inject({ method: 'GET', url: `/v1/webhook-deliveries/${id}`, headers: t.headers })).json();
        return d.attempts.length > 0 && d.status !== 'pending' ? d : undefined;
      }, `attempt to ${host}`);
      expect(failed.status, host).toBe('failed');
      expect(failed.attempts[0].status_code).toBeNull();
      expect(failed.attempts[0].error, host).toMatch(/^forbidden_target/);
    }
    expect(receiver.at('/ssrf')).toHaveLength(0);
  });
});
