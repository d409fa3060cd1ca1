import { useState, type FormEvent } from 'react';
import { api, call, type Order } from '../api/client';
import { Link, navigate } from '../router';
import { useSession } from '../session';
import { Badge, Empty, ErrorBox, Loading, Pager, useAction, useAsync, useCursorPages, when } from '../ui';
import { LABEL_FORMATS, type LabelFormat } from './label-file';
import { actionLabel, runOrderAction, type OrderAction } from './orders-actions';
import { ShipFromOnboarding } from './ShipFrom';

const STATUSES = ['awaiting_fulfillment', 'processing', 'shipped', 'delivered', 'cancelled'] as const;

export function Orders() {
  // A viewer reads the queue; the changes are an operator's (the API refuses them anyway).
  const canOperate = useSession().can('operator');
  const [status, setStatus] = useState('');
  const [archived, setArchived] = useState<'false' | 'true' | 'all'>('false');
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const filterKey = `${status}|${archived}|${search}`;
  const pages = useCursorPages(filterKey);
  const list = useAsync(
    () =>
      call(
        api.GET('/api/admin/orders', {
          params: { query: { status: status || undefined, archived, q: search || undefined, cursor: pages.cursor, limit: 25 } },
        }),
      ),
    [filterKey, pages.cursor],
  );
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const bulk = useAction();
  const [bulkResult, setBulkResult] = useState<string | null>(null);

  const rows = list.data?.data ?? [];
  const allOnPage = rows.length > 0 && rows.every((o) => selected.has(o.id));
  const toggle = (id: string) =>
    setSelected((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });

  const [labelFormat, setLabelFormat] = useState<LabelFormat>('pdf_4x6');

  /** Processing and label buying run as a batch job: its page shows the progress. */
  async function runBatch(kind: 'process' | 'generate') {
    setBulkResult(null);
    const order_ids = [...selected];
    const batch = await bulk.run(() =>
      call(kind === 'process' ? api.POST('/api/admin/orders/batch-process', { body: { order_ids } }) : api.POST('/api/admin/orders/batch-generate', { body: { order_ids, label_format: labelFormat } })),
    );
    if (batch) navigate(`/dashboard/batches/${batch.id}`);
  }

  async function runBulk(action: OrderAction) {
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
  }

  function submitSearch(e: FormEvent) {
    e.preventDefault();
    setSearch(q.trim());
  }

  return (
    <section>
      <div className="page-head">
        <h1>Orders</h1>
        {canOperate && (
          <Link to="/dashboard/orders/new" className="btn btn-primary">
            New order
          </Link>
        )}
      </div>
      <ShipFromOnboarding />
      <form className="filters" onSubmit={submitSearch} role="search">
        <label className="inline">
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value)}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        <label className="inline">
          Show
          <select value={archived} onChange={(e) => setArchived(e.target.value as typeof archived)}>
            <option value="false">Open (not archived)</option>
            <option value="true">Archived</option>
            <option value="all">All</option>
          </select>
        </label>
        <label className="inline grow">
          <span className="sr-only">Search</span>
          <input type="search" placeholder="Customer name, email or external id" value={q} onChange={(e) => setQ(e.target.value)} maxLength={200} />
        </label>
        <button type="submit" className="btn">
          Search
        </button>
      </form>

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
          {(['cancel', 'archive'] as const).map((a) => (
            <button key={a} type="button" className="btn btn-small" disabled={bulk.busy} onClick={() => runBulk(a)}>
              {actionLabel[a]}
            </button>
          ))}
          <button type="button" className="btn btn-small btn-ghost" onClick={() => setSelected(new Set())}>
            Clear
          </button>
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
        <Empty>{search || status || archived !== 'false' ? 'No orders match these filters.' : 'No orders yet in this environment. Create one, or connect an integration.'}</Empty>
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
                  <th>Customer</th>
                  <th className="hide-sm">Ship to</th>
                  <th>Status</th>
                  <th className="hide-sm num">Items</th>
                  <th className="hide-sm">Created</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((o: Order) => (
                  <tr key={o.id} className={selected.has(o.id) ? 'selected' : ''}>
                    <td className="check">
                      <input type="checkbox" aria-label={`Select ${o.external_id ?? o.id}`} checked={selected.has(o.id)} onChange={() => toggle(o.id)} />
                    </td>
                    <td>
                      <Link to={`/dashboard/orders/${o.id}`} className="mono">
                        {o.external_id ?? o.id}
                      </Link>
                      {o.archived && <Badge value="archived" />}
                    </td>
                    <td>{o.customer.name ?? o.customer.email ?? '—'}</td>
                    <td className="hide-sm">{[o.ship_to.city, o.ship_to.state, o.ship_to.country].filter(Boolean).join(', ')}</td>
                    <td>
                      <Badge value={o.status} />
                    </td>
                    <td className="hide-sm num">{o.line_items.reduce((n, li) => n + li.quantity, 0)}</td>
                    <td className="hide-sm">{when(o.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={pages.page} hasMore={!!list.data?.has_more} onPrev={pages.prev} onNext={() => pages.next(list.data?.next_cursor ?? null)} />
        </>
      )}
    </section>
  );
}
