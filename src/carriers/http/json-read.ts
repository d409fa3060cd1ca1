/**
 * Reading carrier JSON we do not trust: every driver's parsers walk untyped answers with these,
 * so a missing or mistyped field reads as empty instead of throwing.
 */
export type Json = Record<string, unknown>;

/** Some carriers answer a list of one as the bare object; read both. */
export function asList<T = Json>(value: unknown): T[] {
  if (value === undefined || value === null || value === '') return [];
  return (Array.isArray(value) ? value : [value]) as T[];
}

export function obj(value: unknown): Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
}

export function str(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  return null;
}

export function clip(value: string | undefined | null, max: number): string | undefined {
  const v = value?.trim();
  return v ? v.slice(0, max) : undefined;
}
