import { useState } from 'react';
import { api, call, type Schemas } from '../api/client';
import { Empty, ErrorBox, Loading, useAsync, usePolling, when } from '../ui';
import { ExchangeRow } from './exchange-row';

type ChannelExchange = Schemas['ChannelExchange'];

/** How many times the log is asked again after a call that reached the store (exchanges are written off the request path). */
const LOG_POLLS = 10;

/**
 * GET /api/admin/integrations/:id/logs (docs/channels.md): the last 100 exchanges with the store
 * platform, kept 7 days, bodies redacted by the service. `tick` moves after a call that talks to
 * the store (Test connection, Sync now): the log is then asked again once a second, a few times,
 * until an exchange newer than the ones shown arrives.
 */
export function IntegrationExchanges({ integrationId, tick }: { integrationId: string; tick: number }) {
  const logs = useAsync(() => call(api.GET('/api/admin/integrations/{id}/logs', { params: { path: { id: integrationId } } })), [integrationId, tick]);
  const rows = logs.data?.data ?? [];
  const newest = rows[0]?.id ?? null;
  const [watch, setWatch] = useState<{ after: string | null; left: number } | null>(null);
  const [seenTick, setSeenTick] = useState(tick);
  if (seenTick !== tick) {
    setSeenTick(tick);
    setWatch({ after: newest, left: LOG_POLLS });
  }
  const waiting = !!watch && watch.left > 0 && !!logs.data && newest === watch.after;
  usePolling(
    () => {
      setWatch((w) => (w ? { ...w, left: w.left - 1 } : w));
      logs.reload();
    },
    1000,
    waiting,
  );

  return (
    <div className="card">
      <div className="page-head">
        <h2>Exchange log</h2>
        <button type="button" className="btn btn-small" onClick={logs.reload} disabled={logs.loading}>
          Refresh
        </button>
      </div>
      <p className="muted small">
        The last 100 requests to the store platform (kept 7 days). Tokens, keys, secrets and the connection’s own secret values are redacted.
      </p>
      {logs.error ? (
        <ErrorBox error={logs.error} onRetry={logs.reload} />
      ) : !logs.data ? (
        <Loading label="Loading exchanges…" />
      ) : rows.length === 0 ? (
        <Empty>{waiting ? 'Waiting for the exchanges to be written…' : 'No exchanges with the store yet.'}</Empty>
      ) : (
        <div className="table-wrap">
          <table className="table exchanges" data-testid="store-exchanges" aria-label="Exchanges with the store">
            <thead>
              <tr>
                <th>Time</th>
                <th>Request</th>
                <th>Status</th>
                <th className="num">Duration</th>
                <th>
                  <span className="sr-only">Bodies</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((x) => (
                <StoreExchangeRow key={x.id} x={x} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** One exchange with the store platform (exchange-row.tsx): when, and what was asked. */
function StoreExchangeRow({ x }: { x: ChannelExchange }) {
  return (
    <ExchangeRow
      x={x}
      testIdPrefix="store-exchange"
      lead={
        <>
          <td className="small">{when(x.created_at)}</td>
          <td>
            <span className="mono path">
              {x.method} {x.path}
            </span>
            <div className="muted small">
              {x.operation.replaceAll('_', ' ')}
              {x.attempt > 1 ? ` · attempt ${x.attempt}` : ''}
            </div>
          </td>
        </>
      }
    />
  );
}
