/**
 * Text as every label format can print it.
 *
 * PDF labels use the standard Helvetica fonts (no font embedded: small files, fast rendering),
 * which encode WinAnsi (Latin-1 plus a few typographic marks); the PNG uses DejaVu Sans, and
 * ZPL's font 0 covers the same Latin range. So all three formats get the same text: Latin-1 and
 * the WinAnsi extras as they are (ü, é, ß, —), other Latin letters without their accents
 * (ł → l is not decomposable and becomes "?", Ő → O is), and anything else — CJK, Cyrillic,
 * Arabic — as "?" per character. Carriers want international addresses in Latin script anyway
 * (UPU S42); a caller who sends "東京" gets "??" on the label rather than a crash or a wrong
 * reading (a generic transliterator would read Japanese kanji as Chinese pinyin).
 * Control characters (NUL included) become spaces.
 */

/** WinAnsi's characters outside Latin-1 (code points 0x80–0x9F of cp1252). */
const WIN_ANSI_EXTRAS = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

function printable(ch: string): boolean {
  const cp = ch.codePointAt(0)!;
  return (cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff) || WIN_ANSI_EXTRAS.has(ch);
}

export function labelText(value: string | null | undefined): string {
  if (!value) return '';
  let out = '';
  for (const ch of value.normalize('NFC')) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp === 0x2028 || cp === 0x2029) out += ' ';
    else if (printable(ch)) out += ch;
    else {
      const base = ch.normalize('NFKD').replace(/\p{M}+/gu, '');
      out += base.length > 0 && [...base].every(printable) ? base : '?';
    }
  }
  return out.replace(/\s+/g, ' ').trim();
}

/** "2 LB 3.2 OZ" — US carriers print pounds and ounces; the kilograms follow for the rest of the world. */
export function formatWeight(weightOz: number): string {
  const oz = Math.max(0, Number.isFinite(weightOz) ? weightOz : 0);
  const lb = Math.floor(oz / 16);
  const rest = Math.round((oz - lb * 16) * 10) / 10;
  const kg = (oz * 0.028349523125).toFixed(2);
  return `${lb} LB ${rest === 16 ? '16' : rest} OZ (${kg} KG)`;
}
