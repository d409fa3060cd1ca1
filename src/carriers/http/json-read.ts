/**
 * Reading a carrier's JSON without trusting its shape: every real driver's parsers go through
 * these, so a missing or mistyped field becomes null or an empty list, never a thrown TypeError.
 */
import type { CarrierLabelImage } from '../driver.js';

export type Json = Record<string, unknown>;

/** A list, or a one-element list for a bare value (UPS answers a list of one as the object). */
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

/** A finite number, or a numeric string read as one. */
export function num(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

/** Trimmed and cut to the carrier's field length; undefined when empty. */
export function clip(value: string | undefined | null, max: number): string | undefined {
  const v = value?.trim();
  return v ? v.slice(0, max) : undefined;
}

export function phoneDigits(phone: string | undefined): string | undefined {
  const d = phone?.replace(/[^\d]/g, '');
  return d ? d.slice(0, 15) : undefined;
}

export const LABEL_MIME: Readonly<Record<CarrierLabelImage, string>> = {
  GIF: 'image/gif',
  PNG: 'image/png',
  ZPL: 'application/x-zpl',
  PDF: 'application/pdf',
};
