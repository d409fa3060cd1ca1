import type { DriverMode } from '../../driver.js';

/**
 * The FedEx `api` driver's credentials (JSON Schema 2020-12), as `GET /v1/carrier-types` shows
 * them: the project's API key and secret key from developer.fedex.com (OAuth `client_id` and
 * `client_secret`). As for UPS, the FedEx account number is not a credential: it is the carrier
 * account's `account_number` (9 digits), which rates, ship, cancel and pickup send.
 */
export const fedexCredentialsSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'FedEx API project keys',
  description:
    'From your project on developer.fedex.com (API Key and Secret Key). The account number of the carrier account is your 9-digit FedEx account number.',
  type: 'object',
  additionalProperties: false,
  required: ['api_key', 'secret_key'],
  properties: {
    api_key: { type: 'string', minLength: 1, maxLength: 256, title: 'API key' },
    secret_key: { type: 'string', minLength: 1, maxLength: 256, title: 'Secret key', writeOnly: true },
  },
} as const;

export interface FedexCredentials {
  api_key: string;
  secret_key: string;
}

/**
 * Hosts per mode. FedEx's documents say `servers: [{url: "/"}]` with the full path in each
 * operation; the sandbox host appears in their code samples, the production host is FedEx's
 * documented production URL (not stated in the files).
 */
export const FEDEX_HOSTS: Record<DriverMode, string> = {
  sandbox: 'https://apis-sandbox.fedex.com',
  production: 'https://apis.fedex.com',
};

export function fedexHost(mode: DriverMode, baseUrl?: string | null): string {
  return (baseUrl ?? FEDEX_HOSTS[mode]).replace(/\/+$/, '');
}

export function readFedexCredentials(credentials: Record<string, unknown>): FedexCredentials | null {
  const { api_key: key, secret_key: secret } = credentials;
  if (typeof key !== 'string' || typeof secret !== 'string' || !key || !secret) return null;
  return { api_key: key, secret_key: secret };
}
