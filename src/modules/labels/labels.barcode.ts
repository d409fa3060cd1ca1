import bwipjs from 'bwip-js';
import countries from 'i18n-iso-countries';
import { groupTrackingNumber, labelText } from './labels.text.js';
import type { LabelData } from './labels.types.js';

/**
 * What the label encodes, and how each format draws it.
 *
 * Barcode (the one a scanner reads):
 * - USPS: GS1-128 as on IMpb labels. To a US ZIP: `(420)ZIP5` (the routing) then FNC1 and the
 *   22-digit tracking number, whose first two digits (92–95) are its own application identifier
 *   — so a scanner returns `420ZIP5<GS>92…`, and the tracking number is the element after the
 *   group separator. Abroad (no US ZIP): GS1-128 of the tracking number alone.
 * - UPS, FedEx, DHL Express: plain Code 128 of the tracking number, which a scanner returns as is.
 * Anything that does not fit those shapes (a malformed number) falls back to plain Code 128.
 *
 * Routing code (printed large above the barcode; our own choice, no carrier sort plan exists here):
 * - USPS: `420 ZIP5` (the IMpb routing element) or `INTL <country>` abroad.
 * - UPS, FedEx: the GS1 ship-to postal string `421 <ISO numeric country> <postal code>`.
 * - DHL Express: a service-area code `<country>-<first three letters of the city>` (e.g. DE-BER).
 */
export interface LabelBarcode {
  symbology: 'gs1-128' | 'code128';
  /** The ^BC field of the ZPL label (in mode N, Code 128 invocation codes: `>;` subset C, `>8` FNC1). */
  zplData: string;
  /** The ^BC mode: `N` (subsets as the invocation codes say) or `A` (the printer picks the shortest). */
  zplMode: 'N' | 'A';
  /** Bar and space widths in modules, alternating, starting with a bar. */
  bars: number[];
  /** Total width in modules (without quiet zones). */
  modules: number;
  /** What a scanner hands back (FNC1 separators as ASCII 29). */
  decodesTo: string;
}

function usZip5(data: LabelData): string | null {
  if (labelText(data.ship_to.country).toUpperCase() !== 'US') return null;
  const digits = (data.ship_to.postal_code ?? '').replace(/[^0-9]/g, '');
  return digits.length === 5 || digits.length === 9 ? digits.slice(0, 5) : null;
}

export function routingCode(data: LabelData): string {
  const country = labelText(data.ship_to.country).toUpperCase();
  const postal = labelText(data.ship_to.postal_code).toUpperCase();
  switch (data.carrier) {
    case 'usps': {
      const zip = usZip5(data);
      return zip ? `420 ${zip}` : `INTL ${country}`;
    }
    case 'dhl_express': {
      const city = labelText(data.ship_to.city).toUpperCase().normalize('NFKD').replace(/[^A-Z]/g, '');
      return `${country}-${(city || 'XXX').slice(0, 3).padEnd(3, 'X')}`;
    }
    default: {
      const numeric = countries.alpha2ToNumeric(country) ?? '000';
      return `421 ${numeric} ${postal}`.trim();
    }
  }
}

function code128(text: string): LabelBarcode {
  // In a ^BC field "^" and "~" would end the field and ">" introduces an invocation code: a
  // tracking number never has them, malformed data prints "?" instead (and decodes as such).
  const safe = text.replace(/[\^~>]/g, '?');
  const sbs = (bwipjs.raw({ bcid: 'code128', text: safe }) as Array<{ sbs: number[] }>)[0]!.sbs;
  // The ZPL must print the symbol bwip-js drew (its width is what the layout planned for):
  // an even run of digits is subset C from the start (">;", half as wide); anything else goes
  // in ZPL's automatic mode, where the printer picks the subsets that make the code shortest,
  // as bwip-js does. (Mode N without a start code prints it all in subset B: a UPS 1Z… number
  // came out 233 modules wide instead of 189, ran past the label's right edge and did not scan.)
  const auto = !/^([0-9]{2})+$/.test(safe);
  return {
    symbology: 'code128',
    zplData: auto ? safe : `>;${safe}`,
    zplMode: auto ? 'A' : 'N',
    bars: sbs,
    modules: sbs.reduce((a, b) => a + b, 0),
    decodesTo: safe,
  };
}

export function labelBarcode(data: LabelData): LabelBarcode {
  const tn = data.tracking_number;
  if (data.carrier === 'usps' && /^9[2-5][0-9]{20}$/.test(tn)) {
    const zip = usZip5(data);
    const gs1 = `${zip ? `(420)${zip}` : ''}(${tn.slice(0, 2)})${tn.slice(2)}`;
    const sbs = (bwipjs.raw({ bcid: 'gs1-128', text: gs1 }) as Array<{ sbs: number[] }>)[0]!.sbs;
    return {
      symbology: 'gs1-128',
      zplData: zip ? `>;>8420${zip}>8${tn}` : `>;>8${tn}`,
      zplMode: 'N',
      bars: sbs,
      modules: sbs.reduce((a, b) => a + b, 0),
      decodesTo: zip ? `420${zip}\x1d${tn}` : tn,
    };
  }
  // Code 128 carries printable ASCII; a tracking number is always that, but never crash on data.
  const text = labelText(tn).replace(/[^\x20-\x7e]/g, '?') || '?';
  return code128(text);
}

/** The line above the barcode, as carriers title it. */
export function barcodeHeading(data: LabelData): string {
  switch (data.carrier) {
    case 'usps':
      return 'USPS TRACKING #';
    case 'ups':
      return 'UPS TRACKING #';
    case 'fedex':
      return 'FEDEX TRK#';
    case 'dhl_express':
      return 'WAYBILL';
    default:
      return 'TRACKING #';
  }
}

export function humanReadableTracking(data: LabelData): string {
  return groupTrackingNumber(data.carrier, data.tracking_number);
}
