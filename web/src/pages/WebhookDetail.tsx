import { useEffect, useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import type { PageProps } from '../page-props';
import { Link, navigate } from '../router';
import {
  Badge,
  ConfirmButton,
  Empty,
  ErrorBox,
  Field,
  fieldError,
  Loading,
  Pager,
  SecretOnce,
  Select,
  useAction,
  useAsync,
  useCursorPages,
  usePolling,
  when,
} from '../ui';
import { DELIVERY_STATUSES, DeliveriesTable, EventsPicker, settling, WebhookTabs, type DeliveryStatus, type Endpoint, type EventType } from './webhooks-common';

export function WebhookDetail({ params }: PageProps) {
  const path = { params: { path: { id: params.id } } };
  const endpoint = useAsync(() => call(api.GET('/api/admin/webhooks/{id}', path)), [params.id]);
  const action = useAction();
  const [secret, setSecret] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [deliveriesTick, setDeliveriesTick] = useState(0);

  if (endpoint.error)
    return (
      <section>
        <WebhookTabs current="" />
        <ErrorBox
          error={
            endpoint.error.status === 404
              ? Object.assign(endpoint.error, { message: 'This endpoint does not exist in this workspace and environment.' })
              : endpoint.error
          }
          onRetry={endpoint.reload}
        />
      </section>
    );
  if (!endpoint.data) return <Loading label="Loading endpoint…" />;
  const w = endpoint.data;

  async function setEnabled(enabled: boolean) {
    setNotice(null);
    const r = await action.run(() => call(api.PATCH('/api/admin/webhooks/{id}', { ...path, body: { enabled } })));
    if (r) endpoint.setData(r);
  }
  async function rotate() {
    setNotice(null);
    const r = await action.run(() => call(api.POST('/api/admin/webhooks/{id}/rotate-secret', path)));
    if (r) {
      const { secret: value, ...rest } = r;
      setSecret(value);
      endpoint.setData(rest);
    }
  }
  async function sendTest() {
    setNotice(null);
    const r = await action.run(() => call(api.POST('/api/admin/webhooks/{id}/test', path)));
    if (r) {
      setNotice(`Test event queued as delivery ${r.id}.`);
      setDeliveriesTick((t) => t + 1);
    }
  }
  async function remove() {
    const r = await action.run(() => call(api.DELETE('/api/admin/webhooks/{id}', path)).then(() => true));
    if (r) navigate('/dashboard/webhooks');
  }

  return (
    <section>
      <WebhookTabs current="" />
      <p>
        <Link to="/dashboard/webhooks">← Endpoints</Link>
      </p>
      <div className="page-head">
        <h1>
          Endpoint <Badge value={w.enabled ? 'enabled' : 'disabled'} />
        </h1>
        <div className="actions" role="group" aria-label="Endpoint actions">
          <button
            type="button"
            className="btn btn-primary"
            disabled={action.busy || !w.enabled}
            onClick={sendTest}
            title={w.enabled ? undefined : 'Enable the endpoint first'}
          >
            Send test event
          </button>
          <button type="button" className="btn" disabled={action.busy} onClick={() => setEnabled(!w.enabled)}>
            {w.enabled ? 'Disable' : 'Enable'}
          </button>
          <button type="button" className="btn" disabled={action.busy} onClick={rotate}>
            Rotate secret
          </button>
          <ConfirmButton label="Delete" confirmLabel="Delete endpoint and its log" disabled={action.busy} onConfirm={remove} />
        </div>
      </div>
      <p className="mono break">{w.url}</p>
      {secret && <SecretOnce label="New signing secret" secret={secret} onDone={() => setSecret(null)} />}
      {secret && w.previous_secret_expires_at && (
        <p className="alert alert-info" role="note">
          The previous secret keeps signing (a second <code>v1=</code>) until {when(w.previous_secret_expires_at)}: switch your receiver before then.
        </p>
      )}
      {notice && (
        <p className="alert alert-info" role="status">
          {notice}
        </p>
      )}
      {action.error && <ErrorBox error={action.error} />}
      {!w.enabled && w.disabled_reason && (
        <p className="alert alert-warn" role="note">
          Disabled by the service: {w.disabled_reason} ({when(w.disabled_at)}). Enable it once the receiver is fixed; pending deliveries resume.
        </p>
      )}
      <dl className="facts">
        <div>
          <dt>ID</dt>
          <dd className="mono">{w.id}</dd>
        </div>
        <div>
          <dt>Environment</dt>
          <dd>
            <Badge value={w.environment} kind={`env-${w.environment}`} />
          </dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{when(w.created_at)}</dd>
        </div>
        <div>
          <dt>Secret rotated</dt>
          <dd>{w.secret_rotated_at ? when(w.secret_rotated_at) : 'never'}</dd>
        </div>
      </dl>
      <EditEndpoint key={w.id} endpoint={w} onSaved={endpoint.setData} />
      <EndpointDeliveries endpointId={w.id} tick={deliveriesTick} />
    </section>
  );
}

function EditEndpoint({ endpoint, onSaved }: { endpoint: Endpoint; onSaved: (e: Endpoint) => void }) {
  const initial = { url: endpoint.url, description: endpoint.description ?? '', events: endpoint.events as EventType[] };
  const [form, setForm] = useState(initial);
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const changed = form.url !== initial.url || form.description !== initial.description || form.events.join() !== initial.events.join();
  const err = (f: string) => fieldError(save.error?.details, f);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    const r = await save.run(() =>
      call(
        api.PATCH('/api/admin/webhooks/{id}', {
          params: { path: { id: endpoint.id } },
          body: { url: form.url.trim(), description: form.description.trim() || null, events: form.events },
        }),
      ),
    );
    if (r) {
      setSaved(true);
      onSaved(r);
    }
  }

  return (
    <form className="card form" onSubmit={submit} noValidate aria-label="Edit endpoint">
      <h2>Settings</h2>
      {save.error && !save.error.details.length && <ErrorBox error={save.error} />}
      <Field label="URL" type="url" value={form.url} maxLength={2048} onChange={(e) => setForm({ ...form, url: e.target.value })} error={err('url')} />
      <Field
        label="Description"
        value={form.description}
        maxLength={500}
        onChange={(e) => setForm({ ...form, description: e.target.value })}
        error={err('description')}
      />
      <EventsPicker value={form.events} onChange={(events) => setForm({ ...form, events })} error={err('events')} />
      {saved && !changed && (
        <p className="muted" role="status">
          Saved.
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={save.busy || !changed || !form.url.trim() || form.events.length === 0}>
        {save.busy ? 'Saving…' : 'Save changes'}
      </button>
    </form>
  );
}

function EndpointDeliveries({ endpointId, tick }: { endpointId: string; tick: number }) {
  const [status, setStatus] = useState<DeliveryStatus | ''>('');
  const pages = useCursorPages(status);
  const list = useAsync(
    () =>
      call(
        api.GET('/api/admin/webhooks/{id}/deliveries', {
          params: { path: { id: endpointId }, query: { status: status || undefined, cursor: pages.cursor, limit: 25 } },
        }),
      ),
    [endpointId, status, pages.cursor, tick],
  );
  const retry = useAction();
  const rows = list.data?.data ?? [];
  // Keep the log current while a delivery is on its way (the first attempt leaves within seconds).
  usePolling(
    list.reload,
    1500,
    rows.some((d) => settling(d)),
  );
  const clearRetryError = retry.setError;
  useEffect(() => clearRetryError(undefined), [status, clearRetryError]);

  return (
    <div className="card">
      <div className="page-head">
        <h2>Deliveries</h2>
        <div className="actions">
          <Select label="Status" value={status} onChange={(e) => setStatus(e.target.value as DeliveryStatus | '')}>
            <option value="">Any</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
          <button type="button" className="btn btn-small" onClick={list.reload} disabled={list.loading}>
            Refresh
          </button>
        </div>
      </div>
      {retry.error && <ErrorBox error={retry.error} />}
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading deliveries…" />
      ) : rows.length === 0 ? (
        <Empty>{status ? `No ${status} deliveries.` : 'Nothing delivered to this endpoint yet. Send a test event to try it.'}</Empty>
      ) : (
        <>
          <DeliveriesTable
            rows={rows}
            busy={retry.busy}
            onRetry={async (d) => {
              const r = await retry.run(() => call(api.POST('/api/admin/webhook-deliveries/{id}/retry', { params: { path: { id: d.id } } })));
              if (r) list.reload();
            }}
          />
          <Pager page={pages.page} hasMore={list.data.has_more} onPrev={pages.prev} onNext={() => pages.next(list.data?.next_cursor ?? null)} />
        </>
      )}
    </div>
  );
}
