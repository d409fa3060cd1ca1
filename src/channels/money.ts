/**
 * Store platforms send amounts as decimals (`"19.99"`, `"55.9900"`, or JSON numbers such as
 * WooCommerce's `3.3333333333333335`); orders keep minor units. One conversion for every platform.
 */

/** Digits after the decimal point of a currency (JPY 0, USD 2, KWD 3), 2 when unknown. */
export function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** A number as plain decimal digits (`1e-7` would not read as one). */
function plainDecimal(n: number): string {
  const s = String(n);
  return /e/i.test(s) ? n.toFixed(20).replace(/\.?0+$/, '') : s;
}

/**
 * A decimal amount in minor units of `currency`, by string arithmetic so `"0.29"` is 29 and never
 * 28.999…, rounded half up on the first digit past the currency's; null when it is not a decimal.
 */
export function toMinorUnits(amount: unknown, currency: string): number | null {
  const text = typeof amount === 'number' ? (Number.isFinite(amount) ? plainDecimal(amount) : '') : typeof amount === 'string' ? amount.trim() : '';
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) return null;
  const digits = fractionDigits(currency);
  const frac = (m[3] ?? '').padEnd(digits + 1, '0');
  let minor = Number(m[2]) * 10 ** digits + Number(frac.slice(0, digits) || '0');
  if (Number(frac[digits]) >= 5) minor += 1;
  return m[1] === '-' ? -minor : minor;
}
