import { useState } from 'react';
import { registeredCarriers } from '../api/carriers';
import { api, call } from '../api/client';
import { Link } from '../router';
import { LocationFilter } from './location-select';
import { useSession } from '../session';
import { Badge, Empty, ErrorBox, Loading, money, Pager, useAction, useAsync, useCursorPages, when } from '../ui';
import { printLabels, type PrintFormat } from './label-file';
import { PrintOptions } from './print-options';

const STATUSES = ['label_purchased', 'in_transit', 'out_for_delivery', 'delivered', 'exception', 'returned', 'voided', 'expired'];
/** Labels no carrier takes: the API refuses to print them, so they cannot be selected. */
const UNPRINTABLE = new Set(['voided', 'expired']);

export function Shipments() {
  const [filters, setFilters] = useState({ status: '', carrier: '', tracking_number: '', location_id: '' });
  const [applied, setApplied] = useState(filters);
  const pages = useCursorPages(JSON.stringify(applied));
  const carriers = useAsync(registeredCarriers, []);
  const list = useAsync(
    () =>
      call(
        api.GET('/api/admin/shipments', {
          params: {
            query: {
              cursor: pages.cursor,
              limit: 25,
              status: applied.status || undefined,
              carrier: applied.carrier || undefined,
              tracking_number: applied.tracking_number.trim() || undefined,
              location_id: applied.location_id || undefined,
            },
          },
        }),
      ),
    [pages.cursor, JSON.stringify(applied)],
  );
  const canOperate = useSession().can('operator');
  // Selected across pages and filters, in the order clicked: the file keeps that order.
  const [selected, setSelected] = useState<string[]>([]);
  const [format, setFormat] = useState<PrintFormat>('pdf_4x6');
  const [packingSlips, setPackingSlips] = useState(false);
  const printing = useAction();
  const [printed, setPrinted] = useState<string | null>(null);
  const toggle = (id: string) => setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  const printable = (list.data?.data ?? []).filter((s) => !UNPRINTABLE.has(s.status));
  const allOnPage = printable.length > 0 && printable.every((s) => selected.includes(s.id));
  async function printSelected() {
    setPrinted(null);
    const ids = selected;
    await printing.run(async () => {
      await printLabels(ids, format, packingSlips);
      setPrinted(`${ids.length} label${ids.length === 1 ? '' : 's'} saved as one file.`);
    });
  }
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
          <input
            value={filters.tracking_number}
            maxLength={64}
            placeholder="Tracking number"
            onChange={(e) => setFilters({ ...filters, tracking_number: e.target.value })}
          />
        </label>
        <button type="submit" className="btn">
          Search
        </button>
      </form>
      {canOperate && selected.length > 0 && (
        <div className="bulkbar" role="region" aria-label="Bulk actions">
          <strong>{selected.length} selected</strong>
          <button type="button" className="btn btn-small btn-primary" disabled={printing.busy} onClick={printSelected}>
            Print selected
          </button>
          <PrintOptions format={format} onFormat={setFormat} packingSlips={packingSlips} onPackingSlips={setPackingSlips} />
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setSelected([])}>
            Clear
          </button>
        </div>
      )}
      {printed && (
        <p className="alert alert-info" role="status">
          {printed}
        </p>
      )}
      {printing.error && <ErrorBox error={printing.error} />}
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
                  {canOperate && (
                    <th className="check">
                      <input
                        type="checkbox"
                        aria-label="Select all on this page"
                        checked={allOnPage}
                        onChange={() =>
                          setSelected((s) =>
                            allOnPage
                              ? s.filter((id) => !printable.some((p) => p.id === id))
                              : [...s, ...printable.map((p) => p.id).filter((id) => !s.includes(id))],
                          )
                        }
                      />
                    </th>
                  )}
                  <th>Tracking number</th>
                  <th>Service</th>
                  <th>Status</th>
                  <th className="num">Price</th>
                  <th className="hide-sm">Created</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((s) => (
                  <tr key={s.id} className={selected.includes(s.id) ? 'selected' : ''} data-shipment-id={s.id}>
                    {canOperate && (
                      <td className="check">
                        <input
                          type="checkbox"
                          aria-label={`Select ${s.tracking_number}`}
                          checked={selected.includes(s.id)}
                          disabled={UNPRINTABLE.has(s.status)}
                          title={UNPRINTABLE.has(s.status) ? `A ${s.status} label is not printed` : undefined}
                          onChange={() => toggle(s.id)}
                        />
                      </td>
                    )}
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
