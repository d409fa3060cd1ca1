/**
 * Text as the label and document formats print it.
 *
 * `labelText` keeps every script: the PDF writers draw what the standard Helvetica fonts
 * cannot show (Cyrillic, Greek, CJK…) with embedded fonts (DejaVu Sans, then Noto Sans JP for
 * what DejaVu lacks, subset by pdfkit so a file stays small), and the PNG rasterises the same
 * fonts (labels.fonts.ts). Control characters (NUL included) become spaces.
 *
 * `latinText` is for ZPL, whose resident font 0 covers only Latin: Latin-1 and the WinAnsi
 * extras as they are (ü, é, ß, —), other Latin letters without their accents (Ő → O; ł is not
 * decomposable and becomes "?"), Cyrillic transliterated letter by letter (ICAO Doc 9303, as
 * passports print names: Москва → Moskva), and anything else — CJK, Arabic — as "?" per
 * character. A generic transliterator would read Japanese kanji as Chinese pinyin, so CJK is
 * not guessed at; a ZPL printer would need a downloaded CJK font, which this service does not
 * send. Carriers want international addresses in Latin script anyway (UPU S42).
 */

/** WinAnsi's characters outside Latin-1 (code points 0x80–0x9F of cp1252), in byte order. */
const WIN_ANSI_EXTRA_CHARS = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
const WIN_ANSI_EXTRA_BYTES = [
  0x80, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8e, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9e,
  0x9f,
];
const WIN_ANSI_EXTRAS = new Map([...WIN_ANSI_EXTRA_CHARS].map((ch, i) => [ch, WIN_ANSI_EXTRA_BYTES[i]!]));

/** The character's byte in WinAnsiEncoding (cp1252), or undefined when it has none (see isWinAnsi). */
export function winAnsiByte(ch: string): number | undefined {
  const cp = ch.codePointAt(0)!;
  if ((cp >= 0x20 && cp <= 0x7e) || (cp >= 0xa0 && cp <= 0xff)) return cp;
  return WIN_ANSI_EXTRAS.get(ch);
}

/** Whether the standard PDF fonts (WinAnsi encoding) and ZPL's font 0 print the character as is. */
export function isWinAnsi(ch: string): boolean {
  return winAnsiByte(ch) !== undefined;
}

function isControl(cp: number): boolean {
  return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp === 0x2028 || cp === 0x2029;
}

/** The text in any script, NFC, controls as spaces, runs of space as one, trimmed. */
export function labelText(value: string | null | undefined): string {
  if (!value) return '';
  let out = '';
  for (const ch of value.normalize('NFC')) out += isControl(ch.codePointAt(0)!) ? ' ' : ch;
  return out.replace(/\s+/g, ' ').trim();
}

/** ICAO Doc 9303 transliteration of Russian, Ukrainian and Belarusian Cyrillic. */
const CYRILLIC: Record<string, string> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'i',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: 'ie',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'iu',
  я: 'ia',
  є: 'ie',
  і: 'i',
  ї: 'i',
  ґ: 'g',
  ў: 'u',
};

function transliterated(ch: string): string | undefined {
  const lower = ch.toLowerCase();
  const latin = CYRILLIC[lower];
  if (latin === undefined) return undefined;
  return ch === lower || latin.length === 0 ? latin : latin[0]!.toUpperCase() + latin.slice(1);
}

/** The text as ZPL's Latin font prints it (see above): the same cleaning as labelText first. */
export function latinText(value: string | null | undefined): string {
  let out = '';
  for (const ch of labelText(value)) {
    if (isWinAnsi(ch)) {
      out += ch;
      continue;
    }
    const cyrillic = transliterated(ch);
    if (cyrillic !== undefined) {
      out += cyrillic;
      continue;
    }
    const base = ch.normalize('NFKD').replace(/\p{M}+/gu, '');
    out += base.length > 0 && [...base].every(isWinAnsi) ? base : '?';
  }
  return out;
}

/** "2 LB 3.2 OZ" — US carriers print pounds and ounces; the kilograms follow for the rest of the world. */
export function formatWeight(weightOz: number): string {
  const oz = Math.max(0, Number.isFinite(weightOz) ? weightOz : 0);
  const lb = Math.floor(oz / 16);
  const rest = Math.round((oz - lb * 16) * 10) / 10;
  const kg = (oz * 0.028349523125).toFixed(2);
  return `${lb} LB ${rest === 16 ? '16' : rest} OZ (${kg} KG)`;
}
