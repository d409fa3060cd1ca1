import type { Operations, Order } from '../api/client';

/** The order queue's state, all of it in the URL's query string so reload and Back keep it. */
export interface QueueState {
  status: string;
  archived: 'false' | 'true' | 'all';
  q: string;
  /** Calendar days (YYYY-MM-DD), both included. */
  from: string;
  to: string;
  carrier: string;
  service: string;
  country: string;
  source: string;
  /** A location id (`location_id`): the orders that ship from it. */
  location: string;
  sort: Sort;
  /** The current page's cursor (empty: the first page) and those of the pages between the first and it (for Previous). */
  cursor: string;
  back: string[];
}

export const SORTS = [
  { value: '-created_at', label: 'Newest first' },
  { value: 'created_at', label: 'Oldest first' },
  { value: 'order_number', label: 'Order number A→Z' },
  { value: '-order_number', label: 'Order number Z→A' },
] as const;
export type Sort = (typeof SORTS)[number]['value'];

const FILTER_KEYS = ['status', 'q', 'from', 'to', 'carrier', 'service', 'country', 'source', 'location'] as const;

export function readQueue(search: URLSearchParams): QueueState {
  const get = (k: string) => search.get(k) ?? '';
  const archived = get('archived');
  const sort = get('sort');
  return {
    status: get('status'),
    archived: archived === 'true' || archived === 'all' ? archived : 'false',
    q: get('q'),
    from: get('from'),
    to: get('to'),
    carrier: get('carrier'),
    service: get('service'),
    country: get('country'),
    source: get('source'),
    location: get('location'),
    sort: (SORTS.some((s) => s.value === sort) ? sort : '-created_at') as Sort,
    cursor: get('cursor'),
    back: get('back') ? get('back').split(',') : [],
  };
}

/** The dashboard URL of a state (defaults left out, so a plain queue is /dashboard/orders). */
export function queueUrl(state: QueueState): string {
  const p = new URLSearchParams();
  for (const k of FILTER_KEYS) if (state[k]) p.set(k, state[k]);
  if (state.archived !== 'false') p.set('archived', state.archived);
  if (state.sort !== '-created_at') p.set('sort', state.sort);
  if (state.cursor) p.set('cursor', state.cursor);
  if (state.back.length) p.set('back', state.back.join(','));
  const qs = p.toString();
  return `/dashboard/orders${qs ? `?${qs}` : ''}`;
}

/** A changed filter starts again at the first page. */
export function withFilter(state: QueueState, patch: Partial<QueueState>): QueueState {
  return { ...state, ...patch, cursor: '', back: [] };
}

/** The day after a YYYY-MM-DD (the API's created_before excludes its instant). */
function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

type ListQuery = NonNullable<Operations['adminListOrders']['parameters']['query']>;

/** The API's query for the state: the list's filters (counts and the export read the same ones). */
export function apiFilters(state: QueueState): Omit<ListQuery, 'limit' | 'cursor'> {
  return {
    status: state.status || undefined,
    archived: state.archived,
    q: state.q || undefined,
    created_after: state.from || undefined,
    created_before: state.to ? nextDay(state.to) : undefined,
    carrier: state.carrier || undefined,
    service: state.service || undefined,
    ship_to_country: state.country || undefined,
    source: state.source || undefined,
    location_id: state.location || undefined,
    sort: state.sort,
  };
}

export function hasFilters(state: QueueState): boolean {
  return FILTER_KEYS.some((k) => k !== 'status' && state[k]) || state.archived !== 'false';
}

/** The number an operator reads: the store's, else the sender's external id, else ours. */
export const orderNumber = (o: Pick<Order, 'external_number' | 'external_id' | 'id'>) => o.external_number ?? o.external_id ?? o.id;

export function destination(o: Pick<Order, 'ship_to'>): string {
  return [o.ship_to.city, o.ship_to.state, o.ship_to.country].filter(Boolean).join(', ');
}

/** The lines' prices times quantities (minor units), when they share one currency. */
export function orderTotal(o: Pick<Order, 'line_items'>): { amount: number; currency: string } | null {
  const priced = o.line_items.filter((l) => l.unit_price);
  if (!priced.length) return null;
  const currency = priced[0]!.unit_price!.currency;
  if (priced.some((l) => l.unit_price!.currency !== currency)) return null;
  return { amount: priced.reduce((n, l) => n + l.unit_price!.amount * l.quantity, 0), currency };
}
