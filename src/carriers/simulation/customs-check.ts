import { VAGUE_CUSTOMS_DESCRIPTIONS, type PurchaseRequest } from '../types.js';

/**
 * How a carrier's customs desk reads a declaration, for the simulated carriers (every one of
 * them: the kit's adapter asks this before it sells a label). Pure; a refusal is a business
 * rejection (`{ok: false, rejected: true}`), which the platform answers as 422 carrier_rejected.
 *
 * The platform refuses the vaguest words itself; carriers publish longer
 * lists of descriptions their brokers cannot clear (UPS, FedEx and DHL each list "clothing",
 * "electronics", "spare parts", "accessories"…), so a description the platform lets through can
 * still be refused here, as it would be by a real carrier.
 */
const UNACCEPTABLE_DESCRIPTIONS = new Set([
  // The platform's own list (a caller of the adapter that skipped the platform's check).
  ...VAGUE_CUSTOMS_DESCRIPTIONS,
  // The carriers' longer lists.
  'accessories',
  'apparel',
  'clothes',
  'clothing',
  'electronics',
  'equipment',
  'general merchandise',
  'gift items',
  'household goods',
  'personal effects',
  'personal items',
  'promotional items',
  'spare parts',
  'store merchandise',
  'supplies',
  'used goods',
]);

/**
 * Destinations whose customs need the HS tariff number of every item of goods (documents
 * exempt): the European Union's 27 member states (ICS2 asks for at least six digits since
 * 2023) and the United Kingdom.
 */
const HS_REQUIRED_COUNTRIES = new Set([
  'AT',
  'BE',
  'BG',
  'HR',
  'CY',
  'CZ',
  'DK',
  'EE',
  'FI',
  'FR',
  'DE',
  'GR',
  'HU',
  'IE',
  'IT',
  'LV',
  'LT',
  'LU',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SK',
  'SI',
  'ES',
  'SE',
  'GB',
]);

export function hsTariffNumberRequired(destinationCountry: string, contentsType: string): boolean {
  return contentsType !== 'documents' && HS_REQUIRED_COUNTRIES.has(destinationCountry.toUpperCase());
}

/** The carrier's refusal of the purchase's customs (reason and field), or null when it would clear. */
export function customsRefusal(carrierName: string, request: Pick<PurchaseRequest, 'customs' | 'route' | 'ship_to'>): { reason: string; field: string } | null {
  const { customs } = request;
  const needed = !request.route.domestic || ['AA', 'AE', 'AP'].includes((request.ship_to.state ?? '').toUpperCase());
  if (!customs) return needed ? { reason: `${carrierName} needs a customs declaration for this parcel`, field: 'customs' } : null;
  for (const [i, item] of customs.items.entries()) {
    const description = item.description.trim().toLowerCase();
    if (UNACCEPTABLE_DESCRIPTIONS.has(description)) {
      return {
        reason: `${carrierName} customs cannot clear the description "${item.description.trim()}" of item ${i + 1}: describe what it is and what it is made of (e.g. "men's cotton T-shirt")`,
        field: `customs.items[${i}].description`,
      };
    }
  }
  const destination = request.route.destination_country;
  if (hsTariffNumberRequired(destination, customs.contents_type)) {
    const missing = customs.items.findIndex((item) => !item.hs_tariff_number);
    if (missing >= 0) {
      return {
        reason: `${carrierName} needs the HS tariff number of every item to ${destination} (item ${missing + 1} has none)`,
        field: `customs.items[${missing}].hs_tariff_number`,
      };
    }
  }
  return null;
}
