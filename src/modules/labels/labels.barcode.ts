import bwipjs from 'bwip-js';
import { labelText } from './labels.text.js';
import type { LabelData } from './labels.types.js';

/**
 * What the label encodes, and how each format draws it. What goes into the barcode, the heading
 * above it, the routing code and the printed tracking number come from the carrier's definition
 * (`label` in `carriers/<slug>/index.ts`, carried here as `data.carrier_parts`); this file only
 * draws them:
 * - `gs1-128`: the element strings `(AI)data…`; a scanner returns them joined by FNC1 (ASCII 29).
 *   In ZPL, when every element is digits of even length (USPS IMpb), subset C with FNC1s.
 * - `code128`: the text as is.
 * Anything that does not fit those shapes (GS1 elements that are not all digits, data outside
 * printable ASCII) falls back to plain Code 128.
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
  const spec = data.carrier_parts.barcode;
  if (spec.symbology === 'gs1-128') {
    const elements = spec.elements;
    if (elements.length > 0 && elements.every((e) => /^[0-9]{2,4}$/.test(e.ai) && /^([0-9]{2})+$/.test(e.ai + e.data))) {
      const gs1 = elements.map((e) => `(${e.ai})${e.data}`).join('');
      const sbs = (bwipjs.raw({ bcid: 'gs1-128', text: gs1 }) as Array<{ sbs: number[] }>)[0]!.sbs;
      return {
        symbology: 'gs1-128',
        zplData: `>;${elements.map((e) => `>8${e.ai}${e.data}`).join('')}`,
        zplMode: 'N',
        bars: sbs,
        modules: sbs.reduce((a, b) => a + b, 0),
        decodesTo: elements.map((e) => e.ai + e.data).join('\x1d'),
      };
    }
    return code128(printableAscii(elements.map((e) => e.ai + e.data).join('')));
  }
  return code128(printableAscii(spec.text));
}

/** Plain Code 128 of a text (printable ASCII; anything else prints as "?"): customs documents' tracking number. */
export function code128Barcode(text: string): LabelBarcode {
  return code128(printableAscii(text));
}

/** Code 128 carries printable ASCII; a tracking number is always that, but never crash on data. */
function printableAscii(value: string): string {
  return labelText(value).replace(/[^\x20-\x7e]/g, '?') || '?';
}

/** The line above the barcode, as the carrier titles it. */
export function barcodeHeading(data: LabelData): string {
  return labelText(data.carrier_parts.heading);
}

/** The routing code printed large above the barcode. */
export function routingCode(data: LabelData): string {
  return labelText(data.carrier_parts.routing_code);
}

export function humanReadableTracking(data: LabelData): string {
  return labelText(data.carrier_parts.tracking_text);
}
