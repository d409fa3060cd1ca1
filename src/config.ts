import { readFileSync } from 'node:fs';
import path from 'node:path';

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
  publicBaseUrl: string;
  superAdminEmail?: string;
  superAdminPassword?: string;
  allowOfficeRedeemTestPin: boolean;
  webhookAllowPrivateTargets: boolean;
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

function bool(value: string | undefined, name: string, fallback = false): boolean {
  if (value === undefined || value === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(value.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(value.toLowerCase())) return false;
  throw new ConfigError(`${name} must be 1/0 or true/false, got "${value}"`);
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
  const shutdownGraceMs = Number(env.SHUTDOWN_GRACE_MS ?? 10_000);
  if (!Number.isInteger(shutdownGraceMs) || shutdownGraceMs < 0 || shutdownGraceMs > 25_000) {
    throw new ConfigError(`SHUTDOWN_GRACE_MS must be a whole number of milliseconds from 0 to 25000, got "${env.SHUTDOWN_GRACE_MS}"`);
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
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    superAdminEmail: env.SUPER_ADMIN_EMAIL?.trim().toLowerCase() || undefined,
    superAdminPassword: env.SUPER_ADMIN_PASSWORD || undefined,
    allowOfficeRedeemTestPin: bool(env.ALLOW_OFFICE_REDEEM_TEST_PIN, 'ALLOW_OFFICE_REDEEM_TEST_PIN'),
    // Only honoured outside production (DESIGN.md §5 Webhooks).
    webhookAllowPrivateTargets: !isProduction && bool(env.WEBHOOK_ALLOW_PRIVATE_TARGETS, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'),
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    encryptionKey: env.ENCRYPTION_KEY || undefined,
    seedDemo: !isProduction && bool(env.SEED_DEMO, 'SEED_DEMO', true),
    trustProxy: bool(env.TRUST_PROXY, 'TRUST_PROXY'),
    runWorkers: bool(env.RUN_WORKERS, 'RUN_WORKERS', true),
    shutdownGraceMs,
    version: readVersion(),
  };
}

/** A config for tests and tools: defaults plus overrides, never reading the environment. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({ NODE_ENV: 'test', SEED_DEMO: '0' }), ...overrides };
}
