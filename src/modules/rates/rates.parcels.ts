import type { ErrorDetail } from '../../platform/errors.js';
import { checkParcelShape } from '../packages/index.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `parcel` or `parcels` (a multi-piece shipment), exactly one, each piece with its dimensions or
 * a `package_id`. Accepts any JSON value (a route's body checks run on bodies the schema refused).
 */
export function checkParcelsChoice(body: unknown): ErrorDetail[] {
  if (!isObject(body)) return [];
  if (body.parcel !== undefined && body.parcels !== undefined) return [{ field: 'parcels', message: 'give parcel or parcels, not both' }];
  if (body.parcel === undefined && body.parcels === undefined) return [{ field: 'parcel', message: 'is required (or give parcels)' }];
  if (Array.isArray(body.parcels)) return body.parcels.flatMap((p, i) => checkParcelShape(p, `parcels[${i}]`));
  return checkParcelShape(body.parcel);
}

/** The pieces of a checked body: `parcels`, else the one `parcel`. */
export function piecesOf<P>(body: { parcel?: P; parcels?: P[] }): P[] {
  return body.parcels ?? [body.parcel!];
}
