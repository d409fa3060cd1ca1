import { api, call, type Order, type Schemas } from '../api/client';
import { Link } from '../router';
import { Badge, ErrorBox, useAction, when } from '../ui';

export type Integration = Schemas['Integration'];
export type WriteBack = Schemas['WriteBack'];
export type SyncRun = Schemas['SyncRun'];

/** Write-backs an operator can push again now (docs/channels.md): the others are done or about to run. */
export const RETRYABLE: readonly WriteBack['status'][] = ['dead', 'retrying'];

const ACTIONS: Record<WriteBack['action'], string> = {
  fulfill: 'Fulfil with tracking',
  update_tracking: 'Update tracking',
  cancel_fulfillment: 'Cancel fulfilment',
};

export const writeBackAction = (a: WriteBack['action']) => ACTIONS[a] ?? a.replaceAll('_', ' ');

/** needs_review in the operator's words (docs/channels.md): what happened on the store, and when. */
export const REVIEW_REASONS: Record<NonNullable<Order['needs_review']>['reason'], string> = {
  edited_after_label: 'Edited on the store after the label was bought',
  cancelled_on_channel: 'Cancelled on the store after the label was bought',
};

/** Health reasons the service gives as codes; the others are already sentences. */
const HEALTH_REASONS: Record<string, string> = {
  app_uninstalled: 'The app was uninstalled from the store',
};

export const healthReason = (reason: string | null | undefined) => (reason ? (HEALTH_REASONS[reason] ?? reason) : null);

const CONNECTION_STATES: Record<NonNullable<Integration['connection']>['state'], string> = {
  pending_authorization: 'Waiting for approval on the store',
  active: 'Connected',
  paused: 'Paused',
  disconnected: 'Disconnected',
};

export function ConnectionBadge({ state }: { state: NonNullable<Integration['connection']>['state'] }) {
  return (
    <span title={CONNECTION_STATES[state]}>
      <Badge value={state} kind={`conn-${state}`} />
    </span>
  );
}

/** The last error of a write-back as the platform gave it: its message, with the code and HTTP status beneath. */
export function WriteBackError({ error }: { error: WriteBack['last_error'] }) {
  if (!error) return <span className="muted">—</span>;
  return (
    <span className="write-back-error">
      <span>{error.message}</span>
      <span className="muted small">
        {' '}
        ({error.code}
        {error.platform_status != null ? ` · HTTP ${error.platform_status}` : ''})
      </span>
    </span>
  );
}

/**
 * Write-backs (the tracking sent back to the store) with a Retry button on the dead and retrying
 * ones: POST /api/admin/write-backs/:id/retry runs it now and answers it after the attempt.
 */
export function WriteBacksTable({
  rows,
  onRetried,
  showShipment,
  label,
}: {
  rows: WriteBack[];
  onRetried: (w: WriteBack) => void;
  showShipment?: boolean;
  label: string;
}) {
  const retry = useAction();
  async function run(id: string) {
    const r = await retry.run(() => call(api.POST('/api/admin/write-backs/{id}/retry', { params: { path: { id } } })));
    if (r) onRetried(r);
  }
  return (
    <>
      {retry.error && <ErrorBox error={retry.error} />}
      <div className="table-wrap">
        <table className="table" aria-label={label} data-testid="write-backs">
          <thead>
            <tr>
              <th>Action</th>
              <th>Status</th>
              {showShipment && <th>Shipment</th>}
              <th className="num">Attempts</th>
              <th className="hide-sm">Store reference</th>
              <th>Last error</th>
              <th>
                <span className="sr-only">Retry</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((w) => (
              <tr key={w.id}>
                <td>
                  {writeBackAction(w.action)}
                  <div className="muted small">{when(w.completed_at ?? w.created_at)}</div>
                </td>
                <td>
                  <Badge value={w.status} kind={`wb-${w.status}`} />
                  {w.status === 'retrying' && w.next_attempt_at && <div className="muted small">next {when(w.next_attempt_at)}</div>}
                </td>
                {showShipment && (
                  <td>
                    <Link to={`/dashboard/shipments/${w.shipment_id}`} className="mono small">
                      {w.shipment_id}
                    </Link>
                  </td>
                )}
                <td className="num">{w.attempts}</td>
                <td className="hide-sm mono small break">{w.external_refs.length > 1 ? w.external_refs.join(', ') : (w.external_ref ?? '—')}</td>
                <td>
                  <WriteBackError error={w.last_error} />
                </td>
                <td>
                  {RETRYABLE.includes(w.status) && (
                    <button type="button" className="btn btn-small" disabled={retry.busy} onClick={() => run(w.id)}>
                      {retry.busy ? 'Retrying…' : 'Retry'}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
