import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_HEAP_GROWING_PERCENT, DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_WEBHOOK_LEASE_SECONDS, loadConfig, testConfig } from './config.js';

describe('loadConfig', () => {
  it('has defaults that run the service on the embedded database', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.dataDir).toMatch(/data$/);
    expect(c.runWorkers).toBe(true);
    expect(c.shutdownGraceMs).toBe(10_000);
    expect(c.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('lets store integrations name their own base_url only when asked, and never in production', () => {
    expect(loadConfig({}).channelAllowBaseUrlOverride).toBe(false);
    expect(loadConfig({ CHANNEL_ALLOW_BASE_URL_OVERRIDE: '1' }).channelAllowBaseUrlOverride).toBe(true);
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ NODE_ENV: 'production', ENCRYPTION_KEY: key, CHANNEL_ALLOW_BASE_URL_OVERRIDE: '1' }).channelAllowBaseUrlOverride).toBe(false);
    expect(() => loadConfig({ CHANNEL_ALLOW_BASE_URL_OVERRIDE: 'yes please' })).toThrow(/CHANNEL_ALLOW_BASE_URL_OVERRIDE/);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ SUPER_ADMIN_EMAIL: 'a@example.com' }, /set together/],
    [{ SUPER_ADMIN_EMAIL: 'a@example.com', SUPER_ADMIN_PASSWORD: 'short' }, /at least 10/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL/],
    [{ NODE_ENV: 'production' }, /ENCRYPTION_KEY/],
    [{ SHUTDOWN_GRACE_MS: '-1' }, /SHUTDOWN_GRACE_MS/],
    [{ SHUTDOWN_GRACE_MS: '1.5' }, /SHUTDOWN_GRACE_MS/],
    [{ SHUTDOWN_GRACE_MS: '60000' }, /SHUTDOWN_GRACE_MS/],
    [{ RATE_LIMIT_TIMEOUT_MS: '0' }, /RATE_LIMIT_TIMEOUT_MS/],
    [{ TLS_CERT: '/nonexistent.pem' }, /TLS_CERT and TLS_KEY/],
    [{ TLS_CERT: '/nonexistent.pem', TLS_KEY: '/nonexistent.key' }, /TLS_CERT: cannot read/],
    [{ TLS_CLIENT_CA: '/ca.pem' }, /TLS_CLIENT_CA needs/],
    [{ MTLS_FINGERPRINT_HEADER: 'bad header' }, /MTLS_FINGERPRINT_HEADER/],
    [{ BATCH_WORKERS: '0' }, /BATCH_WORKERS/],
    [{ BATCH_ITEM_CONCURRENCY: '2.5' }, /BATCH_ITEM_CONCURRENCY/],
    [{ HEAP_GROWING_PERCENT: '-5' }, /HEAP_GROWING_PERCENT/],
    [{ HEAP_GROWING_PERCENT: 'lots' }, /HEAP_GROWING_PERCENT/],
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN/],
    [{ WEBHOOK_LEASE_SECONDS: '10' }, /WEBHOOK_LEASE_SECONDS/],
    [{ WEBHOOK_LEASE_SECONDS: '30.5' }, /WEBHOOK_LEASE_SECONDS/],
    [{ REQUEST_TIMEOUT_MS: '999' }, /REQUEST_TIMEOUT_MS/],
    [{ REQUEST_TIMEOUT_MS: '300001' }, /REQUEST_TIMEOUT_MS/],
    [{ REQUEST_TIMEOUT_MS: 'soon' }, /REQUEST_TIMEOUT_MS/],
    [{ METRICS_TOKEN: 'a token with spaces in it' }, /METRICS_TOKEN/],
  ])('refuses %o with a message naming the setting', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads SHUTDOWN_GRACE_MS', () => {
    expect(loadConfig({ SHUTDOWN_GRACE_MS: '250' }).shutdownGraceMs).toBe(250);
  });

  it('reads the batch knobs, unset meaning the engine default', () => {
    expect(loadConfig({ BATCH_WORKERS: '3', BATCH_ITEM_CONCURRENCY: '5' })).toMatchObject({ batchWorkers: 3, batchItemConcurrency: 5 });
    expect(loadConfig({})).toMatchObject({ batchWorkers: undefined, batchItemConcurrency: undefined });
  });

  it('reads HEAP_GROWING_PERCENT, 0 leaving V8 its own heuristics', () => {
    expect(loadConfig({}).heapGrowingPercent).toBe(DEFAULT_HEAP_GROWING_PERCENT);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '0' }).heapGrowingPercent).toBe(0);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '50' }).heapGrowingPercent).toBe(50);
  });

  it('reads WEBHOOK_LEASE_SECONDS', () => {
    expect(loadConfig({}).webhookLeaseSeconds).toBe(DEFAULT_WEBHOOK_LEASE_SECONDS);
    expect(loadConfig({ WEBHOOK_LEASE_SECONDS: '20' }).webhookLeaseSeconds).toBe(20);
  });

  it('reads METRICS_TOKEN, unset meaning none', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'scrape-0123456789abcdef' }).metricsToken).toBe('scrape-0123456789abcdef');
  });

  it('reads REQUEST_TIMEOUT_MS, 20 s by default', () => {
    expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(20_000);
    expect(loadConfig({}).requestTimeoutMs).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
    expect(loadConfig({ REQUEST_TIMEOUT_MS: '5000' }).requestTimeoutMs).toBe(5_000);
  });
});

describe('password hash cost', () => {
  it('is 2^15 whatever the environment says; only testConfig lowers it', () => {
    expect(loadConfig({}).passwordHashCost).toBe(2 ** 15);
    expect(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH_COST: '1024' }).passwordHashCost).toBe(2 ** 15);
    expect(loadConfig({ NODE_ENV: 'production', ENCRYPTION_KEY: 'a'.repeat(64) }).passwordHashCost).toBe(2 ** 15);
    expect(testConfig().passwordHashCost).toBe(2 ** 10);
  });
});
