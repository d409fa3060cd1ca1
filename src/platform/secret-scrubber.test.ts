import { describe, expect, it } from 'vitest';
import { MIN_SECRET_LENGTH, SCRUBBED, secretScrubber } from './secret-scrubber.js';

const SECRET = 'p4ss/w+rd "quoted" & more=1';
const basic = (user: string, secret: string) => Buffer.from(`${user}:${secret}`).toString('base64');

describe('secretScrubber', () => {
  it('replaces the value as is, JSON-escaped and percent-encoded', () => {
    const s = secretScrubber([SECRET]);
    expect(s.scrub(`you sent ${SECRET}!`)).toBe(`you sent ${SCRUBBED}!`);
    expect(s.scrub(JSON.stringify({ echo: `secret=${SECRET}` }))).toBe(JSON.stringify({ echo: `secret=${SCRUBBED}` }));
    expect(s.scrub(JSON.stringify({ echo: SECRET }).replaceAll('/', '\\/'))).not.toContain('w+rd');
    expect(s.scrub(`client_secret=${encodeURIComponent(SECRET)}&x=1`)).toBe(`client_secret=${SCRUBBED}&x=1`);
    expect(s.scrub(`body: ${new URLSearchParams({ client_secret: SECRET }).toString()}`)).toBe(`body: client_secret=${SCRUBBED}`);
    expect(
      s.scrub(
        encodeURIComponent(SECRET)
          .toLowerCase()
          .replace(/%../g, (h) => h.toLowerCase()),
      ),
    ).not.toContain('%2fw');
  });

  it('replaces a Basic header value whatever the length of the user before the secret', () => {
    const s = secretScrubber([SECRET]);
    for (const user of ['', 'a', 'ab', 'abc', 'client-id-1234']) {
      const header = `Basic ${basic(user, SECRET)}`;
      expect(s.scrub(`Authorization: ${header}; next`)).toBe(`Authorization: Basic ${SCRUBBED}; next`);
      const url = basic(user, SECRET).replaceAll('+', '-').replaceAll('/', '_');
      expect(s.scrub(`"${url}"`)).toBe(`"${SCRUBBED}"`);
    }
    expect(s.scrub(Buffer.from(SECRET).toString('base64'))).toBe(SCRUBBED);
  });

  it('finds a base64 form quoted inside a URL or a form', () => {
    const s = secretScrubber(['abcdefgh?>?>?>']);
    const quoted = encodeURIComponent(`Basic ${basic('id', 'abcdefgh?>?>?>')}`);
    expect(s.scrub(quoted)).not.toContain(encodeURIComponent(Buffer.from('abcdefgh?>?>?>').toString('base64').slice(2, 12)));
  });

  it('leaves values shorter than the threshold alone, and text without a secret as it was', () => {
    const short = 'x'.repeat(MIN_SECRET_LENGTH - 1);
    const s = secretScrubber([short, null, undefined, '']);
    expect(s.active).toBe(false);
    expect(s.scrub(`a ${short} b`)).toBe(`a ${short} b`);
    const text = 'Invalid postal code 94105 for CA';
    expect(secretScrubber(['sekrit-value']).scrub(text)).toBe(text);
  });

  it('scrubs an all-digit value only where no other digit touches it', () => {
    const s = secretScrubber(['7730019428']);
    expect(s.scrub('account 7730019428 refused; accountNumber%3D7730019428%26')).toBe(`account ${SCRUBBED} refused; accountNumber%3D${SCRUBBED}%26`);
    expect(s.scrub('9400177300194281234567')).toBe('9400177300194281234567');
  });

  it('scrubs every string of a value, keeping Buffers and the reference when nothing changed', () => {
    const s = secretScrubber(['tok_0123456789']);
    const label = Buffer.from('tok_0123456789');
    const value = { ok: false, messages: [{ message: 'bad token tok_0123456789', code: 'x' }], label, n: 3 };
    const out = s.scrubValue(value);
    expect(out.messages[0]!.message).toBe(`bad token ${SCRUBBED}`);
    expect(out.label).toBe(label);
    expect(value.messages[0]!.message).toContain('tok_0123456789');
    const clean = { a: ['b', { c: 'd' }] };
    expect(s.scrubValue(clean)).toBe(clean);
  });

  it('scrubs an error, its stack and its causes in place', () => {
    const s = secretScrubber(['tok_0123456789']);
    const err = new Error('outer tok_0123456789', { cause: new Error('inner tok_0123456789') });
    s.scrubError(err);
    expect(err.message).toBe(`outer ${SCRUBBED}`);
    expect(err.stack).not.toContain('tok_0123456789');
    expect((err.cause as Error).message).toBe(`inner ${SCRUBBED}`);
  });
});
