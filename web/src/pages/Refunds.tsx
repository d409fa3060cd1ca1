import { useState } from 'react';
import { api, call } from '../api/client';
import { Link } from '../router';
import { Badge, Empty, ErrorBox, Loading, money, Pager, useAsync, useCursorPages, when } from '../ui';

const STATUSES = ['submitted', 'refunded', 'rejected'] as const;

/** Refunds of voided labels: submitted, then refunded or rejected by the carrier. */
export function Refunds() {
  const [status, setStatus] = useState('');
  const pages = useCursorPages(status);
  const list = useAsync(
    () => call(api.GET('/api/admin/refunds', { params: { query: { cursor: pages.cursor, limit: 25, status: status || undefined } } })),
    [pages.cursor, status],
  );
  return (
    <section>
      <h1>Refunds</h1>
      <p className="muted">
        A void asks the carrier for a refund; a simulated carrier decides after the setting sandbox.refund_delay_seconds and rejects a label it scanned
        meanwhile.
      </p>
      <form className="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <label className="inline">
          <span className="sr-only">Status</span>
          <select value={status} onChange={(e) => setStatus(e.target.value)} aria-label="Refund status">
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
      </form>
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading refunds…" />
      ) : list.data.data.length === 0 ? (
        <Empty>No refunds. Voiding a label asks its carrier for one.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="refunds">
              <thead>
                <tr>
                  <th>Tracking number</th>
                  <th>Carrier</th>
                  <th>Status</th>
                  <th className="num">Amount</th>
                  <th className="hide-sm">Requested</th>
                  <th className="hide-sm">Decided</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((r) => (
                  <tr key={r.id}>
                    <td className="mono">
                      <Link to={`/dashboard/shipments/${r.shipment_id}`}>{r.tracking_number}</Link>
                    </td>
                    <td>{r.carrier}</td>
                    <td>
                      <Badge value={r.status} />
                      {r.reason && <div className="muted">{r.reason}</div>}
                    </td>
                    <td className="num">{money(r.amount)}</td>
                    <td className="hide-sm">{when(r.requested_at)}</td>
                    <td className="hide-sm">{r.decided_at ? when(r.decided_at) : '—'}</td>
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
