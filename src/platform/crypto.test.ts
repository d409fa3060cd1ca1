import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PASSWORD_HASH_COST, dummyPasswordHash, hashPassword, sha256Hex, verifyPassword } from './crypto.js';

describe('sha256Hex', () => {
  it('is the hex SHA-256 of the UTF-8 text (the stored API-key hashes depend on it)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (const text of ['', 'sk_test_nQttOoHuqjNDMaFPax5wGl8g9yGFa3eQucZcqBejxyC', 'ünïcødé ✓']) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
    }
  });
});

describe('password hashes', () => {
  it('are scrypt at N=2^15 unless a cost is given, and each verifies at the cost it records', async () => {
    expect(PASSWORD_HASH_COST).toBe(2 ** 15);
    const real = await hashPassword('correct horse battery');
    expect(real).toMatch(/^scrypt\$32768\$8\$1\$/);
    const cheap = await hashPassword('correct horse battery', 2 ** 10);
    expect(cheap).toMatch(/^scrypt\$1024\$8\$1\$/);
    for (const hash of [real, cheap]) {
      expect(await verifyPassword('correct horse battery', hash)).toBe(true);
      expect(await verifyPassword('correct horse batterY', hash)).toBe(false);
    }
  });

  it("an unknown email's stand-in hash is made at the cost asked for", async () => {
    expect(await dummyPasswordHash(2 ** 10)).toMatch(/^scrypt\$1024\$/);
    expect(await dummyPasswordHash(2 ** 10)).toBe(await dummyPasswordHash(2 ** 10));
  });
});
