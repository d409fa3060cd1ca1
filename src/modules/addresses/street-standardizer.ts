import { DIRECTIONALS, SECONDARY_DESIGNATORS, STATE_CODES, STATE_NAMES, STREET_SUFFIXES, TWO_WORD_DIRECTIONALS } from './pub28.js';

/**
 * USPS Publication 28 standardisation of US address lines: upper case, punctuation removed
 * (except the hyphen in a range like 123-45, the slash of 1/2 and C/O, and a decimal point),
 * the street suffix, directionals and secondary unit designators abbreviated.
 *
 * Only the last suffix word of a street name is abbreviated ("100 CIRCLE DR", "1 AVENUE OF
 * THE AMERICAS"), and a directional or suffix that is the whole street name stays spelled
 * out ("123 NORTH ST", "10 PARK").
 */

export interface StandardizedLine {
  text: string;
  /** Secondary unit designators found (APT, STE, # …), standard abbreviations. */
  designators: string[];
}

const ORDINAL = /^(\d+)(ST|ND|RD|TH)$/;
const RANGE = /^[A-Z0-9]{1,8}(-[A-Z0-9]{1,8})?$/;

/** Upper case, Pub 28 punctuation rules, single spaces. */
export function cleanLine(input: string): string {
  let s = input.toUpperCase();
  s = s.replace(/\bC\s*\/\s*O\b/g, '\u0001'); // protect "C/O"
  s = s.replace(/\b(?:[A-Z]\.){2,}/g, (m) => m.replace(/\./g, '')); // P.O. → PO, N.E. → NE
  s = s.replace(/(\d)\.(\d)/g, '$1\u0002$2'); // protect decimals (39.2 RD)
  s = s.replace(/['’`]/g, ''); // O'BRIEN → OBRIEN
  s = s.replace(/(\d)\s*\/\s*(\d)/g, '$1\u0003$2'); // protect fractions (1/2)
  s = s.replace(/#/g, ' # ');
  s = s.replace(/([A-Z0-9])-(?=[A-Z0-9])/g, '$1\u0004'); // protect inner hyphens (123-45)
  s = s.replace(/[^A-Z0-9#&\s\u0001-\u0004\u00C0-\u024F]/g, ' '); // everything else is a separator
  s = s
    .replace(/\u0001/g, 'C/O')
    .replace(/\u0002/g, '.')
    .replace(/\u0003/g, '/')
    .replace(/\u0004/g, '-');
  return s.replace(/\s+/g, ' ').trim();
}

interface UnitParse {
  /** Tokens before the units. */
  end: number;
  units: string[];
  designators: string[];
}

/**
 * Strips secondary units off the end of a token list ("APT 4B", "STE 200", "# 3", "4TH
 * FLOOR", "REAR"), never eating into the first `minEnd` tokens (the street itself).
 */
function parseTrailingUnits(tokens: readonly string[], minEnd: number): UnitParse {
  const units: string[] = [];
  const designators: string[] = [];
  let end = tokens.length;
  const push = (unit: string, designator: string, used: number) => {
    units.unshift(unit);
    designators.unshift(designator);
    end -= used;
  };
  for (;;) {
    const last = tokens[end - 1];
    const prev = tokens[end - 2];
    const prevDesignator = prev === undefined ? undefined : SECONDARY_DESIGNATORS.get(prev);
    const ordinal = prev === undefined ? null : ORDINAL.exec(prev);
    if (end - 2 >= minEnd && ordinal && SECONDARY_DESIGNATORS.get(last)?.abbreviation === 'FL') {
      push(`FL ${ordinal[1]}`, 'FL', 2); // "4TH FLOOR" → "FL 4"
    } else if (end - 2 >= minEnd && prev === '#' && RANGE.test(last)) {
      const before = SECONDARY_DESIGNATORS.get(tokens[end - 3] ?? '');
      if (before?.ranged && end - 3 >= minEnd)
        push(`${before.abbreviation} ${last}`, before.abbreviation, 3); // APT # 4
      else push(`# ${last}`, '#', 2);
    } else if (end - 2 >= minEnd && prevDesignator?.ranged && RANGE.test(last) && !SECONDARY_DESIGNATORS.has(last)) {
      push(`${prevDesignator.abbreviation} ${last}`, prevDesignator.abbreviation, 2);
    } else if (end - 1 >= minEnd && last !== undefined && SECONDARY_DESIGNATORS.get(last)?.ranged === false) {
      const d = SECONDARY_DESIGNATORS.get(last)!;
      push(d.abbreviation, d.abbreviation, 1);
    } else {
      return { end, units, designators };
    }
  }
}

function directional(tokens: readonly string[], at: number): { abbreviation: string; length: number } | null {
  const two = tokens[at + 1] === undefined ? undefined : TWO_WORD_DIRECTIONALS.get(`${tokens[at]} ${tokens[at + 1]}`);
  if (two) return { abbreviation: two, length: 2 };
  const one = DIRECTIONALS.get(tokens[at] ?? '');
  return one ? { abbreviation: one, length: 1 } : null;
}

function trailingDirectional(tokens: readonly string[]): { abbreviation: string; length: number } | null {
  if (tokens.length >= 2) {
    const two = TWO_WORD_DIRECTIONALS.get(`${tokens[tokens.length - 2]} ${tokens[tokens.length - 1]}`);
    if (two) return { abbreviation: two, length: 2 };
  }
  const one = DIRECTIONALS.get(tokens[tokens.length - 1] ?? '');
  return one ? { abbreviation: one, length: 1 } : null;
}

/** A street name alone ("MAIN", "PARK", "NORTH") cannot lose its only word to an abbreviation rule. */
function isNameWord(token: string | undefined): boolean {
  return token !== undefined && !STREET_SUFFIXES.has(token) && !DIRECTIONALS.has(token);
}

/** Standardises the street part: directionals and the suffix. */
function standardizeStreetName(name: string[]): string[] {
  let core = [...name];
  let post: string | null = null;
  const trailing = trailingDirectional(core);
  if (trailing && core.length - trailing.length >= 1) {
    post = trailing.abbreviation;
    core = core.slice(0, core.length - trailing.length);
  }
  let pre: string | null = null;
  // "SOUTH WEST STREET": the two-word SW would leave no name, so try the one-word S first.
  const two = directional(core, 0);
  const one = DIRECTIONALS.get(core[0] ?? '');
  const candidates = [two, one ? { abbreviation: one, length: 1 } : null];
  for (const leading of candidates) {
    if (!leading) continue;
    const rest = core.slice(leading.length);
    if (rest.length >= 2 || (rest.length === 1 && isNameWord(rest[0]))) {
      pre = leading.abbreviation;
      core = rest;
      break;
    }
  }
  if (core.length >= 2) {
    const suffix = STREET_SUFFIXES.get(core[core.length - 1]);
    if (suffix) core[core.length - 1] = suffix;
  }
  return [...(pre ? [pre] : []), ...core, ...(post ? [post] : [])];
}

/** Standardises a delivery address line (street1). */
export function standardizeStreetLine(input: string): StandardizedLine {
  const line = cleanLine(input);
  const poBox = /^(?:P\s?O|POST OFFICE|POB)\s?BOX\s?([A-Z0-9-]+)$/.exec(line);
  if (poBox) return { text: `PO BOX ${poBox[1]}`, designators: [] };
  const rural = /^(?:RR|R R|RURAL ROUTE|RURAL RT|RURAL RTE)\s?(\d+)\s+(?:BOX|BX)\s?([A-Z0-9-]+)$/.exec(line);
  if (rural) return { text: `RR ${rural[1]} BOX ${rural[2]}`, designators: [] };
  const contract = /^(?:HC|HIGHWAY CONTRACT|STAR ROUTE)\s?(\d+)\s+(?:BOX|BX)\s?([A-Z0-9-]+)$/.exec(line);
  if (contract) return { text: `HC ${contract[1]} BOX ${contract[2]}`, designators: [] };

  const tokens = line === '' ? [] : line.split(' ');
  let houseEnd = 0;
  if (tokens[0] !== undefined && /^\d/.test(tokens[0])) {
    houseEnd = /^\d+\/\d+$/.test(tokens[1] ?? '') ? 2 : 1;
  }
  const { end, units, designators } = parseTrailingUnits(tokens, houseEnd + 1);
  const name = standardizeStreetName(tokens.slice(houseEnd, end));
  return { text: [...tokens.slice(0, houseEnd), ...name, ...units].join(' '), designators };
}

/**
 * Standardises street2: a line of secondary units ("Apartment 4b" → "APT 4B", "#5" → "# 5",
 * "2nd Floor" → "FL 2"); a second street line is standardised as one; anything else (a
 * "C/O" line, a building name) is only cleaned.
 */
export function standardizeSecondaryLine(input: string): StandardizedLine {
  const line = cleanLine(input);
  const tokens = line === '' ? [] : line.split(' ');
  const units = parseTrailingUnits(tokens, 0);
  if (units.end === 0 && units.units.length > 0) return { text: units.units.join(' '), designators: units.designators };
  if (tokens[0] !== undefined && /^\d/.test(tokens[0]) && tokens.length > 1) return standardizeStreetLine(input);
  return { text: line, designators: [] };
}

/** Upper case, punctuation removed (ST. LOUIS → ST LOUIS). */
export function standardizeCity(input: string): string {
  return cleanLine(input).replace(/[#&]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** A state name or abbreviation → its two-letter code; null when unknown. */
export function standardizeState(input: string): string | null {
  const s = cleanLine(input).replace(/[#&]/g, '').replace(/\s+/g, ' ').trim();
  if (STATE_CODES.has(s)) return s;
  return STATE_NAMES.get(s) ?? null;
}

const CITY_ALIASES: Record<string, string> = { SAINT: 'ST', SAINTE: 'STE', FORT: 'FT', MOUNT: 'MT' };

/** Comparison key for city names: "St. Louis", "SAINT LOUIS" and "Saint-Louis" compare equal. */
export function cityKey(city: string): string {
  return standardizeCity(city)
    .replace(/-/g, ' ')
    .split(' ')
    .map((w) => CITY_ALIASES[w] ?? w)
    .join('');
}
