import type { Operations, Schemas } from '../api/client';
import { Link } from '../router';
import { Badge, Tabs, when } from '../ui';

export type Endpoint = Schemas['WebhookEndpoint'];
export type Delivery = Schemas['WebhookDelivery'];
export type EventType = Operations['adminCreateWebhook']['requestBody']['content']['application/json']['events'][number];
export type DeliveryStatus = Delivery['status'];

export const EVENT_TYPES: Exclude<EventType, '*'>[] = [
  'shipment.label_purchased',
  'tracking.updated',
  'integration.health_changed',
  'batch.completed',
  'shipment.refund_updated',
  'manifest.ready',
];
export const DELIVERY_STATUSES: DeliveryStatus[] = ['pending', 'failed', 'dead', 'delivered'];

export function WebhookTabs({ current }: { current: string }) {
  return (
    <Tabs
      label="Webhooks"
      current={current}
      tabs={[
        { to: '/dashboard/webhooks', label: 'Endpoints' },
        { to: '/dashboard/webhooks/deliveries', label: 'Deliveries' },
        { to: '/dashboard/webhooks/dead-letters', label: 'Dead letters' },
      ]}
    />
  );
}

/** Checkboxes for the subscribed events; "every event" (`*`) also covers types added later. */
export function EventsPicker({ value, onChange, error }: { value: EventType[]; onChange: (v: EventType[]) => void; error?: string }) {
  const all = value.includes('*');
  const toggle = (t: EventType) => onChange(value.includes(t) ? value.filter((v) => v !== t) : [...value, t]);
  return (
    <fieldset className={`events-picker${error ? ' field-invalid' : ''}`}>
      <legend>Events</legend>
      <label className="check-label">
        <input type="checkbox" checked={all} onChange={() => onChange(all ? [] : ['*'])} /> Every event, including types added later
      </label>
      {EVENT_TYPES.map((t) => (
        <label key={t} className="check-label">
          <input type="checkbox" disabled={all} checked={all || value.includes(t)} onChange={() => toggle(t)} /> <code>{t}</code>
        </label>
      ))}
      {error && <span className="field-error">{error}</span>}
    </fieldset>
  );
}

/** Whether a delivery may change soon (the page keeps refreshing while one does). */
export function settling(d: Pick<Delivery, 'status' | 'next_attempt_at'>, now = Date.now()): boolean {
  if (d.status === 'pending') return true;
  return d.status === 'failed' && d.next_attempt_at != null && Date.parse(d.next_attempt_at) - now < 120_000;
}

/** The last attempt in a few words: "HTTP 500 · 12 ms", or its error. */
export function outcome(d: Delivery): string {
  const last = d.attempts[d.attempts.length - 1];
  if (!last) return d.status === 'pending' ? 'Not attempted yet' : '—';
  const parts = [last.status_code != null ? `HTTP ${last.status_code}` : null, `${last.latency_ms} ms`, last.error].filter(Boolean);
  return parts.join(' · ');
}

export function DeliveriesTable({
  rows,
  endpointUrls,
  onRetry,
  busy,
  testId = 'deliveries',
}: {
  rows: Delivery[];
  /** Shows an endpoint column (the global lists). */
  endpointUrls?: Map<string, string>;
  onRetry?: (d: Delivery) => void;
  busy?: boolean;
  testId?: string;
}) {
  return (
    <div className="table-wrap">
      <table className="table" data-testid={testId}>
        <thead>
          <tr>
            <th>Delivery</th>
            <th>Event</th>
            {endpointUrls && <th className="hide-sm">Endpoint</th>}
            <th>Status</th>
            <th className="hide-sm num">Attempts</th>
            <th className="hide-sm">Last attempt</th>
            <th className="hide-sm">Created</th>
            {onRetry && (
              <th>
                <span className="sr-only">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map((d) => (
            <tr key={d.id}>
              <td>
                <Link to={`/dashboard/webhooks/deliveries/${d.id}`} className="mono">
                  {d.id}
                </Link>
              </td>
              <td>
                <code>{d.event_type}</code>
              </td>
              {endpointUrls && (
                <td className="hide-sm">
                  <Link to={`/dashboard/webhooks/${d.webhook_id}`} className="mono">
                    {endpointUrls.get(d.webhook_id) ?? d.webhook_id}
                  </Link>
                </td>
              )}
              <td>
                <Badge value={d.status} />
              </td>
              <td className="hide-sm num">{d.attempt_count}</td>
              <td className="hide-sm">
                {outcome(d)}
                {d.status === 'failed' && d.next_attempt_at && <div className="muted small">next {when(d.next_attempt_at)}</div>}
              </td>
              <td className="hide-sm">{when(d.created_at)}</td>
              {onRetry && (
                <td>
                  {(d.status === 'dead' || d.status === 'failed') && (
                    <button type="button" className="btn btn-small" disabled={busy} onClick={() => onRetry(d)} aria-label={`Retry ${d.id}`}>
                      Retry
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
