/**
 * The label page's geometry, in points (a module of its own, without the layout's fonts and
 * barcode encoder, so that the label converter can be loaded at start-up without them).
 */
export const LABEL_WIDTH_PT = 288;
export const LABEL_HEIGHT_PT = 432;
/** A letter page, and where a 4×6 label sits on it (centred, near the top). */
export const LETTER = { w: 612, h: 792 };
export const LETTER_OFFSET = { x: (LETTER.w - LABEL_WIDTH_PT) / 2, y: 36 };
/** Printer resolution of the PNG and ZPL labels (8 dots/mm). */
export const DPI = 203;
