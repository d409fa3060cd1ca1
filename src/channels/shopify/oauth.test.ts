import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { oauthHmacMessage, parseTokenAnswer, shopifyAuthorizeUrl, verifyShopifyOAuthHmac } from './oauth.js';

const secret = 'hush';

describe('Shopify OAuth', () => {
  it('builds the authorize URL on the given origin', () => {
    const url = new URL(
      shopifyAuthorizeUrl({
        origin: 'https://fake-goods.myshopify.com',
        clientId: 'cid',
        scopes: ['read_orders', 'write_merchant_managed_fulfillment_orders'],
        redirectUri: 'https://ship.example.com/api/integrations/oauth/shopify/callback',
        state: 'abcdefghijklmnop',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://fake-goods.myshopify.com/admin/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'cid',
      scope: 'read_orders,write_merchant_managed_fulfillment_orders',
      redirect_uri: 'https://ship.example.com/api/integrations/oauth/shopify/callback',
      state: 'abcdefghijklmnop',
    });
  });

  it('verifies the hex HMAC of the sorted query without hmac', () => {
    const query = { shop: 'fake-goods.myshopify.com', code: '0907a61c0c8d55e99db179b68161bc00', state: 'abc', timestamp: '1337178173', host: 'YWRtaW4' };
    // Shopify's documented message: sorted, `&`-joined, hmac left out.
    expect(oauthHmacMessage({ ...query, hmac: 'x' })).toBe(
      'code=0907a61c0c8d55e99db179b68161bc00&host=YWRtaW4&shop=fake-goods.myshopify.com&state=abc&timestamp=1337178173',
    );
    const hmac = createHmac('sha256', secret).update(oauthHmacMessage(query)).digest('hex');
    expect(verifyShopifyOAuthHmac({ ...query, hmac }, secret)).toBe(true);
    expect(verifyShopifyOAuthHmac({ ...query, hmac: hmac.toUpperCase() }, secret)).toBe(true);
    expect(verifyShopifyOAuthHmac({ ...query, hmac }, 'other')).toBe(false);
    expect(verifyShopifyOAuthHmac({ ...query, shop: 'evil.myshopify.com', hmac }, secret)).toBe(false);
    expect(verifyShopifyOAuthHmac({ ...query, hmac: hmac.slice(2) }, secret)).toBe(false);
    expect(verifyShopifyOAuthHmac({ ...query, hmac: 'not-hex' }, secret)).toBe(false);
    expect(verifyShopifyOAuthHmac(query, secret)).toBe(false);
  });

  it('reads token answers, expiring or not', () => {
    const now = Date.parse('2026-03-02T15:00:00.000Z');
    expect(parseTokenAnswer({ access_token: 'shpat_1', scope: 'read_orders,write_merchant_managed_fulfillment_orders' }, now)).toEqual({
      accessToken: 'shpat_1',
      scopes: ['read_orders', 'write_merchant_managed_fulfillment_orders'],
    });
    expect(
      parseTokenAnswer({ access_token: 'shpat_2', scope: 'read_orders', expires_in: 3600, refresh_token: 'shprt_2', refresh_token_expires_in: 86400 }, now),
    ).toEqual({
      accessToken: 'shpat_2',
      scopes: ['read_orders'],
      expiresAt: '2026-03-02T16:00:00.000Z',
      refreshToken: 'shprt_2',
      refreshTokenExpiresAt: '2026-03-03T15:00:00.000Z',
    });
    expect(parseTokenAnswer({ error: 'invalid_request' }, now)).toBeNull();
  });
});
