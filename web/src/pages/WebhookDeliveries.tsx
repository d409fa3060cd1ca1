import { useState } from 'react';
import { api, call } from '../api/client';
import { useLocation } from '../router';
import { useSession } from '../session';
import { asApiError, ConfirmButton, Empty, ErrorBox, Loading, Pager, Select, useAction, useAsync, useCursorPages, usePolling } from '../ui';
import { DELIVERY_STATUSES, DeliveriesTable, settling, WebhookTabs, type DeliveryStatus } from './webhooks-common';

/** Retries in flight at once during "retry all": quick, without flooding the service. */
const RETRY_CONCURRENCY = 4;

/** The endpoints of this environment, for the filter and the URL column (first 100). */
function useEndpoints() {
  const list = useAsync(() => call(api.GET('/api/admin/webhooks', { params: { query: { limit: 100 } } })), []);
  const urls = new Map((list.data?.data ?? []).map((w) => [w.id, w.url]));
  return { list, urls };
}

function EndpointFilter({ value, onChange, urls }: { value: string; onChange: (v: string) => void; urls: Map<string, string> }) {
  return (
    <Select label="Endpoint" value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">Every endpoint</option>
      {[...urls].map(([id, url]) => (
        <option key={id} value={id}>
          {url}
        </option>
      ))}
    </Select>
  );
}

/** Every delivery of the environment, filtered by status and endpoint. */
export function WebhookDeliveries() {
  // ?status= and ?webhook_id= preselect the filters (links from an endpoint's page).
  const { search } = useLocation();
  const [status, setStatus] = useState<DeliveryStatus | ''>(DELIVERY_STATUSES.find((s) => s === search.get('status')) ?? '');
  const [webhookId, setWebhookId] = useState(search.get('webhook_id') ?? '');
  const endpoints = useEndpoints();
  const pages = useCursorPages(`${status}|${webhookId}`);
  const list = useAsync(
    () =>
      call(
        api.GET('/api/admin/webhook-deliveries', {
          params: { query: { status: status || undefined, webhook_id: webhookId || undefined, cursor: pages.cursor, limit: 25 } },
        }),
      ),
    [status, webhookId, pages.cursor],
  );
  const retry = useAction();
  const rows = list.data?.data ?? [];
  usePolling(
    list.reload,
    1500,
    rows.some((d) => settling(d)),
  );

  return (
    <section>
      <h1>Webhook deliveries</h1>
      <WebhookTabs current="/dashboard/webhooks/deliveries" />
      <div className="filters">
        <Select label="Status" value={status} onChange={(e) => setStatus(e.target.value as DeliveryStatus | '')}>
          <option value="">Any</option>
          {DELIVERY_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
        <EndpointFilter value={webhookId} onChange={setWebhookId} urls={endpoints.urls} />
        <button type="button" className="btn btn-small" onClick={list.reload} disabled={list.loading}>
          Refresh
        </button>
      </div>
      {retry.error && <ErrorBox error={retry.error} />}
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading deliveries…" />
      ) : rows.length === 0 ? (
        <Empty>{status || webhookId ? 'No deliveries match these filters.' : 'No deliveries yet in this environment.'}</Empty>
      ) : (
        <>
          <DeliveriesTable
            rows={rows}
            endpointUrls={endpoints.urls}
            busy={retry.busy}
            onRetry={async (d) => {
              if (await retry.run(() => call(api.POST('/api/admin/webhook-deliveries/{id}/retry', { params: { path: { id: d.id } } })))) list.reload();
            }}
          />
          <Pager page={pages.page} hasMore={list.data.has_more} onPrev={pages.prev} onNext={() => pages.next(list.data?.next_cursor ?? null)} />
        </>
      )}
    </section>
  );
}

/** Deliveries with no retry left: retry one, or every one (of an endpoint, or of the environment). */
export function WebhookDeadLetters() {
  const { environment } = useSession();
  const [webhookId, setWebhookId] = useState('');
  const endpoints = useEndpoints();
  const pages = useCursorPages(webhookId);
  const list = useAsync(
    () =>
      call(
        api.GET('/api/admin/webhook-deliveries', {
          params: { query: { status: 'dead', webhook_id: webhookId || undefined, cursor: pages.cursor, limit: 25 } },
        }),
      ),
    [webhookId, pages.cursor],
  );
  const retry = useAction();
  const [progress, setProgress] = useState<{ done: number; total: number; refused: number; firstRefusal?: string; running: boolean } | null>(null);
  const rows = list.data?.data ?? [];

  async function retryOne(id: string) {
    setProgress(null);
    if (await retry.run(() => call(api.POST('/api/admin/webhook-deliveries/{id}/retry', { params: { path: { id } } })))) list.reload();
  }

  async function retryAll() {
    await retry.run(async () => {
      // Collect the ids first: each retry moves a delivery out of the dead list, which would
      // shift the cursor pages under a walk that retried as it went.
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await call(
          api.GET('/api/admin/webhook-deliveries', { params: { query: { status: 'dead', webhook_id: webhookId || undefined, limit: 100, cursor } } }),
        );
        ids.push(...page.data.map((d) => d.id));
        cursor = page.has_more ? (page.next_cursor ?? undefined) : undefined;
      } while (cursor);
      const state = { done: 0, total: ids.length, refused: 0, firstRefusal: undefined as string | undefined, running: true };
      setProgress({ ...state });
      let next = 0;
      const worker = async () => {
        while (next < ids.length) {
          const id = ids[next++];
          try {
            await call(api.POST('/api/admin/webhook-deliveries/{id}/retry', { params: { path: { id } } }));
          } catch (e) {
            // One refusal (an endpoint disabled meanwhile, a delivery already requeued) does not stop the rest.
            state.refused++;
            state.firstRefusal ??= asApiError(e).message;
          }
          state.done++;
          setProgress({ ...state });
        }
      };
      await Promise.all(Array.from({ length: RETRY_CONCURRENCY }, worker));
      setProgress({ ...state, running: false });
    });
    list.reload();
  }

  return (
    <section>
      <div className="page-head">
        <h1>Dead letters</h1>
        {rows.length > 0 && (
          <ConfirmButton
            label={webhookId ? 'Retry all of this endpoint' : 'Retry all'}
            confirmLabel={`Retry every dead letter${webhookId ? ' of this endpoint' : ` in ${environment}`}`}
            disabled={retry.busy}
            onConfirm={retryAll}
          />
        )}
      </div>
      <WebhookTabs current="/dashboard/webhooks/dead-letters" />
      <p className="muted">
        These deliveries used every attempt without a 2xx answer. A retry sends the same delivery (same id, fresh signature) once more, now.
      </p>
      <div className="filters">
        <EndpointFilter value={webhookId} onChange={setWebhookId} urls={endpoints.urls} />
        <button type="button" className="btn btn-small" onClick={list.reload} disabled={list.loading}>
          Refresh
        </button>
      </div>
      {progress && (
        <div className={`alert ${progress.refused ? 'alert-warn' : 'alert-info'}`} role="status" data-testid="retry-progress">
          {progress.running ? <progress max={progress.total} value={progress.done} aria-label="Retrying" /> : null}{' '}
          {progress.running
            ? `Retrying ${progress.done} of ${progress.total}…`
            : `Retried ${progress.done - progress.refused} of ${progress.total}: they are queued again.`}
          {progress.refused > 0 && ` ${progress.refused} refused: ${progress.firstRefusal}`}
        </div>
      )}
      {retry.error && <ErrorBox error={retry.error} />}
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading dead letters…" />
      ) : rows.length === 0 ? (
        <Empty>No dead letters{webhookId ? ' for this endpoint' : ''}. Every delivery either arrived or is still being retried.</Empty>
      ) : (
        <>
          <DeliveriesTable rows={rows} endpointUrls={endpoints.urls} busy={retry.busy} onRetry={(d) => retryOne(d.id)} testId="dead-letters" />
          <Pager page={pages.page} hasMore={list.data.has_more} onPrev={pages.prev} onNext={() => pages.next(list.data?.next_cursor ?? null)} />
        </>
      )}
    </section>
  );
}
