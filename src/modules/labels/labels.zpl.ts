import { layoutLabel, type Primitive } from './labels.layout.js';
import { DPI, LABEL_HEIGHT_PT, LABEL_WIDTH_PT } from './labels.page.js';
import type { LabelData } from './labels.types.js';

/**
 * ZPL II for 203 dpi printers (Zebra ZPL II Programming Guide), one ^XA … ^XZ format per label,
 * written from the same layout as the PDF and PNG:
 * - ^CI28: field data is UTF-8 (in font 0's Latin range: the layout transliterates Cyrillic and
 *   prints CJK as "?", see labels.text.ts); ^PW812 ^LL1218: a 4×6 in label at 8 dots/mm; ^LH0,0.
 * - Text: scalable font 0 (^A0N,h,w) in a one-line field block (^FB) for alignment; ^FH lets
 *   "_", "^" and "~" in data be written as hex (_5F, _5E, _7E) so they cannot end the field.
 *   White-on-black text is a reversed field (^FR) over a filled box.
 * - Boxes and rules: ^GB; a filled box is one whose border is as thick as its smaller side.
 * - Barcode: ^BY<module dots> ^BCN,<height>,N,N,N,<mode> (Code 128, no printed interpretation
 *   line: the label prints its own grouped text). Mode N with invocation codes in the data
 *   (">;" starts subset C, ">8" is FNC1: GS1-128 for USPS IMpb and all-digit numbers), or mode
 *   A (automatic subsets, the shortest code) for the rest; either way the symbol has the width
 *   the layout computed from bwip-js's encoding.
 */
const S = DPI / 72;
const dots = (pt: number) => Math.round(pt * S);

function fieldText(value: string): string {
  return value.replace(/[_^~]/g, (c) => `_${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function command(p: Primitive): string {
  switch (p.kind) {
    case 'box': {
      const w = Math.max(1, dots(p.w));
      const h = Math.max(1, dots(p.h));
      const t = p.fill ? Math.min(w, h) : Math.min(w, h, Math.max(1, dots(p.line)));
      return `^FO${dots(p.x)},${dots(p.y)}^GB${w},${h},${t},B^FS`;
    }
    case 'text': {
      const h = dots(p.size);
      const just = p.align === 'center' ? 'C' : p.align === 'right' ? 'R' : 'L';
      return `^FO${dots(p.x)},${dots(p.y)}^A0N,${h},${h}^FB${dots(p.width)},1,0,${just},0${p.inverse ? '^FR' : ''}^FH^FD${fieldText(p.text)}^FS`;
    }
    case 'barcode':
      return `^FO${dots(p.x)},${dots(p.y)}^BY${p.moduleDots}^BCN,${dots(p.h)},N,N,N,${p.barcode.zplMode}^FD${p.barcode.zplData}^FS`;
  }
}

export function renderZpl(data: LabelData): string {
  return [
    '^XA',
    '^CI28',
    `^PW${dots(LABEL_WIDTH_PT)}`,
    `^LL${dots(LABEL_HEIGHT_PT)}`,
    '^LH0,0',
    ...layoutLabel(data, { latin: true }).map(command),
    '^XZ',
  ].join('\n');
}
