import { api, call } from '../api/client';
import type { PageProps } from '../page-props';
import { Link } from '../router';
import { Badge, Empty, ErrorBox, Loading, useAction, useAsync, usePolling, when } from '../ui';
import { settling, WebhookTabs } from './webhooks-common';

export function WebhookDeliveryDetail({ params }: PageProps) {
  const path = { params: { path: { id: params.id } } };
  const delivery = useAsync(() => call(api.GET('/api/admin/webhook-deliveries/{id}', path)), [params.id]);
  const retry = useAction();
  const d = delivery.data;
  usePolling(delivery.reload, 1500, !!d && settling(d));

  if (delivery.error)
    return (
      <section>
        <WebhookTabs current="" />
        <ErrorBox
          error={
            delivery.error.status === 404
              ? Object.assign(delivery.error, { message: 'This delivery does not exist in this workspace and environment.' })
              : delivery.error
          }
          onRetry={delivery.reload}
        />
      </section>
    );
  if (!d) return <Loading label="Loading delivery…" />;

  async function again() {
    const r = await retry.run(() => call(api.POST('/api/admin/webhook-deliveries/{id}/retry', path)));
    if (r) delivery.setData(r);
  }

  return (
    <section>
      <WebhookTabs current="" />
      <p>
        <Link to={`/dashboard/webhooks/${d.webhook_id}`}>← Endpoint</Link> · <Link to="/dashboard/webhooks/deliveries">All deliveries</Link>
      </p>
      <div className="page-head">
        <h1>
          Delivery <span className="mono">{d.id}</span> <Badge value={d.status} />
        </h1>
        {(d.status === 'dead' || d.status === 'failed') && (
          <button type="button" className="btn btn-primary" disabled={retry.busy} onClick={again}>
            {retry.busy ? 'Retrying…' : 'Retry now'}
          </button>
        )}
      </div>
      {retry.error && <ErrorBox error={retry.error} />}
      <dl className="facts">
        <div>
          <dt>Event</dt>
          <dd>
            <code>{d.event_type}</code> <span className="mono muted small">{d.event_id}</span>
          </dd>
        </div>
        <div>
          <dt>Attempts</dt>
          <dd>{d.attempt_count}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{when(d.created_at)}</dd>
        </div>
        <div>
          <dt>{d.status === 'delivered' ? 'Delivered' : 'Next attempt'}</dt>
          <dd>{d.status === 'delivered' ? when(d.delivered_at) : d.status === 'dead' ? 'none left' : when(d.next_attempt_at)}</dd>
        </div>
      </dl>
      <h2>Attempts</h2>
      {d.attempts.length === 0 ? (
        <Empty>Not attempted yet: the first attempt leaves within a few seconds of the event.</Empty>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="attempts">
            <thead>
              <tr>
                <th className="num">#</th>
                <th>Time</th>
                <th>Status code</th>
                <th className="num">Duration</th>
                <th>Error / response</th>
              </tr>
            </thead>
            <tbody>
              {d.attempts.map((a) => (
                <tr key={a.number}>
                  <td className="num">{a.number}</td>
                  <td>{when(a.attempted_at)}</td>
                  <td>
                    {a.status_code != null ? (
                      <Badge value={String(a.status_code)} kind={a.status_code >= 200 && a.status_code < 300 ? 'delivered' : 'failed'} />
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="num">{a.latency_ms} ms</td>
                  <td className="break">
                    {a.error && <div className="field-error">{a.error}</div>}
                    {a.response_body ? (
                      <details>
                        <summary>Response body</summary>
                        <pre className="excerpt">{a.response_body}</pre>
                      </details>
                    ) : (
                      !a.error && <span className="muted">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
