import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from './crypto.js';

describe('sha256Hex', () => {
  it('is the hex SHA-256 of the UTF-8 text (the stored API-key hashes depend on it)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (const text of ['', 'sk_test_nQttOoHuqjNDMaFPax5wGl8g9yGFa3eQucZcqBejxyC', 'ünïcødé ✓']) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
    }
  });
});
