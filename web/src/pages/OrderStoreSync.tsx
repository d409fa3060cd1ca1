import { api, call } from '../api/client';
import { Badge, Empty, ErrorBox, Loading, useAsync, when } from '../ui';
import { WriteBacksTable, type WriteBack } from './integrations-common';

const SOURCES: Record<string, string> = { webhook: 'Webhook', poll: 'Reconciliation', manual: 'Sync now' };

/**
 * GET /api/admin/orders/:id/sync-history (docs/channels.md): every version of the store's order
 * the service saw and what it decided, then the tracking it sent back, oldest first.
 */
export function StoreSync({ orderId }: { orderId: string }) {
  const history = useAsync(() => call(api.GET('/api/admin/orders/{id}/sync-history', { params: { path: { id: orderId } } })), [orderId]);
  // The schema leaves the write-backs loosely typed; they are the WriteBack shape of GET /api/admin/write-backs.
  const writeBacks = (history.data?.write_backs ?? []) as unknown as WriteBack[];
  return (
    <div className="card" aria-label="Store sync" data-testid="store-sync">
      <div className="page-head">
        <h2>Store sync</h2>
        <button type="button" className="btn btn-small" onClick={history.reload} disabled={history.loading}>
          Refresh
        </button>
      </div>
      {history.error ? (
        <ErrorBox error={history.error} onRetry={history.reload} />
      ) : !history.data ? (
        <Loading label="Loading sync history…" />
      ) : (
        <>
          {history.data.data.length === 0 ? (
            <Empty>Nothing received from the store for this order yet.</Empty>
          ) : (
            <div className="table-wrap">
              <table className="table" data-testid="sync-history">
                <thead>
                  <tr>
                    <th>Time</th>
                    <th>Via</th>
                    <th>Decision</th>
                    <th>Changed</th>
                    <th className="hide-sm">Message</th>
                  </tr>
                </thead>
                <tbody>
                  {history.data.data.map((e, i) => (
                    <tr key={i}>
                      <td>
                        {when(e.at)}
                        {e.platform_version && <div className="muted small">store version {when(e.platform_version)}</div>}
                      </td>
                      <td>{SOURCES[e.source] ?? e.source}</td>
                      <td>
                        <Badge value={e.decision} kind={`decision-${e.decision}`} />
                      </td>
                      <td className="mono small">{e.changes.length ? e.changes.join(', ') : '—'}</td>
                      <td className="hide-sm">{e.message ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          <h3>Tracking sent back</h3>
          {writeBacks.length === 0 ? (
            <Empty>No write-back for this order.</Empty>
          ) : (
            <WriteBacksTable rows={writeBacks} onRetried={history.reload} showShipment label="Order write-backs" />
          )}
        </>
      )}
    </div>
  );
}
