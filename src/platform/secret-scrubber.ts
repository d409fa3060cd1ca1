/**
 * Scrubs known secret VALUES out of text a third party sent back to us (a carrier, a store
 * platform, or a proxy in front of either, quoting our request in an error). Redaction by key
 * name (carriers/http/redact.ts) cannot see a secret inside a free-text message; this can,
 * because it is built from the secrets themselves: the account's write-only credentials and
 * the tokens issued for it.
 *
 * Each secret is matched in the forms a request carries it in and an echo quotes it back in:
 * - as is;
 * - JSON-escaped (`"` and `\` escaped, and `/` as `\/`, as some servers write it);
 * - percent-encoded (`encodeURIComponent`, form encoding with `+` for a space, and both with
 *   lowercase hex digits);
 * - base64 and base64url, at any position inside the encoded text: an `Authorization: Basic`
 *   value is base64 of `user:secret`, and the secret's bytes start at an offset that depends on
 *   the user's length. For each of the three offsets modulo 3, the characters that encode only
 *   the secret's bytes are the same whatever surrounds them; a match of those replaces the whole
 *   run of base64 characters around it (the header value, not just the middle of it).
 *
 * An all-digit value is matched only where no digit touches it (not inside a tracking number).
 *
 * Values shorter than `MIN_SECRET_LENGTH` characters are left alone: a short value (a 4-digit
 * PIN, `test`) would also match ordinary words and numbers of a carrier's message and mangle it,
 * and hides little; every credential a carrier issues is longer than that.
 */

/** Shortest value scrubbed (see above): six characters, so even its base64 forms are 7+ characters long. */
export const MIN_SECRET_LENGTH = 6;
export const SCRUBBED = '[REDACTED]';

export interface SecretScrubber {
  /** False when there was no secret long enough to look for (scrubbing is then the identity). */
  readonly active: boolean;
  /** `text` with every form of every secret replaced by `[REDACTED]`. */
  scrub(text: string): string;
  /**
   * Every string inside `value` (arrays and plain objects, at any depth) scrubbed; the same
   * reference back when nothing changed. Buffers, dates and other class instances are kept as
   * they are (a label's bytes are not text).
   */
  scrubValue<T>(value: T): T;
  /** An error's message and stack, and its causes', scrubbed in place (they reach logs and answers). */
  scrubError<T>(err: T): T;
}

const BASE64_CHAR = /[A-Za-z0-9+/=_-]/;

interface Form {
  /** Replace the whole run of base64 characters around a match (a base64 core), not only the match. */
  widen: boolean;
}

const identity: SecretScrubber = {
  active: false,
  scrub: (text) => text,
  scrubValue: (value) => value,
  scrubError: (err) => err,
};

/** Scrubbers by their secret set: the same account's secrets come back on every carrier call. */
const built = new Map<string, SecretScrubber>();
const MAX_BUILT = 1000;

/**
 * The scrubber of a set of secret values (null, undefined and values shorter than
 * `MIN_SECRET_LENGTH` are ignored). Cheap to call repeatedly with the same set: the matcher is
 * built once per set.
 */
export function secretScrubber(values: Iterable<string | null | undefined>): SecretScrubber {
  const secrets = [...new Set([...values].filter((v): v is string => typeof v === 'string' && v.length >= MIN_SECRET_LENGTH))].sort();
  if (secrets.length === 0) return identity;
  const key = secrets.join('\u0000');
  let scrubber = built.get(key);
  if (!scrubber) {
    scrubber = buildScrubber(secrets);
    // Secrets change rarely; a full map means many accounts or rotated tokens: start over.
    if (built.size >= MAX_BUILT) built.clear();
    built.set(key, scrubber);
  }
  return scrubber;
}

function buildScrubber(secrets: readonly string[]): SecretScrubber {
  const forms = new Map<string, Form>();
  const add = (text: string, widen: boolean) => {
    if (text.length === 0) return;
    const known = forms.get(text);
    // A text that is both a literal form and a base64 core is replaced widened (the safer one).
    if (!known || (widen && !known.widen)) forms.set(text, { widen });
  };
  for (const secret of secrets) {
    add(secret, false);
    const json = JSON.stringify(secret).slice(1, -1);
    add(json, false);
    add(json.replaceAll('/', '\\/'), false);
    for (const encoded of [encodeURIComponent(secret), new URLSearchParams({ s: secret }).toString().slice(2)]) {
      add(encoded, false);
      add(
        encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
        false,
      );
    }
    for (const core of base64Cores(Buffer.from(secret, 'utf8'))) {
      add(core, true);
      add(core.replaceAll('+', '-').replaceAll('/', '_'), true);
      // A Basic header quoted inside a URL or a form: the core percent-encoded, replaced as is.
      add(encodeURIComponent(core), false);
    }
  }
  // Longest first, so a form that contains another is replaced whole.
  const texts = [...forms.keys()].sort((a, b) => b.length - a.length);
  // An all-digit secret (a payment account number) only where it stands alone: inside a longer
  // run of digits (a tracking number) it is a coincidence, and scrubbing it would corrupt an id.
  const pattern = new RegExp(texts.map((t) => (/^[0-9]+$/.test(t) ? `(?<![0-9])${t}(?![0-9])` : escapeRegExp(t))).join('|'), 'g');
  // Most strings of an answer are short codes ("03", "USD"): no form fits in them.
  const shortest = texts[texts.length - 1]!.length;

  const scrub = (text: string): string => {
    if (text.length < shortest) return text;
    pattern.lastIndex = 0;
    let match = pattern.exec(text);
    if (!match) return text;
    let out = '';
    let copied = 0;
    while (match) {
      let start = match.index;
      let end = start + match[0].length;
      if (forms.get(match[0])!.widen) {
        while (start > copied && BASE64_CHAR.test(text[start - 1]!)) start -= 1;
        while (end < text.length && BASE64_CHAR.test(text[end]!)) end += 1;
      }
      out += text.slice(copied, start) + SCRUBBED;
      copied = end;
      pattern.lastIndex = end;
      match = pattern.exec(text);
    }
    return out + text.slice(copied);
  };

  const scrubValue = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return scrub(value);
    if (value === null || typeof value !== 'object' || depth > 32) return value;
    if (Array.isArray(value)) {
      let out: unknown[] | null = null;
      for (let i = 0; i < value.length; i += 1) {
        const s = scrubValue(value[i], depth + 1);
        if (s !== value[i]) (out ??= value.slice())[i] = s;
      }
      return out ?? value;
    }
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return value;
    const record = value as Record<string, unknown>;
    let out: Record<string, unknown> | null = null;
    for (const k in record) {
      if (!Object.hasOwn(record, k)) continue;
      const s = scrubValue(record[k], depth + 1);
      if (s !== record[k]) (out ??= { ...record })[k] = s;
    }
    return out ?? value;
  };

  const scrubError = <T>(err: T): T => {
    let current: unknown = err;
    for (let depth = 0; current instanceof Error && depth < 8; depth += 1) {
      current.message = scrub(current.message);
      if (typeof current.stack === 'string') current.stack = scrub(current.stack);
      current = current.cause;
    }
    return err;
  };

  return { active: true, scrub, scrubValue: <T>(value: T) => scrubValue(value, 0) as T, scrubError };
}

/**
 * The base64 characters that encode only `bytes`, for each of the three offsets (modulo 3) at
 * which `bytes` can start inside a longer encoded text. Padding and the characters shared with
 * neighbouring bytes are left out: they change with what surrounds the secret.
 */
function base64Cores(bytes: Buffer): string[] {
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
    const first = Math.ceil((offset * 8) / 6);
    const last = Math.floor(((offset + bytes.length) * 8) / 6);
    if (last > first) cores.push(encoded.slice(first, last));
  }
  return cores;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
