import type { DriverMode } from '../../driver.js';

/**
 * The DHL Express (MyDHL API) `api` driver's credentials (JSON Schema 2020-12), as
 * `GET /v1/carrier-types` shows them. MyDHL authenticates every call with HTTP basic auth
 * (`components.securitySchemes.basicAuth`): the API key as user name, the API secret as password.
 * The DHL Express account number is not a credential: it is the carrier account's
 * `account_number`, sent as the `shipper` account of rates, shipments and pickups.
 */
export const dhlCredentialsSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'MyDHL API key and secret',
  description:
    'From your app on developer.dhl.com (MyDHL API: API Key and API Secret). The account number of the carrier account is your DHL Express account number (up to 12 characters).',
  type: 'object',
  additionalProperties: false,
  required: ['api_key', 'api_secret'],
  properties: {
    api_key: { type: 'string', minLength: 1, maxLength: 256, title: 'API key' },
    api_secret: { type: 'string', minLength: 1, maxLength: 256, title: 'API secret', writeOnly: true },
  },
} as const;

export interface DhlCredentials {
  api_key: string;
  api_secret: string;
}

/** The yaml's `servers`: Test Environment and Production Environment (the mock server is not used). */
export const DHL_HOSTS: Record<DriverMode, string> = {
  sandbox: 'https://express.api.dhl.com/mydhlapi/test',
  production: 'https://express.api.dhl.com/mydhlapi',
};

/** `x-version`: required on every operation; the yaml says "do not change this field value". */
export const DHL_API_VERSION = '3.3.1';

export function dhlHost(mode: DriverMode, baseUrl?: string | null): string {
  return (baseUrl ?? DHL_HOSTS[mode]).replace(/\/+$/, '');
}

export function readDhlCredentials(credentials: Record<string, unknown>): DhlCredentials | null {
  const { api_key: key, api_secret: secret } = credentials;
  if (typeof key !== 'string' || typeof secret !== 'string' || !key || !secret) return null;
  return { api_key: key, api_secret: secret };
}

/** `Authorization: Basic base64(key:secret)` (RFC 7617), sent on every call: MyDHL has no token. */
export function basicAuthorization(credentials: DhlCredentials): string {
  return `Basic ${Buffer.from(`${credentials.api_key}:${credentials.api_secret}`).toString('base64')}`;
}
