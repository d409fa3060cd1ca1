import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { api, call, scope, type Order } from '../api/client';
import { carrierTypes, type CarrierType } from '../api/carriers';
import { Link, navigate, useLocation } from '../router';
import { useSession } from '../session';
import { Badge, Empty, ErrorBox, Loading, money, Pager, useAction, useAsync, when } from '../ui';
import { fetchAdminFile, LABEL_FORMATS, printLabels, saveBlob, type LabelFormat, type PrintFormat } from './label-file';
import { PrintOptions } from './print-options';
import { actionLabel, runOrderAction } from './orders-actions';
import {
  apiFilters,
  destination,
  hasFilters,
  orderNumber,
  orderTotal,
  queueUrl,
  readQueue,
  SORTS,
  withFilter,
  type QueueState,
  type Sort,
} from './orders-query';
import { ShipFromOnboarding } from './ShipFrom';
import { LocationFilter } from './location-select';

/** The export's row cap (GET /api/admin/orders/export.csv says so in its description). */
const EXPORT_MAX_ROWS = 10_000;
const PAGE_SIZE = 25;
/** Service and store names are long: their selects stay within a phone's width. */
const NARROW = { maxWidth: '14rem' };

/** `awaiting_fulfillment` → `Awaiting fulfillment`. */
const statusLabel = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).replaceAll('_', ' ');

/**
 * The packing team's work queue (docs/api-conventions.md, "Lists and pagination"): status tabs with counts,
 * filters and sort in the URL (reload and Back keep them, pages too), the columns an operator
 * scans, multi-select with bulk actions, a CSV export. Keyboard: ↑/↓ move between rows, Space
 * selects the row, Enter opens the order.
 */
export function Orders() {
  // A viewer reads and exports the queue; the changes are an operator's (the API refuses them anyway).
  const canOperate = useSession().can('operator');
  const { search } = useLocation();
  const state = readQueue(search);
  const go = (next: QueueState, opts: { replace?: boolean } = {}) => navigate(queueUrl(next), opts);
  const filters = apiFilters(state);
  const filterKey = JSON.stringify(filters);

  const list = useAsync(
    () => call(api.GET('/api/admin/orders', { params: { query: { ...filters, cursor: state.cursor || undefined, limit: PAGE_SIZE } } })),
    [filterKey, state.cursor],
  );
  const { status: _status, sort: _sort, ...countFilters } = filters;
  const countKey = JSON.stringify(countFilters);
  const counts = useAsync(() => call(api.GET('/api/admin/orders/counts', { params: { query: countFilters } })), [countKey]);
  const carriers = useAsync(() => carrierTypes().catch(() => [] as CarrierType[]), []);
  const stores = useAsync(
    () =>
      call(api.GET('/api/admin/integrations', { params: { query: { limit: 100 } } })).then(
        (r) => r.data,
        () => [],
      ),
    [],
  );

  const [selected, setSelected] = useState<Set<string>>(new Set());
  const bulk = useAction();
  const [bulkResult, setBulkResult] = useState<string | null>(null);
  const [labelFormat, setLabelFormat] = useState<LabelFormat>('pdf_4x6');
  const [labelService, setLabelService] = useState('');
  const exporting = useAction();
  const [printFormat, setPrintFormat] = useState<PrintFormat>('pdf_4x6');
  const [packingSlips, setPackingSlips] = useState(false);

  const rows = list.data?.data ?? [];
  // Orders selected on other pages stay selected: what they are is remembered for printing.
  const seen = useRef(new Map<string, Order>());
  for (const o of rows) seen.current.set(o.id, o);
  const allOnPage = rows.length > 0 && rows.every((o) => selected.has(o.id));
  const toggle = (id: string) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  // The row with the keyboard focus (roving tabindex: one row is in the Tab order).
  const [focusIndex, setFocusIndex] = useState(0);
  const rowRefs = useRef<(HTMLTableRowElement | null)[]>([]);
  useEffect(() => setFocusIndex(0), [filterKey, state.cursor]);
  function onRowKey(e: KeyboardEvent<HTMLTableRowElement>, index: number, order: Order) {
    // Keys typed into the row's own checkbox or link keep their meaning there.
    if (e.target !== e.currentTarget) return;
    const move = (to: number) => {
      const next = Math.max(0, Math.min(rows.length - 1, to));
      setFocusIndex(next);
      rowRefs.current[next]?.focus();
    };
    if (e.key === 'ArrowDown') move(index + 1);
    else if (e.key === 'ArrowUp') move(index - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(rows.length - 1);
    else if (e.key === ' ') toggle(order.id);
    else if (e.key === 'Enter') navigate(`/dashboard/orders/${order.id}`);
    else return;
    e.preventDefault();
  }

  /** Processing and label buying run as a batch job: its page shows the progress and the labels as one file. */
  async function runBatch(kind: 'process' | 'generate') {
    setBulkResult(null);
    const order_ids = [...selected];
    const batch = await bulk.run(() =>
      call(
        kind === 'process'
          ? api.POST('/api/admin/orders/batch-process', { body: { order_ids } })
          : api.POST('/api/admin/orders/batch-generate', {
              body: { order_ids, label_format: labelFormat, ...(labelService ? { service_code: labelService } : {}) },
            }),
      ),
    );
    if (batch) navigate(`/dashboard/batches/${batch.id}`);
  }

  async function runBulk(action: 'cancel' | 'archive') {
    const ids = [...selected];
    setBulkResult(null);
    await bulk.run(async () => {
      // Cancel and archive have no batch type: one call per order, each refusal reported.
      const results = await Promise.allSettled(ids.map((id) => runOrderAction(id, action)));
      const failed = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
      setBulkResult(
        `${actionLabel[action]}: ${ids.length - failed.length} of ${ids.length} done` +
          (failed.length ? ` — ${failed.length} refused (${(failed[0].reason as Error).message})` : ''),
      );
    });
    setSelected(new Set());
    list.reload();
    counts.reload();
  }

  /**
   * The selected orders' labels as one file: each order's live label (the oldest not voided or
   * expired: the outbound one, not a later return). Orders without one are left out and said so.
   */
  async function printSelected() {
    setBulkResult(null);
    await bulk.run(async () => {
      const ids: string[] = [];
      let without = 0;
      for (const orderId of selected) {
        const liveOf = (o: Order | undefined) => o?.shipments.find((sh) => sh.status !== 'voided' && sh.status !== 'expired');
        // The page's copy may predate a label bought since: read the order again when it shows none.
        const live = liveOf(seen.current.get(orderId)) ?? liveOf(await call(api.GET('/api/admin/orders/{orderId}', { params: { path: { orderId } } })));
        if (live) ids.push(live.id);
        else without++;
      }
      if (ids.length === 0) {
        setBulkResult('None of the selected orders has a label to print: buy labels first.');
        return;
      }
      await printLabels(ids, printFormat, packingSlips);
      setBulkResult(
        `Printed ${ids.length} label${ids.length === 1 ? '' : 's'} as one file` +
          (without ? ` — ${without} selected order${without === 1 ? ' has' : 's have'} no label` : '') +
          '.',
      );
    });
  }

  async function exportCsv() {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(filters)) if (v !== undefined && v !== '') query.set(k, String(v));
    const blob = await exporting.run(() => fetchAdminFile(`/api/admin/orders/export.csv?${query}`));
    if (blob) saveBlob(blob, `orders-${scope.environment}-${new Date().toISOString().slice(0, 10)}.csv`);
  }

  // The free-text fields apply on submit; the selects and dates as they change.
  const [draft, setDraft] = useState({ q: state.q, country: state.country });
  useEffect(() => setDraft({ q: state.q, country: state.country }), [state.q, state.country]);
  function submitSearch(e: FormEvent) {
    e.preventDefault();
    go(withFilter(state, { q: draft.q.trim(), country: draft.country.trim().toUpperCase() }), { replace: true });
  }
  const setFilter = (patch: Partial<QueueState>) => go(withFilter(state, patch), { replace: true });

  const carrierList = carriers.data ?? [];
  const services = carrierList.filter((c) => !state.carrier || c.carrier === state.carrier).flatMap((c) => c.services);
  const allServices = carrierList.flatMap((c) => c.services);
  const serviceName = (code: string | null) => (code ? (allServices.find((s) => s.service_code === code)?.name ?? code) : '—');
  const shownCount = state.status ? counts.data?.data.find((c) => c.status === state.status)?.count : counts.data?.total;
  const filtered = hasFilters(state) || !!state.status;

  return (
    <section>
      <div className="page-head">
        <h1>Orders</h1>
        <span className="inline">
          <button type="button" className="btn" disabled={exporting.busy} onClick={exportCsv}>
            {exporting.busy ? 'Exporting…' : 'Export CSV'}
          </button>
          {canOperate && (
            <Link to="/dashboard/orders/new" className="btn btn-primary">
              New order
            </Link>
          )}
        </span>
      </div>
      <ShipFromOnboarding />

      <nav className="tabs" aria-label="Order status" data-testid="status-tabs">
        {[
          { status: '', label: 'All', count: counts.data?.total },
          ...(counts.data?.data ?? []).map((c) => ({ status: c.status, label: statusLabel(c.status), count: c.count })),
        ].map((tab) => (
          <Link
            key={tab.status || 'all'}
            to={queueUrl(withFilter(state, { status: tab.status }))}
            aria-current={state.status === tab.status ? 'page' : undefined}
          >
            {tab.label} <span className="muted">({tab.count ?? '…'})</span>
          </Link>
        ))}
      </nav>

      <form className="filters" onSubmit={submitSearch} role="search" aria-label="Filter orders">
        <label className="inline">
          From
          <input type="date" value={state.from} max={state.to || undefined} onChange={(e) => setFilter({ from: e.target.value })} />
        </label>
        <label className="inline">
          To
          <input type="date" value={state.to} min={state.from || undefined} onChange={(e) => setFilter({ to: e.target.value })} />
        </label>
        <label className="inline">
          Carrier
          <select value={state.carrier} style={NARROW} onChange={(e) => setFilter({ carrier: e.target.value, service: '' })}>
            <option value="">Any</option>
            {carrierList.map((c) => (
              <option key={c.carrier} value={c.carrier}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          Service
          <select value={state.service} style={NARROW} onChange={(e) => setFilter({ service: e.target.value })}>
            <option value="">Any</option>
            {services.map((s) => (
              <option key={s.service_code} value={s.service_code}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          Store
          <select value={state.source} style={NARROW} onChange={(e) => setFilter({ source: e.target.value })}>
            <option value="">Any</option>
            <option value="api">API / dashboard</option>
            {(stores.data ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <LocationFilter value={state.location} style={NARROW} onChange={(location) => setFilter({ location })} />
        <label className="inline">
          Show
          <select value={state.archived} onChange={(e) => setFilter({ archived: e.target.value as QueueState['archived'] })}>
            <option value="false">Open (not archived)</option>
            <option value="true">Archived</option>
            <option value="all">All</option>
          </select>
        </label>
        <label className="inline">
          Sort
          <select value={state.sort} onChange={(e) => setFilter({ sort: e.target.value as Sort })}>
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          Destination country
          <input
            type="text"
            value={draft.country}
            onChange={(e) => setDraft({ ...draft, country: e.target.value })}
            maxLength={2}
            size={3}
            pattern="[A-Za-z]{2}"
            placeholder="US"
            title="Two-letter country code"
          />
        </label>
        <label className="inline grow">
          <span className="sr-only">Search</span>
          <input
            type="search"
            placeholder="Customer name, email or external id"
            value={draft.q}
            onChange={(e) => setDraft({ ...draft, q: e.target.value })}
            maxLength={200}
          />
        </label>
        <button type="submit" className="btn">
          Search
        </button>
        {filtered && (
          <Link to="/dashboard/orders" className="btn btn-ghost">
            Clear filters
          </Link>
        )}
      </form>
      {shownCount !== undefined && shownCount > EXPORT_MAX_ROWS && (
        <p className="muted small">
          The CSV export holds the first {EXPORT_MAX_ROWS.toLocaleString()} of these {shownCount.toLocaleString()} orders: narrow the dates for the rest.
        </p>
      )}
      {exporting.error && <ErrorBox error={exporting.error} />}

      {selected.size > 0 && canOperate && (
        <div className="bulkbar" role="region" aria-label="Bulk actions">
          <strong>{selected.size} selected</strong>
          <button type="button" className="btn btn-small btn-primary" disabled={bulk.busy} onClick={() => runBatch('process')}>
            Batch process
          </button>
          <span className="inline">
            <button type="button" className="btn btn-small btn-primary" disabled={bulk.busy} onClick={() => runBatch('generate')}>
              Batch generate labels
            </button>
            <label className="inline small">
              <span className="sr-only">Label service</span>
              <select value={labelService} onChange={(e) => setLabelService(e.target.value)} aria-label="Label service">
                <option value="">Requested service, else the rules</option>
                <option value="auto">Shipping rules</option>
                <option value="cheapest">Cheapest</option>
                {allServices.map((s) => (
                  <option key={s.service_code} value={s.service_code}>
                    {s.name}
                  </option>
                ))}
              </select>
            </label>
            <label className="inline small">
              <span className="sr-only">Label format</span>
              <select value={labelFormat} onChange={(e) => setLabelFormat(e.target.value as LabelFormat)} aria-label="Label format">
                {LABEL_FORMATS.map((f) => (
                  <option key={f} value={f}>
                    {f.replace('_', ' ')}
                  </option>
                ))}
              </select>
            </label>
          </span>
          <span className="inline">
            <button type="button" className="btn btn-small btn-primary" disabled={bulk.busy} onClick={printSelected}>
              Print labels
            </button>
            <PrintOptions format={printFormat} onFormat={setPrintFormat} packingSlips={packingSlips} onPackingSlips={setPackingSlips} />
          </span>
          {(['cancel', 'archive'] as const).map((a) => (
            <button key={a} type="button" className="btn btn-small" disabled={bulk.busy} onClick={() => runBulk(a)}>
              {actionLabel[a]}
            </button>
          ))}
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setSelected(new Set())}>
            Clear
          </button>
          <span className="muted small">Print labels makes one file of the selected orders' labels.</span>
        </div>
      )}
      {bulkResult && (
        <p className="alert alert-info" role="status">
          {bulkResult}
        </p>
      )}
      {bulk.error && <ErrorBox error={bulk.error} />}

      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : list.loading && !list.data ? (
        <Loading label="Loading orders…" />
      ) : rows.length === 0 ? (
        <Empty>{filtered ? 'No orders match these filters.' : 'No orders yet in this environment. Create one, or connect an integration.'}</Empty>
      ) : (
        <>
          <div className="table-wrap" aria-busy={list.loading}>
            <table className="table" data-testid="orders">
              <thead>
                <tr>
                  <th className="check">
                    <input
                      type="checkbox"
                      aria-label="Select all on this page"
                      checked={allOnPage}
                      onChange={() => setSelected(allOnPage ? new Set() : new Set(rows.map((o) => o.id)))}
                    />
                  </th>
                  <th>Order</th>
                  <th className="hide-sm">Date</th>
                  <th>Recipient</th>
                  <th className="hide-sm">Destination</th>
                  <th className="hide-sm num">Items</th>
                  <th className="hide-sm num">Weight</th>
                  <th className="hide-sm">Service</th>
                  <th className="hide-sm num">Total</th>
                  <th>Status</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((o: Order, index) => {
                  const total = orderTotal(o);
                  return (
                    <tr
                      key={o.id}
                      ref={(el) => {
                        rowRefs.current[index] = el;
                      }}
                      className={selected.has(o.id) ? 'selected' : ''}
                      tabIndex={index === focusIndex ? 0 : -1}
                      aria-selected={selected.has(o.id)}
                      onFocus={() => setFocusIndex(index)}
                      onKeyDown={(e) => onRowKey(e, index, o)}
                      data-order-id={o.id}
                    >
                      <td className="check">
                        <input type="checkbox" aria-label={`Select ${orderNumber(o)}`} checked={selected.has(o.id)} onChange={() => toggle(o.id)} />
                      </td>
                      <td>
                        <Link to={`/dashboard/orders/${o.id}`} className="mono">
                          {orderNumber(o)}
                        </Link>
                        {o.archived && <Badge value="archived" />}
                      </td>
                      <td className="hide-sm">{when(o.created_at)}</td>
                      <td>{o.ship_to.name ?? o.customer.name ?? o.customer.email ?? '—'}</td>
                      <td className="hide-sm">{destination(o)}</td>
                      <td className="hide-sm num">{o.line_items.reduce((n, li) => n + li.quantity, 0)}</td>
                      <td className="hide-sm num">{o.parcel.weight_oz} oz</td>
                      <td className="hide-sm">{serviceName(o.requested_service)}</td>
                      <td className="hide-sm num">{total ? money(total) : '—'}</td>
                      <td>
                        <Badge value={o.status} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pager
            page={state.cursor ? state.back.length + 2 : 1}
            hasMore={!!list.data?.has_more}
            onPrev={() => go({ ...state, cursor: state.back[state.back.length - 1] ?? '', back: state.back.slice(0, -1) })}
            onNext={() => {
              const next = list.data?.next_cursor;
              if (next) go({ ...state, cursor: next, back: state.cursor ? [...state.back, state.cursor] : state.back });
            }}
          />
        </>
      )}
    </section>
  );
}
