import type { TObject } from '@sinclair/typebox';
import type { AccountMode, HealthStatus } from './carrier-accounts.tables.js';

/** An account as a driver sees it: credentials opened, nothing of the database. */
export interface ConnectedAccount {
  id: string;
  carrier: string;
  mode: AccountMode;
  accountNumber: string | null;
  credentials: Record<string, unknown>;
  baseUrl: string | null;
}

export interface HealthCheck {
  status: Exclude<HealthStatus, 'unknown'>;
  latencyMs: number;
  message: string | null;
}

/**
 * What the carrier-accounts module needs of a carrier's `api` driver: its credentials schema
 * (validation, masking, GET /v1/carrier-types) and a connection test (a token, or the
 * carrier's cheapest authenticated call). Handed in where the app is composed.
 */
export interface ApiDriverEntry {
  carrier: string;
  credentialsSchema: TObject;
  test(account: ConnectedAccount): Promise<HealthCheck>;
}

export type ApiDriverCatalogue = ReadonlyMap<string, ApiDriverEntry>;
