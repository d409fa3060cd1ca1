import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';

/**
 * Secrets at rest (integration credentials, later carrier accounts): AES-256-GCM with a random
 * 96-bit IV per message. A sealed value is `v1.<iv>.<tag>.<ciphertext>` (base64url), so a
 * later key rotation can add `v2`. `aad` binds a ciphertext to its row (the owner's id): a
 * sealed value copied into another row does not open.
 */
export interface SecretBox {
  seal(plaintext: string, aad?: string): string;
  open(sealed: string, aad?: string): string;
}

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

export const KEY_FILE_NAME = 'encryption.key';
const VERSION = 'v1';

/** A 32-byte key from ENCRYPTION_KEY: 64 hex characters, or base64/base64url of 32 bytes. */
export function parseEncryptionKey(value: string): Buffer {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(text)) {
    const key = Buffer.from(text.replaceAll('-', '+').replaceAll('_', '/'), 'base64');
    if (key.length === 32) return key;
  }
  throw new SecretBoxError('ENCRYPTION_KEY must be 32 bytes, written as 64 hex characters or base64');
}

/**
 * The development key: generated once into `<dataDir>/encryption.key` (mode 0600) and read
 * back afterwards. Creation is exclusive, so two processes starting together agree on one key.
 */
export function loadOrCreateKeyFile(dataDir: string): Buffer {
  const file = path.join(dataDir, KEY_FILE_NAME);
  mkdirSync(dataDir, { recursive: true });
  try {
    const fd = openSync(file, 'wx', 0o600);
    try {
      writeSync(fd, `${randomBytes(32).toString('base64')}\n`);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  try {
    return parseEncryptionKey(readFileSync(file, 'utf8'));
  } catch (err) {
    if (err instanceof SecretBoxError) throw new SecretBoxError(`${file} does not hold a 32-byte key (base64 or hex)`);
    throw err;
  }
}

export interface SecretBoxConfig {
  encryptionKey?: string;
  isProduction: boolean;
  dataDir: string;
}

/**
 * A box over the configured key: ENCRYPTION_KEY when set; outside production only, a key kept
 * in DATA_DIR. The key is resolved on first use, so an app that never seals anything never
 * touches DATA_DIR.
 */
export function createSecretBox(config: SecretBoxConfig): SecretBox {
  let key: Buffer | undefined;
  const getKey = (): Buffer => {
    if (key) return key;
    if (config.encryptionKey) key = parseEncryptionKey(config.encryptionKey);
    else if (config.isProduction) throw new SecretBoxError('ENCRYPTION_KEY is required in production');
    else key = loadOrCreateKeyFile(config.dataDir);
    return key;
  };
  return {
    seal(plaintext, aad) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', getKey(), iv);
      if (aad !== undefined) cipher.setAAD(Buffer.from(aad, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
    },
    open(sealed, aad) {
      const parts = sealed.split('.');
      if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('not a sealed value of this version');
      const [, ivText, tagText, dataText] = parts;
      const iv = Buffer.from(ivText, 'base64url');
      const tag = Buffer.from(tagText, 'base64url');
      if (iv.length !== 12 || tag.length !== 16) throw new SecretBoxError('malformed sealed value');
      const k = getKey();
      try {
        const decipher = createDecipheriv('aes-256-gcm', k, iv);
        if (aad !== undefined) decipher.setAAD(Buffer.from(aad, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([decipher.update(Buffer.from(dataText, 'base64url')), decipher.final()]).toString('utf8');
      } catch {
        // GCM authentication failed: wrong key, wrong owner (aad) or tampered data.
        throw new SecretBoxError('the sealed value cannot be opened with this key');
      }
    },
  };
}
