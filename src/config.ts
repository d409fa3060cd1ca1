import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PASSWORD_HASH_COST } from './platform/crypto.js';

/**
 * The only reader of the environment. Parsed once at start; a bad value stops the process
 * (fail fast), and production refuses to run without the secrets it needs.
 */
export interface Config {
  port: number;
  host: string;
  nodeEnv: 'development' | 'test' | 'production';
  isProduction: boolean;
  databaseUrl?: string;
  dataDir: string;
  redisUrl?: string;
  /** SMTP_URL (smtp:// or smtps://): invitations and password resets are mailed through it. */
  smtpUrl?: string;
  /** MAIL_FROM: the sender of those mails. */
  mailFrom: string;
  publicBaseUrl: string;
  superAdminEmail?: string;
  superAdminPassword?: string;
  allowOfficeRedeemTestPin: boolean;
  webhookAllowPrivateTargets: boolean;
  /**
   * How long a dispatcher's claim on a webhook delivery lasts (WEBHOOK_LEASE_SECONDS, 20–3600,
   * default 60): a delivery whose worker died is sent again by another one after this.
   */
  webhookLeaseSeconds: number;
  /** Carrier accounts may name their own `base_url` (a test double, an egress proxy); never in production. */
  carrierAllowBaseUrlOverride: boolean;
  /** Store integrations may name their own `base_url` (a fake platform, an egress proxy); never in production. */
  channelAllowBaseUrlOverride: boolean;
  logLevel: string;
  /** 32-byte key (base64/hex in ENCRYPTION_KEY) for secrets at rest; generated in DATA_DIR outside production. */
  encryptionKey?: string;
  /** Seed a demo workspace on a first start (non-production). */
  seedDemo: boolean;
  /** Take the client address from X-Forwarded-For (only behind a trusted proxy). */
  trustProxy: boolean;
  /** Run job workers inside the API process (npm start); `dist/src/worker.js` runs them alone. */
  runWorkers: boolean;
  /** How long SIGTERM waits for open connections before cutting them (ms). */
  shutdownGraceMs: number;
  /**
   * The longest a request may take to arrive whole, headers and body (REQUEST_TIMEOUT_MS,
   * 1000–300000, default 20000): a slower one is cut with 408, so a client dribbling its body
   * cannot hold a connection.
   */
  requestTimeoutMs: number;
  /** The longest a request waits for the shared rate-limit store before it fails open (ms). */
  rateLimitTimeoutMs: number;
  /** TLS_CERT + TLS_KEY (PEM, or paths to PEM files): the server speaks HTTPS. */
  tls?: { cert: string; key: string; clientCa?: string };
  /**
   * Behind a proxy that terminates mutual TLS: the request header carrying the SHA-256
   * fingerprint of the client certificate it verified. Honoured only when set.
   */
  mtlsFingerprintHeader?: string;
  /** Batch chunk jobs at once per process (BATCH_WORKERS, 1–32); unset: 2 on PostgreSQL, 1 on the embedded engine. */
  batchWorkers?: number;
  /** Items at once within one chunk job (BATCH_ITEM_CONCURRENCY, 1–64); unset: 4 on PostgreSQL, 2 on the embedded engine. */
  batchItemConcurrency?: number;
  /**
   * How far the V8 heap may grow past what the last full GC kept before the next one
   * (HEAP_GROWING_PERCENT, 0–400; 0 = V8's own heuristics). Default 20: see platform/memory.ts.
   */
  heapGrowingPercent: number;
  /** Bearer token /metrics requires (METRICS_TOKEN); in production /metrics is 404 without one. */
  metricsToken?: string;
  /**
   * scrypt's cost N for new password hashes: always 2^15 when read from the environment; only
   * testConfig lowers it (a suite makes thousands of accounts, and a hash records its own N).
   */
  passwordHashCost: number;
  version: string;
}

export class ConfigError extends Error {}

function readVersion(): string {
  // package.json sits two levels above both src/config.ts and dist/src/config.js.
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'shipping-service' && pkg.version) return pkg.version;
    } catch {
      /* try the next candidate */
    }
  }
  return '0.0.0';
}

/**
 * The heap's growth between full GCs, in percent of what the last one kept (platform/memory.ts).
 * V8 alone lets it grow 1.1–4× under a high allocation rate; 20 keeps the service under its
 * memory target under load at no measured throughput cost (README, "Memory").
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 20;

/** How long a webhook delivery stays claimed by the worker sending it (README, configuration). */
export const DEFAULT_WEBHOOK_LEASE_SECONDS = 60;

/** How long a request may take to arrive whole before it is cut (ms; README, configuration). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 20_000;

/** A whole number in [min, max], or undefined when unset (the caller's default applies). */
function wholeNumber(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${value}"`);
  return n;
}

function bool(value: string | undefined, name: string, fallback = false): boolean {
  if (value === undefined || value === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(value.toLowerCase())) return false;
  throw new ConfigError(`${name} must be 1/0 or true/false, got "${value}"`);
}

/** A PEM given inline (starts with -----BEGIN) or as the path of a file holding it. */
function pem(value: string, name: string): string {
  if (value.trimStart().startsWith('-----BEGIN')) return value;
  try {
    const text = readFileSync(path.resolve(value), 'utf8');
    if (!text.includes('-----BEGIN')) throw new ConfigError(`${name}: ${value} is not a PEM file`);
    return text;
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(`${name}: cannot read ${value} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const nodeEnvRaw = env.NODE_ENV ?? 'development';
  if (!['development', 'test', 'production'].includes(nodeEnvRaw)) {
    throw new ConfigError(`NODE_ENV must be development, test or production, got "${nodeEnvRaw}"`);
  }
  const nodeEnv = nodeEnvRaw as Config['nodeEnv'];
  const isProduction = nodeEnv === 'production';
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be a port number, got "${env.PORT}"`);

  if ((env.SUPER_ADMIN_EMAIL && !env.SUPER_ADMIN_PASSWORD) || (!env.SUPER_ADMIN_EMAIL && env.SUPER_ADMIN_PASSWORD)) {
    throw new ConfigError('SUPER_ADMIN_EMAIL and SUPER_ADMIN_PASSWORD must be set together');
  }
  if (env.SUPER_ADMIN_PASSWORD && env.SUPER_ADMIN_PASSWORD.length < 10) {
    throw new ConfigError('SUPER_ADMIN_PASSWORD must be at least 10 characters');
  }
  if (isProduction && !env.ENCRYPTION_KEY) {
    throw new ConfigError('ENCRYPTION_KEY is required in production (32 bytes, base64 or hex)');
  }
  if (env.DATABASE_URL && !/^postgres(ql)?:\/\//.test(env.DATABASE_URL)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// URL');
  }
  if (env.REDIS_URL && !/^rediss?:\/\//.test(env.REDIS_URL)) {
    throw new ConfigError('REDIS_URL must be a redis:// URL');
  }
  if (env.SMTP_URL && !/^smtps?:\/\//.test(env.SMTP_URL)) {
    throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  const shutdownGraceMs = Number(env.SHUTDOWN_GRACE_MS ?? 10_000);
  if (!Number.isInteger(shutdownGraceMs) || shutdownGraceMs < 0 || shutdownGraceMs > 25_000) {
    throw new ConfigError(`SHUTDOWN_GRACE_MS must be a whole number of milliseconds from 0 to 25000, got "${env.SHUTDOWN_GRACE_MS}"`);
  }
  const rateLimitTimeoutMs = Number(env.RATE_LIMIT_TIMEOUT_MS ?? 50);
  if (!Number.isInteger(rateLimitTimeoutMs) || rateLimitTimeoutMs < 1 || rateLimitTimeoutMs > 5_000) {
    throw new ConfigError(`RATE_LIMIT_TIMEOUT_MS must be a whole number of milliseconds from 1 to 5000, got "${env.RATE_LIMIT_TIMEOUT_MS}"`);
  }
  if (Boolean(env.TLS_CERT) !== Boolean(env.TLS_KEY)) throw new ConfigError('TLS_CERT and TLS_KEY must be set together');
  if (env.TLS_CLIENT_CA && !env.TLS_CERT) throw new ConfigError('TLS_CLIENT_CA needs TLS_CERT and TLS_KEY (the server must speak HTTPS)');
  const tls =
    env.TLS_CERT && env.TLS_KEY
      ? {
          cert: pem(env.TLS_CERT, 'TLS_CERT'),
          key: pem(env.TLS_KEY, 'TLS_KEY'),
          clientCa: env.TLS_CLIENT_CA ? pem(env.TLS_CLIENT_CA, 'TLS_CLIENT_CA') : undefined,
        }
      : undefined;
  const mtlsFingerprintHeader = env.MTLS_FINGERPRINT_HEADER?.trim().toLowerCase() || undefined;
  if (mtlsFingerprintHeader && !/^[a-z0-9-]{1,100}$/.test(mtlsFingerprintHeader)) {
    throw new ConfigError(`MTLS_FINGERPRINT_HEADER must be a header name, got "${env.MTLS_FINGERPRINT_HEADER}"`);
  }
  const requestTimeoutMs = wholeNumber(env.REQUEST_TIMEOUT_MS, 'REQUEST_TIMEOUT_MS', 1_000, 300_000) ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken && (metricsToken.length < 16 || /\s/.test(metricsToken))) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters without spaces');
  }
  const host = env.HOST ?? '0.0.0.0';
  return {
    port,
    host,
    nodeEnv,
    isProduction,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    redisUrl: env.REDIS_URL || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Shipping service <no-reply@localhost>',
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    superAdminEmail: env.SUPER_ADMIN_EMAIL?.trim().toLowerCase() || undefined,
    superAdminPassword: env.SUPER_ADMIN_PASSWORD || undefined,
    allowOfficeRedeemTestPin: bool(env.ALLOW_OFFICE_REDEEM_TEST_PIN, 'ALLOW_OFFICE_REDEEM_TEST_PIN'),
    // Only honoured outside production (docs/api-conventions.md, Webhooks).
    webhookAllowPrivateTargets: !isProduction && bool(env.WEBHOOK_ALLOW_PRIVATE_TARGETS, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'),
    // At least the 10 s attempt timeout plus time to record the outcome.
    webhookLeaseSeconds: wholeNumber(env.WEBHOOK_LEASE_SECONDS, 'WEBHOOK_LEASE_SECONDS', 20, 3600) ?? DEFAULT_WEBHOOK_LEASE_SECONDS,
    // Only honoured outside production.
    carrierAllowBaseUrlOverride: !isProduction && bool(env.CARRIER_ALLOW_BASE_URL_OVERRIDE, 'CARRIER_ALLOW_BASE_URL_OVERRIDE'),
    channelAllowBaseUrlOverride: !isProduction && bool(env.CHANNEL_ALLOW_BASE_URL_OVERRIDE, 'CHANNEL_ALLOW_BASE_URL_OVERRIDE'),
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    encryptionKey: env.ENCRYPTION_KEY || undefined,
    seedDemo: !isProduction && bool(env.SEED_DEMO, 'SEED_DEMO', true),
    trustProxy: bool(env.TRUST_PROXY, 'TRUST_PROXY'),
    runWorkers: bool(env.RUN_WORKERS, 'RUN_WORKERS', true),
    shutdownGraceMs,
    requestTimeoutMs,
    rateLimitTimeoutMs,
    tls,
    mtlsFingerprintHeader,
    batchWorkers: wholeNumber(env.BATCH_WORKERS, 'BATCH_WORKERS', 1, 32),
    batchItemConcurrency: wholeNumber(env.BATCH_ITEM_CONCURRENCY, 'BATCH_ITEM_CONCURRENCY', 1, 64),
    heapGrowingPercent: wholeNumber(env.HEAP_GROWING_PERCENT, 'HEAP_GROWING_PERCENT', 0, 400) ?? DEFAULT_HEAP_GROWING_PERCENT,
    metricsToken,
    passwordHashCost: PASSWORD_HASH_COST,
    version: readVersion(),
  };
}

/**
 * A config for tests and tools: defaults plus overrides, never reading the environment. Passwords
 * are hashed at scrypt N=2^10 (~3 ms instead of ~90: most of a suite's CPU went to hashing the
 * passwords of the accounts its tests make), the same code at a lower cost.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ NODE_ENV: 'test', SEED_DEMO: '0' }), passwordHashCost: 2 ** 10, ...overrides };
}
