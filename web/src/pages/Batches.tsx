import { api, call } from '../api/client';
import { Link } from '../router';
import { Badge, Empty, ErrorBox, Loading, Pager, useAsync, useCursorPages, usePolling, when } from '../ui';
import { BATCH_TYPE_LABEL, BatchProgress, isActive } from './batches-common';

export function Batches() {
  const pages = useCursorPages('');
  const list = useAsync(() => call(api.GET('/api/admin/batches', { params: { query: { cursor: pages.cursor, limit: 25 } } })), [pages.cursor]);
  const rows = list.data?.data ?? [];
  // The list follows running batches too, more slowly than a batch's own page.
  usePolling(list.reload, 3000, rows.some(isActive));

  return (
    <section>
      <h1>Batches</h1>
      <p className="muted">
        Bulk jobs: select orders on the <Link to="/dashboard/orders">orders page</Link> to process them or buy their labels in one batch.
      </p>
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading batches…" />
      ) : rows.length === 0 ? (
        <Empty>No batches yet in this environment.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="batches">
              <thead>
                <tr>
                  <th>Batch</th>
                  <th className="hide-sm">Type</th>
                  <th>Status</th>
                  <th>Progress</th>
                  <th className="hide-sm num">Succeeded / failed / total</th>
                  <th className="hide-sm">Created</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((b) => (
                  <tr key={b.id}>
                    <td>
                      <Link to={`/dashboard/batches/${b.id}`} className="mono">
                        {b.id}
                      </Link>
                    </td>
                    <td className="hide-sm">{BATCH_TYPE_LABEL[b.type]}</td>
                    <td>
                      <Badge value={b.status} />
                    </td>
                    <td>
                      <BatchProgress batch={b} />
                    </td>
                    <td className="hide-sm num">
                      {b.counts.succeeded} / {b.counts.failed} / {b.counts.total}
                    </td>
                    <td className="hide-sm">{when(b.created_at)}</td>
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
