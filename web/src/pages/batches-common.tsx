import type { Schemas } from '../api/client';
import { Link } from '../router';

export type Batch = Schemas['Batch'];
export type BatchItem = Schemas['BatchItem'];

export const BATCH_TYPE_LABEL: Record<Batch['type'], string> = {
  purchase_labels: 'Buy labels',
  process_orders: 'Process orders',
  import_orders: 'Import orders',
  validate_addresses: 'Validate addresses',
  create_returns: 'Create returns',
};

/** Queued or running: the numbers still move. */
export const isActive = (b: Pick<Batch, 'status'>) => b.status === 'queued' || b.status === 'running';

/** A progress bar the CSP allows (no inline style): the native <progress>, labelled for screen readers. */
export function BatchProgress({ batch, label }: { batch: Batch; label?: string }) {
  const finished = batch.counts.total - batch.counts.pending;
  const pct = Math.round(batch.progress * 100);
  return (
    <span className="batch-progress">
      <progress max={Math.max(1, batch.counts.total)} value={finished} aria-label={label ?? `Progress of ${batch.id}`} />
      <span className="small">{pct}%</span>
    </span>
  );
}

/** What an item made: a shipment (purchase_labels) or an order (process/import), linked. */
export function ItemResult({ result }: { result: unknown }) {
  const r = (result ?? {}) as { shipment?: { id?: string; tracking_number?: string }; order?: { id?: string; external_id?: string | null }; status?: string };
  if (r.shipment?.id)
    return (
      <Link to={`/dashboard/shipments/${r.shipment.id}`} className="mono">
        {r.shipment.tracking_number ?? r.shipment.id}
      </Link>
    );
  if (r.order?.id)
    return (
      <Link to={`/dashboard/orders/${r.order.id}`} className="mono">
        {r.order.external_id ?? r.order.id}
      </Link>
    );
  if (r.status) return <span>{r.status}</span>;
  return <span className="muted">—</span>;
}
