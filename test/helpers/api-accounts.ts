/**
 * The body of `POST /v1/carrier-accounts` for an api account of `carrier` pointed at its fake
 * (`base_url`), with the fake's expected secret: the over-HTTP driver tests make these.
 */
export function apiAccountBody(carrier: 'ups' | 'fedex' | 'dhl_express' | 'usps', baseUrl: string, secret: string) {
  switch (carrier) {
    case 'ups':
      return { carrier, driver: 'api', account_number: 'A1B2C3', base_url: baseUrl, credentials: { client_id: 'fake-client-id', client_secret: secret } };
    case 'fedex':
      return { carrier, driver: 'api', account_number: '740561073', base_url: baseUrl, credentials: { api_key: 'fake-api-key', secret_key: secret } };
    case 'dhl_express':
      return { carrier, driver: 'api', account_number: '123456789', base_url: baseUrl, credentials: { api_key: 'fake-api-key', api_secret: secret } };
    case 'usps':
      return {
        carrier,
        driver: 'api',
        base_url: baseUrl,
        credentials: {
          client_id: 'fake-client-id',
          client_secret: secret,
          crid: '56982563',
          mid: '904128936',
          manifest_mid: '904128937',
          payment_account_number: '1000405525',
          payment_account_type: 'EPS',
        },
      };
  }
}
