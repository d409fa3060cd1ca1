import type { OrderRow } from './orders.tables.js';
import { orderNumberOf } from './orders.sort.js';

/** The export's row cap: beyond it the file holds the first rows in the list's sort and says so. */
export const EXPORT_MAX_ROWS = 10_000;

/** The response header set when more orders matched than the file holds. */
export const TRUNCATED_HEADER = 'x-export-truncated';

export const CSV_COLUMNS = [
  'Order number',
  'Date',
  'Recipient',
  'Destination',
  'Items',
  'Weight (oz)',
  'Requested service',
  'Total',
  'Currency',
  'Status',
] as const;

// A spreadsheet runs a cell that starts with one of these as a formula (CSV injection, see
// docs/api-conventions.md, "Files"): such a cell is prefixed with a single quote, which the
// spreadsheet shows as text.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: formula-neutralised, then quoted with its quotes doubled (RFC 4180). */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '""';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}

export function csvLine(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/** The digits after the decimal point of a currency (2 for USD, 0 for JPY). */
function minorDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** The lines' prices times quantities, per currency: `{total, currency}`; several currencies read as one text. */
export function orderTotal(lines: OrderRow['line_items']): { total: string; currency: string } {
  const sums = new Map<string, number>();
  for (const line of lines) {
    if (!line.unit_price) continue;
    sums.set(line.unit_price.currency, (sums.get(line.unit_price.currency) ?? 0) + line.unit_price.amount * line.quantity);
  }
  const parts = [...sums].map(([currency, minor]) => ({ currency, total: (minor / 10 ** minorDigits(currency)).toFixed(minorDigits(currency)) }));
  if (parts.length === 0) return { total: '', currency: '' };
  if (parts.length === 1) return parts[0]!;
  return { total: parts.map((p) => `${p.total} ${p.currency}`).join(' + '), currency: '' };
}

export function destinationOf(address: OrderRow['ship_to']): string {
  return [address.city, [address.state, address.postal_code].filter(Boolean).join(' '), address.country].filter(Boolean).join(', ');
}

export function csvRow(row: OrderRow): string {
  const { total, currency } = orderTotal(row.line_items);
  return csvLine([
    orderNumberOf(row),
    new Date(row.created_at).toISOString(),
    row.ship_to.name ?? row.customer_name ?? '',
    destinationOf(row.ship_to),
    row.line_items.reduce((n, l) => n + l.quantity, 0),
    row.parcel.weight_oz,
    row.requested_service ?? '',
    total,
    currency,
    row.status,
  ]);
}

/**
 * The whole file: a UTF-8 byte order mark (spreadsheets otherwise guess the encoding of
 * non-ASCII names), the header, one CRLF-ended line per order.
 */
export function ordersCsv(rows: readonly OrderRow[]): string {
  return `\uFEFF${csvLine(CSV_COLUMNS)}${rows.map(csvRow).join('')}`;
}
