import { describe, expect, it } from 'vitest';
import { deliveryIdOf, verifyBigcommerceWebhook } from './webhooks.js';

const body = {
  created_at: 1561482670,
  store_id: '1025646',
  producer: 'stores/abc123',
  scope: 'store/order/created',
  hash: '352e4afc6dd3fc85ea26bfdf3f91852604d57528',
  data: { type: 'order', id: 250 },
};
const raw = JSON.stringify(body);
const verify = (headers: Record<string, string>, rawBody: string = raw, storeRef = 'abc123') =>
  verifyBigcommerceWebhook({ headers, rawBody, secret: 's3cret', storeRef });

describe('BigCommerce webhook verification', () => {
  it('accepts the secret header (any case) and reads scope, store and delivery id', () => {
    expect(verify({ 'x-service-webhook-token': 's3cret' })).toEqual({
      ok: true,
      deliveryId: 'store/order/created:352e4afc6dd3fc85ea26bfdf3f91852604d57528:1561482670',
      topic: 'store/order/created',
      storeRef: 'abc123',
      triggeredAt: '2019-06-25T17:11:10.000Z',
      eventId: '352e4afc6dd3fc85ea26bfdf3f91852604d57528',
      apiVersion: null,
    });
    expect(verify({ 'X-Service-Webhook-Token': 's3cret' }, raw, 'ABC123').ok).toBe(true);
  });

  it('refuses a missing or wrong secret before reading the body, then another store', () => {
    expect(verify({})).toEqual({ ok: false, reason: 'missing_signature' });
    expect(verify({ 'x-service-webhook-token': 's3cre' })).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verify({ 'x-service-webhook-token': 's3cret' }, raw, 'other1')).toEqual({ ok: false, reason: 'wrong_store' });
    expect(verify({ 'x-service-webhook-token': 's3cret' }, JSON.stringify({ ...body, producer: undefined }))).toEqual({ ok: false, reason: 'wrong_store' });
    expect(verify({ 'x-service-webhook-token': 's3cret' }, 'not json')).toEqual({ ok: false, reason: 'missing_headers' });
    expect(verify({ 'x-service-webhook-token': 's3cret' }, JSON.stringify({ ...body, scope: '' }))).toEqual({ ok: false, reason: 'missing_headers' });
  });

  it('falls back to a SHA-256 of the raw body without a hash', () => {
    const { hash: _hash, ...rest } = body;
    const text = JSON.stringify(rest);
    expect(deliveryIdOf(rest, text)).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(deliveryIdOf(rest, text)).toBe(deliveryIdOf(rest, Buffer.from(text)));
  });
});
