import { useState } from 'react';
import { registeredCarriers } from '../api/carriers';
import { api, call } from '../api/client';
import { Link } from '../router';
import { LocationFilter } from './location-select';
import { Badge, Empty, ErrorBox, Loading, money, Pager, useAsync, useCursorPages, when } from '../ui';

const STATUSES = ['label_purchased', 'in_transit', 'out_for_delivery', 'delivered', 'exception', 'returned', 'voided', 'expired'];

export function Shipments() {
  const [filters, setFilters] = useState({ status: '', carrier: '', tracking_number: '', location_id: '' });
  const [applied, setApplied] = useState(filters);
  const pages = useCursorPages(JSON.stringify(applied));
  const carriers = useAsync(registeredCarriers, []);
  const list = useAsync(
    () =>
      call(
        api.GET('/api/admin/shipments', {
          params: { query: { cursor: pages.cursor, limit: 25, status: applied.status || undefined, carrier: applied.carrier || undefined, tracking_number: applied.tracking_number.trim() || undefined, location_id: applied.location_id || undefined } },
        }),
      ),
    [pages.cursor, JSON.stringify(applied)],
  );
  return (
    <section>
      <h1>Shipments</h1>
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(filters);
        }}
      >
        <label className="inline">
          <span className="sr-only">Status</span>
          <select value={filters.status} onChange={(e) => setFilters({ ...filters, status: e.target.value })}>
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          <span className="sr-only">Carrier</span>
          <select value={filters.carrier} onChange={(e) => setFilters({ ...filters, carrier: e.target.value })}>
            <option value="">Any carrier</option>
            {(carriers.data ?? []).map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
        {/* A choice of location applies at once, as the order queue's does. */}
        <LocationFilter
          value={filters.location_id}
          onChange={(location_id) => {
            setFilters({ ...filters, location_id });
            setApplied({ ...applied, location_id });
          }}
        />
        <label className="inline grow">
          <span className="sr-only">Tracking number</span>
          <input value={filters.tracking_number} maxLength={64} placeholder="Tracking number" onChange={(e) => setFilters({ ...filters, tracking_number: e.target.value })} />
        </label>
        <button type="submit" className="btn">
          Search
        </button>
      </form>
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading shipments…" />
      ) : list.data.data.length === 0 ? (
        <Empty>No shipments match. Labels bought for orders show up here.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="shipments">
              <thead>
                <tr>
                  <th>Tracking number</th>
                  <th>Service</th>
                  <th>Status</th>
                  <th className="num">Price</th>
                  <th className="hide-sm">Created</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((s) => (
                  <tr key={s.id}>
                    <td className="mono">
                      <Link to={`/dashboard/shipments/${s.id}`}>{s.tracking_number}</Link>
                    </td>
                    <td>
                      {s.carrier} · {s.service_name}
                    </td>
                    <td>
                      <Badge value={s.status} />
                      {s.simulated && <Badge value="sample" kind="sample" />}
                    </td>
                    <td className="num">{money(s.price)}</td>
                    <td className="hide-sm">{when(s.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={pages.page} hasMore={list.data.has_more} onPrev={pages.prev} onNext={() => pages.next(list.data?.next_cursor ?? null)} />
        </>
      )}
    </section>
  );
}
