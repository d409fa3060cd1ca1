import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createSecretBox, KEY_FILE_NAME, parseEncryptionKey, SecretBoxError } from './secret-box.js';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'secret-box-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const keyBytes = randomBytes(32);
const config = { encryptionKey: keyBytes.toString('base64'), isProduction: false, dataDir: '/nonexistent/never-used' };

describe('secret box (AES-256-GCM)', () => {
  it('round-trips and never shows the plaintext', () => {
    const box = createSecretBox(config);
    const sealed = box.seal('{"token":"shpat_secret"}', 'int_1');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('shpat_secret');
    expect(box.open(sealed, 'int_1')).toBe('{"token":"shpat_secret"}');
    // A fresh IV each time.
    expect(box.seal('same', 'a')).not.toBe(box.seal('same', 'a'));
  });

  it('refuses a tampered value, another owner (aad) and another key', () => {
    const box = createSecretBox(config);
    const sealed = box.seal('secret', 'int_1');
    const parts = sealed.split('.');
    const data = Buffer.from(parts[3], 'base64url');
    data[0] ^= 1;
    const tampered = [parts[0], parts[1], parts[2], data.toString('base64url')].join('.');
    expect(() => box.open(tampered, 'int_1')).toThrow(SecretBoxError);
    expect(() => box.open(sealed, 'int_2')).toThrow(SecretBoxError);
    const other = createSecretBox({ ...config, encryptionKey: randomBytes(32).toString('hex') });
    expect(() => other.open(sealed, 'int_1')).toThrow(SecretBoxError);
    expect(() => box.open('garbage', 'int_1')).toThrow(SecretBoxError);
  });

  it('takes the key as hex or base64 and refuses other lengths', () => {
    expect(parseEncryptionKey(keyBytes.toString('hex')).equals(keyBytes)).toBe(true);
    expect(parseEncryptionKey(keyBytes.toString('base64')).equals(keyBytes)).toBe(true);
    expect(parseEncryptionKey(keyBytes.toString('base64url')).equals(keyBytes)).toBe(true);
    expect(() => parseEncryptionKey(randomBytes(16).toString('base64'))).toThrow(SecretBoxError);
    expect(() => parseEncryptionKey('not a key')).toThrow(SecretBoxError);
    const hexBox = createSecretBox({ ...config, encryptionKey: keyBytes.toString('hex') });
    expect(hexBox.open(createSecretBox(config).seal('x'))).toBe('x');
  });

  it('outside production without a key: generates one file (0600) in DATA_DIR and reuses it', () => {
    const dataDir = tempDir();
    const first = createSecretBox({ isProduction: false, dataDir });
    const sealed = first.seal('hello');
    const file = path.join(dataDir, KEY_FILE_NAME);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')).toHaveLength(32);
    // Another process (a new box) opens what the first sealed.
    expect(createSecretBox({ isProduction: false, dataDir }).open(sealed)).toBe('hello');
  });

  it('resolves the key lazily and refuses to work in production without one', () => {
    const box = createSecretBox({ isProduction: true, dataDir: tempDir() });
    expect(() => box.seal('x')).toThrow(/ENCRYPTION_KEY/);
  });
});
