import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSpecChecker, type SpecChecker } from './carrier-openapi.js';

/**
 * FedEx's published OpenAPI documents (../shared/carrier-specs/fedex, JSON as FedEx publishes
 * them), turned into request/response validators for the fake FedEx server.
 *
 * One quirk, handled without editing anything: every request body is `oneOf` the full schema
 * plus example-only schemas (`{example: …}`, which match anything), so no body can match exactly
 * one branch. Requests are validated against the full schema, the first branch.
 */

/** `FEDEX_SPECS_DIR` points elsewhere (or at nothing, to prove the tests run without the documents). */
export const FEDEX_SPEC_DIR = process.env.FEDEX_SPECS_DIR ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../../shared/carrier-specs/fedex');

/** The documents the driver speaks, keyed by a short name. */
const FILES = {
  authorization: 'authorization-v1-APIAuthorization-Resource.json',
  rates: 'rates-transit-times-v1-RateQuotes-Resource.json',
  ship: 'ship-v1-Shipment-Resource.json',
  track: 'track-v1-TrackingNumbers-Resource.json',
  address: 'address-validation-v1-Addresses-Resource.json',
  pickup: 'pickup-request-v1-Pickup-Resource.json',
  close: 'ground-end-of-day-close-v1-ShipmentCloseAPI-Resource.json',
} as const;

type Doc = Record<string, any>;

export type FedexSpecs = SpecChecker;

/** The media type's schema, or for a `oneOf` of full + example schemas, the full one. */
function fullSchemaRef(doc: Doc, schema: Doc): string | null {
  let s = schema;
  let ref: string | null = null;
  for (let hops = 0; s?.$ref && hops < 5; hops++) {
    ref = s.$ref as string;
    s = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o: Doc, k) => o?.[k], doc);
  }
  if (Array.isArray(s?.oneOf) && s.oneOf[0]?.$ref) return s.oneOf[0].$ref as string;
  return ref;
}

export function loadFedexSpecs(): FedexSpecs | null {
  if (!existsSync(FEDEX_SPEC_DIR)) return null;
  const docs: Record<string, Doc> = {};
  for (const [name, file] of Object.entries(FILES)) docs[name] = JSON.parse(readFileSync(resolve(FEDEX_SPEC_DIR, file), 'utf8'));
  return createSpecChecker(docs, { idPrefix: 'fedex-', carrier: 'FedEx', requestRef: fullSchemaRef });
}
