import { parseInstant, parseList } from '../../platform/http/wire.js';
import type { OrdersQueryFilter } from './orders.repo.js';
import type { OrderCountsFilter } from './orders.schemas.js';
import { ORDER_STATUSES, type OrderStatus } from './orders.states.js';

/** `status=a,b`: known statuses only, else 400 naming the field. */
export function parseStatuses(value: string | undefined): OrderStatus[] | undefined {
  return value === undefined ? undefined : parseList<OrderStatus>(value, ORDER_STATUSES, 'status');
}

/** The query string's filters (the list's, its counts' and its export's) as the repository reads them. */
export function toQueryFilter(filter: OrderCountsFilter & { status?: string }): OrdersQueryFilter {
  return {
    statuses: parseStatuses(filter.status),
    archived: filter.archived === 'all' ? 'all' : filter.archived === 'true',
    createdAfter: filter.created_after ? parseInstant(filter.created_after, 'created_after') : undefined,
    createdBefore: filter.created_before ? parseInstant(filter.created_before, 'created_before') : undefined,
    externalId: filter.external_id,
    source: filter.source,
    locationId: filter.location_id,
    q: filter.q?.trim() || undefined,
    carrier: filter.carrier,
    service: filter.service,
    shipToCountry: filter.ship_to_country?.toUpperCase(),
  };
}
