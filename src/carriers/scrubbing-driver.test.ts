import { describe, expect, it } from 'vitest';
import type { ApiCallContext, CarrierApiDriver } from './driver.js';
import { TokenCache } from './http/token-cache.js';
import { withSecretScrubbing } from './scrubbing-driver.js';
import { CarrierError } from './types.js';

const SECRET = 'client-secret-0123456789';
const BASIC = Buffer.from(`client-id:${SECRET}`).toString('base64');
const ctx: ApiCallContext = {
  account: { id: 'ca_1', mode: 'sandbox', account_number: null, credentials: { client_id: 'client-id', client_secret: SECRET } },
  timeoutMs: 1000,
};

/** A driver whose every answer quotes the account's secrets back (what a careless carrier or a proxy does). */
function quotingDriver(tokens: TokenCache): CarrierApiDriver {
  const quote = async () => {
    const token = await tokens.get('ups:ca_1', async () => ({ accessToken: 'tok-issued-during-the-call', expiresInS: 3600 }), 'ca_1');
    return {
      ok: false as const,
      kind: 'rejected' as const,
      messages: [{ code: 'carrier_rejected' as const, carrier_code: 'X', message: `you sent Basic ${BASIC}, ${SECRET} and Bearer ${token}` }],
    };
  };
  return {
    carrier: 'ups',
    credentialsSchema: { type: 'object', properties: { client_id: { type: 'string' }, client_secret: { type: 'string', writeOnly: true } } },
    hosts: { sandbox: 'https://sandbox.example', production: 'https://example' },
    rates: quote,
    purchase: quote,
    void: quote,
    track: quote,
    validateAddress: quote,
    schedulePickup: quote,
    cancelPickup: quote,
    testCredentials: async () => {
      throw new CarrierError('ups', 'x', `failed with ${SECRET}`, { retryable: false, cause: new Error(`inner ${BASIC}`) });
    },
  } as unknown as CarrierApiDriver;
}

describe('withSecretScrubbing', () => {
  it('scrubs results of the write-only credentials and of the tokens fetched during the call', async () => {
    const tokens = new TokenCache(Date.now);
    const driver = withSecretScrubbing(quotingDriver(tokens), tokens);
    const result = await driver.rates(ctx, {} as never);
    expect(result).toEqual({
      ok: false,
      kind: 'rejected',
      messages: [{ code: 'carrier_rejected', carrier_code: 'X', message: 'you sent Basic [REDACTED], [REDACTED] and Bearer [REDACTED]' }],
    });
  });

  it('scrubs a thrown error and its cause, and keeps the absent operations absent', async () => {
    const tokens = new TokenCache(Date.now);
    const driver = withSecretScrubbing(quotingDriver(tokens), tokens);
    const err = (await driver.testCredentials(ctx).catch((e: unknown) => e)) as CarrierError;
    expect(err).toBeInstanceOf(CarrierError);
    expect(err.message).toBe('failed with [REDACTED]');
    expect((err.cause as Error).message).toBe('inner [REDACTED]');
    expect(driver.manifest).toBeUndefined();
    expect(driver.labelImage).toBeUndefined();
  });
});
