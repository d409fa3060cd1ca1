import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { registerErrorHandling, RETRY_AFTER_MAX_SECONDS } from './error-handler.js';

describe('Retry-After', () => {
  const app = Fastify();
  registerErrorHandling(app);
  app.get('/wait/:seconds', async (request) => {
    throw new AppError('carrier_unavailable', 'The carrier is unavailable.', { retryAfterSeconds: Number((request.params as { seconds: string }).seconds) });
  });
  afterAll(() => app.close());

  it('is passed on as a whole number of seconds, at most a day (as the OpenAPI document says)', async () => {
    const answer = async (seconds: string) => (await app.inject({ method: 'GET', url: `/wait/${seconds}` })).headers['retry-after'];
    expect(await answer('5')).toBe('5');
    expect(await answer('2.5')).toBe('3');
    // A carrier that asks for years (or for 1e30 seconds) does not make the header a float or unbounded.
    expect(await answer('1e30')).toBe(String(RETRY_AFTER_MAX_SECONDS));
    expect(await answer(String(RETRY_AFTER_MAX_SECONDS + 1))).toBe('86400');
  });
});
