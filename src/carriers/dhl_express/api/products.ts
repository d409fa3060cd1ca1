/**
 * The product/capability check (`GET /products`, `…ExpressProducts`): which DHL Express products
 * can carry one piece on this lane, for this account, on this date. Asked before a one-piece
 * purchase so a product DHL cannot deliver there is refused before a waybill is requested (DHL
 * describes the check for one piece only; several pieces go straight to `POST /shipments`).
 */
import type { ApiPurchaseRequest } from '../../driver.js';
import { asList, clip, obj, str } from '../../http/json-read.js';
import { isCustomsDeclarable } from './rates.js';
import { inches, poundsFromOz } from './wire.js';

export function productsPath(req: ApiPurchaseRequest, accountNumber: string): string {
  const q = new URLSearchParams({
    accountNumber,
    originCountryCode: req.ship_from.country.toUpperCase(),
    originCityName: clip(req.ship_from.city, 45) ?? '',
    destinationCountryCode: req.ship_to.country.toUpperCase(),
    destinationCityName: clip(req.ship_to.city, 45) ?? '',
    weight: String(poundsFromOz(req.parcel.weight_oz)),
    // The query's dimensions are at least 1 (its `minimum`), though a flyer or envelope is thinner:
    // rounded up to 1 there (a capability check, not a price; the shipment sends the real size).
    length: String(Math.max(1, inches(req.parcel.length_in))),
    width: String(Math.max(1, inches(req.parcel.width_in))),
    height: String(Math.max(1, inches(req.parcel.height_in))),
    plannedShippingDate: req.ship_date,
    isCustomsDeclarable: String(isCustomsDeclarable(req.ship_from.country, req.ship_to.country)),
    unitOfMeasurement: 'imperial',
  });
  const from = req.ship_from.postal_code?.trim().slice(0, 12);
  const to = req.ship_to.postal_code?.trim().slice(0, 12);
  if (from) q.set('originPostalCode', from);
  if (to) q.set('destinationPostalCode', to);
  return `/products?${q.toString()}`;
}

/** The global product codes DHL offers (null when the answer is not DHL's products shape). */
export function parseProductsResponse(body: unknown): string[] | null {
  const b = obj(body);
  if (!Array.isArray(b.products)) return null;
  return asList(b.products).flatMap((p) => {
    const code = str(obj(p).productCode);
    return code ? [code] : [];
  });
}
