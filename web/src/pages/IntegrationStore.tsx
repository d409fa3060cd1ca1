import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { channelTypes } from '../api/channels';
import { Link, navigate } from '../router';
import {
  Badge,
  ConfirmButton,
  duration,
  Empty,
  ErrorBox,
  Field,
  fieldError,
  Loading,
  Pager,
  useAction,
  useAsync,
  useCursorPages,
  usePolling,
  when,
} from '../ui';
import { MaskedCredentials, UnplacedErrors } from './carriers-common';
import { IntegrationExchanges } from './IntegrationExchanges';
import { HealthBadge } from './Integrations';
import { ConnectionBadge, healthReason, RETRYABLE, WriteBacksTable, type Integration, type SyncRun, type WriteBack } from './integrations-common';

/**
 * A store connection (docs/channels.md): its connection and health, how far behind the
 * store it is, its settings as a form, Test connection and Sync now, the sync runs, the
 * write-backs that need a hand and the exchange log with the store.
 */
export function IntegrationStore({ integration: i, onChange }: { integration: Integration; onChange: (i: Integration) => void }) {
  const types = useAsync(channelTypes, []);
  const type = types.data?.find((t) => t.platform === i.platform);
  const action = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  // Bumped after each call that may change the runs or the write-backs, so their lists re-read.
  const [syncTick, setSyncTick] = useState(0);
  const [writeBackTick, setWriteBackTick] = useState(0);
  // Bumped after each call that talks to the store, so the exchange log waits for its exchanges.
  const [storeCallTick, setStoreCallTick] = useState(0);
  const path = { params: { path: { id: i.id } } };
  const connection = i.connection;

  async function test() {
    setNotice(null);
    const r = await action.run(() => call(api.POST('/api/admin/integrations/{id}/test', path)));
    setStoreCallTick((t) => t + 1);
    if (r) {
      onChange(r);
      // A passing test drains the write-backs that waited for working credentials.
      setWriteBackTick((t) => t + 1);
      setNotice(
        r.health === 'healthy'
          ? 'Connection test passed.'
          : `Connection test: ${r.health.replaceAll('_', ' ')}${r.health_reason ? ` (${healthReason(r.health_reason)})` : ''}.`,
      );
    }
  }
  async function sync() {
    setNotice(null);
    const r = await action.run(() => call(api.POST('/api/admin/integrations/{id}/sync', { ...path, body: {} })));
    if (r) {
      setNotice('Sync queued: the store is read again for orders changed since the last one.');
      setSyncTick((t) => t + 1);
      setStoreCallTick((t) => t + 1);
    }
  }
  async function remove() {
    const r = await action.run(() => call(api.DELETE('/api/admin/integrations/{id}', path)).then(() => true));
    if (r) navigate('/dashboard/integrations');
  }

  return (
    <section>
      <p>
        <Link to="/dashboard/integrations">← Integrations</Link>
      </p>
      <div className="page-head">
        <h1>
          {i.name} <HealthBadge health={i.health} reason={healthReason(i.health_reason)} />
        </h1>
        <div className="actions" role="group" aria-label="Integration actions">
          <button type="button" className="btn btn-primary" disabled={action.busy} onClick={test}>
            {action.busy ? 'Working…' : 'Test connection'}
          </button>
          <button
            type="button"
            className="btn"
            disabled={action.busy || connection?.state !== 'active'}
            title={connection?.state === 'active' ? undefined : 'Connect the store first'}
            onClick={sync}
          >
            Sync now
          </button>
          <ConfirmButton label="Disconnect" confirmLabel="Really disconnect" disabled={action.busy} onConfirm={remove} />
        </div>
      </div>
      {notice && (
        <p className="alert alert-info" role="status">
          {notice}
        </p>
      )}
      {action.error && <ErrorBox error={action.error} />}
      {connection?.state === 'pending_authorization' && connection.authorize_url && (
        <p className="alert alert-warn" role="note">
          Approve the app on {type?.name ?? 'the store'} to finish connecting {i.store_ref}:{' '}
          <a className="btn btn-primary" href={connection.authorize_url}>
            Install on Shopify
          </a>
        </p>
      )}
      {connection?.state === 'disconnected' && (
        <p className="alert alert-warn" role="note">
          The store no longer talks to this connection: no orders come in and no tracking goes back. Replace the credentials or delete the integration.
        </p>
      )}
      <dl className="facts">
        <div>
          <dt>Store</dt>
          <dd className="mono">{i.store_ref ?? '—'}</dd>
        </div>
        <div>
          <dt>Platform</dt>
          <dd>{i.platform}</dd>
        </div>
        <div>
          <dt>Connection</dt>
          <dd data-testid="connection-state">{connection ? <ConnectionBadge state={connection.state} /> : '—'}</dd>
        </div>
        <div>
          <dt>Connected</dt>
          <dd>{when(connection?.connected_at)}</dd>
        </div>
        {i.base_url && (
          <div>
            <dt>Base URL</dt>
            <dd className="mono">{i.base_url}</dd>
          </div>
        )}
      </dl>
      <div className="grid2">
        <div className="card" data-testid="integration-health">
          <h2>Health</h2>
          <p>
            <HealthBadge health={i.health} reason={healthReason(i.health_reason)} /> {healthReason(i.health_reason) ?? ''}
          </p>
          <dl className="facts">
            <div>
              <dt>Since</dt>
              <dd>{when(i.health_since)}</dd>
            </div>
            <div>
              <dt>Checked</dt>
              <dd>{when(i.health_checked_at)}</dd>
            </div>
            <div>
              <dt>Lag</dt>
              <dd data-testid="sync-lag">{duration(i.sync?.lag_seconds)}</dd>
            </div>
            <div>
              <dt>Last webhook</dt>
              <dd>{when(i.sync?.last_webhook_at)}</dd>
            </div>
            <div>
              <dt>Last reconciliation</dt>
              <dd>{when(i.sync?.last_reconciled_at)}</dd>
            </div>
          </dl>
        </div>
        <div className="card">
          <h2>Credentials</h2>
          <MaskedCredentials credentials={i.credentials ?? {}} />
          <h3 className="small muted">Scopes granted</h3>
          {connection && connection.scopes.length > 0 ? (
            <ul className="plain mono small" data-testid="scopes">
              {connection.scopes.map((s) => (
                <li key={s}>{s}</li>
              ))}
            </ul>
          ) : (
            <p className="muted small">None yet.</p>
          )}
        </div>
      </div>
      {i.settings && (
        <StoreSettings
          key={`settings-${i.id}`}
          integration={i}
          statusesHint={type?.import_statuses_hint}
          onSaved={(r) => (onChange(r), setWriteBackTick((t) => t + 1))}
        />
      )}
      <SyncRuns integrationId={i.id} tick={syncTick} />
      <StuckWriteBacks integrationId={i.id} tick={writeBackTick} onRetried={() => setWriteBackTick((t) => t + 1)} />
      <IntegrationExchanges integrationId={i.id} tick={storeCallTick} />
    </section>
  );
}

type Settings = NonNullable<Integration['settings']>;

const splitStatuses = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** The settings as a form: PUT …/:id {name, settings} (settings are merged by the service, which re-tests at once). */
function StoreSettings({ integration, statusesHint, onSaved }: { integration: Integration; statusesHint?: string; onSaved: (i: Integration) => void }) {
  const s = integration.settings as Settings;
  const initial = {
    name: integration.name,
    import_statuses: s.import_statuses.join(', '),
    write_back: s.write_back,
    notify_customer: s.notify_customer,
    backfill_days: String(s.backfill_days),
    reconcile_interval_minutes: String(s.reconcile_interval_minutes),
  };
  // null: the saved values (they follow the integration as it changes); a draft once edited.
  const [draft, setDraft] = useState<typeof initial | null>(null);
  const form = draft ?? initial;
  const setForm = (next: typeof initial) => (setDraft(next), setDone(false));
  const [done, setDone] = useState(false);
  const save = useAction();
  const changed = (Object.keys(initial) as (keyof typeof initial)[]).some((k) => form[k] !== initial[k]);
  const err = (field: string) => fieldError(save.error?.details, field);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setDone(false);
    const settings = {
      import_statuses: splitStatuses(form.import_statuses),
      write_back: form.write_back,
      notify_customer: form.notify_customer,
      backfill_days: Number(form.backfill_days),
      reconcile_interval_minutes: Number(form.reconcile_interval_minutes),
    };
    const body = { ...(form.name.trim() !== integration.name ? { name: form.name.trim() } : {}), settings };
    const r = await save.run(() => call(api.PUT('/api/admin/integrations/{id}', { params: { path: { id: integration.id } }, body })));
    if (r) {
      setDraft(null);
      setDone(true);
      onSaved(r);
    }
  }

  return (
    <form className="card form" onSubmit={submit} noValidate aria-label="Store settings">
      <h2>Settings</h2>
      <UnplacedErrors error={save.error} placed={['name', 'settings.import_statuses', 'settings.backfill_days', 'settings.reconcile_interval_minutes']} />
      {done && (
        <p className="ok" role="status">
          Saved.
        </p>
      )}
      <div className="row">
        <Field label="Name" value={form.name} maxLength={200} onChange={(e) => setForm({ ...form, name: e.target.value })} error={err('name')} />
        <Field
          label="Statuses imported"
          value={form.import_statuses}
          onChange={(e) => setForm({ ...form, import_statuses: e.target.value })}
          error={err('settings.import_statuses') ?? fieldError(save.error?.details, 'settings.import_statuses[0]')}
          hint={statusesHint ?? 'the store’s status names, comma separated'}
        />
        <Field
          label="Backfill (days)"
          type="number"
          min={0}
          value={form.backfill_days}
          onChange={(e) => setForm({ ...form, backfill_days: e.target.value })}
          error={err('settings.backfill_days')}
        />
        <Field
          label="Reconcile every (minutes)"
          type="number"
          min={1}
          value={form.reconcile_interval_minutes}
          onChange={(e) => setForm({ ...form, reconcile_interval_minutes: e.target.value })}
          error={err('settings.reconcile_interval_minutes')}
        />
      </div>
      <label className="check-label">
        <input type="checkbox" checked={form.write_back} onChange={(e) => setForm({ ...form, write_back: e.target.checked })} /> Send tracking back to the store
        when a label is bought
      </label>
      <label className="check-label">
        <input
          type="checkbox"
          checked={form.notify_customer}
          disabled={!form.write_back}
          onChange={(e) => setForm({ ...form, notify_customer: e.target.checked })}
        />{' '}
        Let the store email the buyer about the shipment
      </label>
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={save.busy || !changed || !form.name.trim()}>
          {save.busy ? 'Saving and testing…' : 'Save settings'}
        </button>
      </div>
    </form>
  );
}

const UNSETTLED: readonly SyncRun['status'][] = ['queued', 'running'];

/** GET …/sync-runs, newest first; re-read every 2 s while one is queued or running. */
function SyncRuns({ integrationId, tick }: { integrationId: string; tick: number }) {
  const pages = useCursorPages(integrationId);
  const runs = useAsync(
    () => call(api.GET('/api/admin/integrations/{id}/sync-runs', { params: { path: { id: integrationId }, query: { cursor: pages.cursor, limit: 10 } } })),
    [integrationId, pages.cursor, tick],
  );
  const rows = runs.data?.data ?? [];
  usePolling(
    runs.reload,
    2000,
    rows.some((r) => UNSETTLED.includes(r.status)),
  );

  return (
    <div className="card">
      <div className="page-head">
        <h2>Sync runs</h2>
        <button type="button" className="btn btn-small" onClick={runs.reload} disabled={runs.loading}>
          Refresh
        </button>
      </div>
      {runs.error ? (
        <ErrorBox error={runs.error} onRetry={runs.reload} />
      ) : !runs.data ? (
        <Loading label="Loading sync runs…" />
      ) : rows.length === 0 ? (
        <Empty>No sync has run yet.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="sync-runs">
              <thead>
                <tr>
                  <th>Kind</th>
                  <th>Status</th>
                  <th className="num">Seen</th>
                  <th className="num">Created</th>
                  <th className="num">Updated</th>
                  <th className="num hide-sm">Unchanged</th>
                  <th className="num hide-sm">Skipped</th>
                  <th className="num">Failed</th>
                  <th>Started</th>
                  <th className="hide-sm">Finished</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id}>
                    <td>
                      {r.kind}
                      {r.since && <div className="muted small">since {when(r.since)}</div>}
                    </td>
                    <td>
                      <Badge value={r.status} />
                      {r.error && <div className="bad small">{r.error}</div>}
                    </td>
                    <td className="num">{r.counts.seen}</td>
                    <td className="num">{r.counts.created}</td>
                    <td className="num">{r.counts.updated}</td>
                    <td className="num hide-sm">{r.counts.unchanged}</td>
                    <td className="num hide-sm">{r.counts.skipped}</td>
                    <td className="num">{r.counts.failed}</td>
                    <td>{when(r.started_at ?? r.created_at)}</td>
                    <td className="hide-sm">{when(r.finished_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={pages.page} hasMore={runs.data.has_more} onPrev={pages.prev} onNext={() => pages.next(runs.data?.next_cursor ?? null)} />
        </>
      )}
    </div>
  );
}

/** The integration's dead and retrying write-backs (the list filters one status at a time). */
async function loadStuck(integrationId: string): Promise<WriteBack[]> {
  const lists = await Promise.all(
    RETRYABLE.map((status) => call(api.GET('/api/admin/write-backs', { params: { query: { integration_id: integrationId, status, limit: 100 } } }))),
  );
  return lists.flatMap((l) => l.data).sort((a, b) => b.created_at.localeCompare(a.created_at));
}

function StuckWriteBacks({ integrationId, tick, onRetried }: { integrationId: string; tick: number; onRetried: () => void }) {
  const list = useAsync(() => loadStuck(integrationId), [integrationId, tick]);
  return (
    <div className="card">
      <div className="page-head">
        <h2>Write-backs needing attention</h2>
        <button type="button" className="btn btn-small" onClick={list.reload} disabled={list.loading}>
          Refresh
        </button>
      </div>
      <p className="muted small">Tracking that could not be sent to the store yet (retrying) or was refused (dead). Retry runs it now.</p>
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading write-backs…" />
      ) : list.data.length === 0 ? (
        <Empty>No write-back is dead or retrying.</Empty>
      ) : (
        <WriteBacksTable rows={list.data} onRetried={onRetried} showShipment label="Write-backs needing attention" />
      )}
    </div>
  );
}
