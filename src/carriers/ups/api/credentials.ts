import type { DriverMode } from '../../driver.js';

/**
 * The UPS `api` driver's credentials (JSON Schema 2020-12), as `GET /v1/carrier-types` shows
 * them. The shipper number is not a credential: it is the account's `account_number` (UPS's
 * 6-character shipper number), which the ship, pickup and negotiated-rate calls use.
 */
export const upsCredentialsSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'UPS OAuth client credentials',
  description:
    'From your app on developer.ups.com (Client ID and Client Secret). The account number of the carrier account is your 6-character UPS shipper number.',
  type: 'object',
  additionalProperties: false,
  required: ['client_id', 'client_secret'],
  properties: {
    client_id: { type: 'string', minLength: 1, maxLength: 256, title: 'Client ID' },
    client_secret: { type: 'string', minLength: 1, maxLength: 256, title: 'Client secret', writeOnly: true },
  },
} as const;

export interface UpsCredentials {
  client_id: string;
  client_secret: string;
}

/** UPS's shipper numbers are 6 characters (the schemas' ShipperNumber: minLength = maxLength = 6). */
export const UPS_ACCOUNT_NUMBER_PATTERN = /^[A-Z0-9]{6}$/;

/**
 * Hosts per mode, from the `servers` of Rating/Shipping/Tracking/AddressValidation/Pickup
 * (which add `/api`) and of OAuthClientCredentials (host root).
 */
export const UPS_HOSTS: Record<DriverMode, string> = {
  sandbox: 'https://wwwcie.ups.com',
  production: 'https://onlinetools.ups.com',
};

/** The API versions the paths name (each yaml's `version` default / only valid value). */
export const UPS_VERSIONS = {
  rating: 'v2409',
  shipping: 'v2409',
  pickup: 'v2409',
  addressValidation: 'v2',
  tracking: 'v1',
} as const;

export function upsHost(mode: DriverMode, baseUrl?: string | null): string {
  return (baseUrl ?? UPS_HOSTS[mode]).replace(/\/+$/, '');
}

export function readUpsCredentials(credentials: Record<string, unknown>): UpsCredentials | null {
  const { client_id: id, client_secret: secret } = credentials;
  if (typeof id !== 'string' || typeof secret !== 'string' || !id || !secret) return null;
  return { client_id: id, client_secret: secret };
}
