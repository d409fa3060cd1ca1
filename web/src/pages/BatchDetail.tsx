import { useState } from 'react';
import { api, call } from '../api/client';
import type { PageProps } from '../page-props';
import { Link } from '../router';
import { Badge, ConfirmButton, duration, Empty, ErrorBox, Loading, Pager, Select, useAction, useAsync, useCursorPages, usePolling, when } from '../ui';
import { BATCH_TYPE_LABEL, isActive, ItemResult, type BatchItem } from './batches-common';
import { fetchAdminFile, saveBlob } from './label-file';
import { useSession } from '../session';

const EXT_BY_TYPE: Record<string, string> = { 'application/pdf': 'pdf', 'application/x-zpl': 'zpl', 'image/png': 'png' };

export function BatchDetail({ params }: PageProps) {
  const path = { params: { path: { id: params.id } } };
  const batch = useAsync(() => call(api.GET('/api/admin/batches/{id}', path)), [params.id]);
  const action = useAction();
  const canOperate = useSession().can('operator');
  const b = batch.data;
  // Live progress: one read a second while queued or running; stops once it has finished.
  usePolling(async () => batch.setData(await call(api.GET('/api/admin/batches/{id}', path))), 1000, !!b && isActive(b));

  if (batch.error)
    return (
      <ErrorBox
        error={
          batch.error.status === 404 ? Object.assign(batch.error, { message: 'This batch does not exist in this workspace and environment.' }) : batch.error
        }
        onRetry={batch.reload}
      />
    );
  if (!b) return <Loading label="Loading batch…" />;

  async function cancel() {
    const r = await action.run(() => call(api.POST('/api/admin/batches/{id}/cancel', path)));
    if (r) batch.setData(r);
  }
  async function download() {
    await action.run(async () => {
      const blob = await fetchAdminFile(`/api/admin/batches/${encodeURIComponent(params.id)}/label`);
      saveBlob(blob, `labels-${params.id}.${EXT_BY_TYPE[blob.type.split(';')[0]] ?? 'pdf'}`);
    });
  }

  const finished = b.counts.total - b.counts.pending;
  return (
    <section>
      <p>
        <Link to="/dashboard/batches">← Batches</Link>
      </p>
      <div className="page-head">
        <h1>
          {BATCH_TYPE_LABEL[b.type]} <span className="mono small">{b.id}</span> <Badge value={b.status} />
        </h1>
        <div className="actions" role="group" aria-label="Batch actions">
          {canOperate && isActive(b) && (
            <ConfirmButton label="Cancel batch" confirmLabel="Cancel the items not started" disabled={action.busy} onConfirm={cancel} />
          )}
          {b.label && (
            <button type="button" className="btn btn-primary" disabled={action.busy} onClick={download}>
              Download merged label
            </button>
          )}
        </div>
      </div>
      {action.error && <ErrorBox error={action.error} />}
      <div className="card" data-testid="batch-progress">
        <div className="progress-row">
          <progress max={Math.max(1, b.counts.total)} value={finished} aria-label="Batch progress" />
          <strong>{Math.round(b.progress * 100)}%</strong>
        </div>
        <p role="status" aria-live="polite" className="small">
          {finished} of {b.counts.total} items finished
          {b.status === 'running' && b.eta_seconds != null && ` · about ${duration(b.eta_seconds)} left`}
          {b.status === 'queued' && ' · waiting for a worker'}
        </p>
        <dl className="facts counts">
          <div>
            <dt>Total</dt>
            <dd>{b.counts.total}</dd>
          </div>
          <div>
            <dt>Succeeded</dt>
            <dd className="ok">{b.counts.succeeded}</dd>
          </div>
          <div>
            <dt>Failed</dt>
            <dd className={b.counts.failed ? 'bad' : undefined}>{b.counts.failed}</dd>
          </div>
          <div>
            <dt>Pending</dt>
            <dd>{b.counts.pending}</dd>
          </div>
          {b.counts.cancelled > 0 && (
            <div>
              <dt>Cancelled</dt>
              <dd>{b.counts.cancelled}</dd>
            </div>
          )}
        </dl>
      </div>
      <dl className="facts">
        <div>
          <dt>Created</dt>
          <dd>{when(b.created_at)}</dd>
        </div>
        <div>
          <dt>Started</dt>
          <dd>{when(b.started_at)}</dd>
        </div>
        <div>
          <dt>Finished</dt>
          <dd>{when(b.finished_at)}</dd>
        </div>
        {b.started_at && b.finished_at && (
          <div>
            <dt>Took</dt>
            <dd>{duration((Date.parse(b.finished_at) - Date.parse(b.started_at)) / 1000)}</dd>
          </div>
        )}
        {b.type === 'purchase_labels' && (
          <div>
            <dt>Service / format</dt>
            <dd>
              {b.service_code ?? "each order's requested service, else the cheapest"} · {b.label_format ?? 'pdf_4x6'}
            </dd>
          </div>
        )}
      </dl>
      <Items batchId={b.id} version={`${b.status}:${b.counts.failed}:${b.counts.succeeded}`} />
    </section>
  );
}

type ItemFilter = BatchItem['status'] | '';

/** `version` changes when the counts do: the list reloads as items finish. */
function Items({ batchId, version }: { batchId: string; version: string }) {
  // Failed items first (what an operator has to act on), any item on request.
  const [status, setStatus] = useState<ItemFilter>('failed');
  const pages = useCursorPages(status);
  const list = useAsync(
    () =>
      call(
        api.GET('/api/admin/batches/{id}/items', {
          params: { path: { id: batchId }, query: { status: status || undefined, cursor: pages.cursor, limit: 50 } },
        }),
      ),
    [batchId, status, pages.cursor, version],
  );
  const rows = list.data?.data ?? [];
  return (
    <div className="card">
      <div className="page-head">
        <h2>{status === 'failed' ? 'Failed items' : 'Items'}</h2>
        <Select label="Show" value={status} onChange={(e) => setStatus(e.target.value as ItemFilter)}>
          <option value="failed">Failed</option>
          <option value="succeeded">Succeeded</option>
          <option value="pending">Pending</option>
          <option value="cancelled">Cancelled</option>
          <option value="">All</option>
        </Select>
      </div>
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading items…" />
      ) : rows.length === 0 ? (
        <Empty>{status === 'failed' ? 'No failed items.' : 'No items match.'}</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="batch-items">
              <thead>
                <tr>
                  <th className="num">#</th>
                  <th>Status</th>
                  <th>Result or error</th>
                  <th className="hide-sm">Finished</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((it) => (
                  <tr key={it.id}>
                    <td className="num">{it.index}</td>
                    <td>
                      <Badge value={it.status} />
                    </td>
                    <td className="break">
                      {it.error ? (
                        <>
                          <code>{it.error.code}</code> {it.error.message}
                        </>
                      ) : (
                        <ItemResult result={it.result} />
                      )}
                    </td>
                    <td className="hide-sm">{when(it.finished_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={pages.page} hasMore={list.data.has_more} onPrev={pages.prev} onNext={() => pages.next(list.data?.next_cursor ?? null)} />
        </>
      )}
    </div>
  );
}
