import * as nodeCrypto from 'node:crypto';
import { createHash, randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` base62 characters from a CSPRNG (rejection sampling keeps it unbiased). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

// One-shot crypto.hash (Node ≥ 20.12) skips the Hash object: ~5× cheaper than createHash for
// the API key hashed on every /v1 request. createHash where it is missing.
const oneShot = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

export function sha256Hex(value: string): string {
  return oneShot ? oneShot('sha256', value, 'hex') : createHash('sha256').update(value).digest('hex');
}

function scrypt(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));
}

/**
 * scrypt's cost N for new hashes: 2^15 (~90 ms), run on libuv's thread pool so logins do not
 * block the event loop. Each hash carries its own N, so one made at another cost still verifies.
 */
export const PASSWORD_HASH_COST = 2 ** 15;
const SCRYPT = { r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export async function hashPassword(password: string, cost = PASSWORD_HASH_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, 32, { ...SCRYPT, N: cost });
  return `scrypt$${cost}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltB64, keyB64] = stored.split('$');
  if (scheme !== 'scrypt' || !keyB64) return false;
  const expected = Buffer.from(keyB64, 'base64');
  const actual = await scrypt(password, Buffer.from(saltB64, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  });
  return timingSafeEqual(expected, actual);
}

/**
 * Whether two secrets are equal, in time that depends on neither: both are hashed first, so
 * the comparison sees equal lengths and a wrong guess learns nothing from how long it took.
 */
export function secretsEqual(given: string, expected: string): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
}

const dummyHashes = new Map<number, Promise<string>>();
/**
 * A hash of a password nobody knows, at the cost real ones are made at, so an unknown email costs
 * the same time as a wrong password.
 */
export function dummyPasswordHash(cost = PASSWORD_HASH_COST): Promise<string> {
  let hash = dummyHashes.get(cost);
  if (!hash) dummyHashes.set(cost, (hash = hashPassword(randomBase62(24), cost)));
  return hash;
}
