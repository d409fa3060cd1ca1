import { createHash } from 'node:crypto';

/**
 * Deterministic "random" characters from a seed, so a simulated purchase retried with the
 * same reference gets the same tracking number. SHA-256 bytes are mapped onto the alphabet
 * with rejection of the uneven tail, so every character is equally likely.
 */
export function seededChars(seed: string, count: number, alphabet: string): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  for (let block = 0; out.length < count; block++) {
    const bytes = createHash('sha256').update(`${seed}\u0000${block}`).digest();
    for (const byte of bytes) {
      if (byte >= limit) continue;
      out += alphabet[byte % alphabet.length];
      if (out.length === count) break;
    }
  }
  return out;
}

export function seededDigits(seed: string, count: number): string {
  return seededChars(seed, count, '0123456789');
}
