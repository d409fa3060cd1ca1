/**
 * Reading a carrier's parsed JSON without trusting its shape: every real driver's parsers use
 * these instead of casts, so a missing or mistyped field becomes null/empty, never a throw.
 */

export type Json = Record<string, unknown>;

export function obj(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

/** A string, or a number as its decimal text (carriers mix the two). */
export function str(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return null;
}

/** A finite number, or numeric text. */
export function num(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

/** A list; a bare value is a list of one (some carriers send a list of one that way). */
export function asList<T = Json>(value: unknown): T[] {
  if (value === undefined || value === null || value === '') return [];
  return (Array.isArray(value) ? value : [value]) as T[];
}

export function clip(value: string | undefined | null, max: number): string | undefined {
  const v = value?.trim();
  return v ? v.slice(0, max) : undefined;
}
