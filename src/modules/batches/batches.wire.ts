import type { Counts } from './batches.repo.js';
import type { Batch, BatchItem } from './batches.schemas.js';
import type { BatchItemRow, BatchRow } from './batches.tables.js';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function toBatch(row: BatchRow, counts: Counts, baseUrl: string, now: Date): Batch {
  const done = counts.total - counts.pending;
  const processed = counts.succeeded + counts.failed;
  let eta: number | null = null;
  if (row.status === 'running' && row.started_at && processed > 0) {
    const elapsed = (now.getTime() - new Date(row.started_at).getTime()) / 1000;
    eta = Math.max(0, Math.round((elapsed / processed) * counts.pending));
  }
  const finished = !['queued', 'running'].includes(row.status);
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    counts,
    progress: counts.total === 0 ? 1 : Math.round((done / counts.total) * 10_000) / 10_000,
    label_format: row.label_format,
    service_code: row.service_code,
    location_id: row.location_id ?? null,
    eta_seconds: eta,
    label:
      finished && (row.type === 'purchase_labels' || row.type === 'create_returns') && counts.succeeded > 0
        ? { url: `${baseUrl}/v1/batches/${row.id}/label` }
        : null,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    created_at: iso(row.created_at)!,
  };
}

export function toBatchItem(row: BatchItemRow): BatchItem {
  return {
    id: row.id,
    index: row.idx,
    status: row.status,
    result: row.result,
    error: row.error,
    finished_at: iso(row.finished_at),
  };
}
