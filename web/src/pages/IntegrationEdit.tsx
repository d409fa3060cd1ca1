import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { channelTypes, CUSTOM_PLATFORM, type IntegrationPlatform } from '../api/channels';
import type { PageProps } from '../page-props';
import { Link, navigate } from '../router';
import { ConfirmButton, ErrorBox, Field, fieldError, Loading, SecretOnce, Select, useAction, useAsync, when } from '../ui';
import { HealthBadge } from './Integrations';
import { IntegrationStore } from './IntegrationStore';

const toLocal = (iso: string | null) => (iso ? new Date(iso).toISOString().slice(0, 16) : '');

export function IntegrationEdit({ params }: PageProps) {
  const types = useAsync(channelTypes, []);
  const item = useAsync(() => call(api.GET('/api/admin/integrations/{id}', { params: { path: { id: params.id } } })), [params.id]);
  const [form, setForm] = useState<{ name: string; platform: string; token_expires_at: string; rotate: boolean } | null>(null);
  const [newKey, setNewKey] = useState<string | null>(null);
  const save = useAction();
  const remove = useAction();

  if (item.error)
    return (
      <ErrorBox
        error={
          item.error.status === 404 ? Object.assign(item.error, { message: 'This integration does not exist in this workspace and environment.' }) : item.error
        }
        onRetry={item.reload}
      />
    );
  if (!item.data) return <Loading label="Loading integration…" />;
  const i = item.data;
  // A store connection (docs/channels.md) has its own page; push intake keeps this one.
  if (i.connection) return <IntegrationStore integration={i} onChange={item.setData} />;
  const f = form ?? { name: i.name, platform: i.platform, token_expires_at: toLocal(i.token_expires_at), rotate: false };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const res = await save.run(() =>
      call(
        api.PUT('/api/admin/integrations/{id}', {
          params: { path: { id: i.id } },
          body: {
            name: f.name.trim(),
            platform: f.platform as IntegrationPlatform,
            token_expires_at: f.token_expires_at ? new Date(f.token_expires_at).toISOString() : null,
            ...(f.rotate ? { rotate_ingest_key: true } : {}),
          },
        }),
      ),
    );
    if (res) {
      item.setData(res);
      setForm(null);
      if ('ingest_key' in res && res.ingest_key) setNewKey(res.ingest_key);
    }
  }

  return (
    <section>
      <p>
        <Link to="/dashboard/integrations">← Integrations</Link>
      </p>
      <div className="page-head">
        <h1>
          {i.name} <HealthBadge health={i.health} reason={i.health_reason} />
        </h1>
      </div>
      <dl className="facts">
        <div>
          <dt>Health checked</dt>
          <dd>{when(i.health_checked_at)}</dd>
        </div>
        <div>
          <dt>Reason</dt>
          <dd>{i.health_reason ?? '—'}</dd>
        </div>
        <div>
          <dt>Last order</dt>
          <dd>{when(i.last_intake_at)}</dd>
        </div>
        <div>
          <dt>Ingest key</dt>
          <dd className="mono">…{i.ingest_key_last4}</dd>
        </div>
      </dl>
      {newKey && <SecretOnce label="New ingest key" secret={newKey} onDone={() => setNewKey(null)} />}
      <form onSubmit={submit} noValidate className="form card">
        <h2>Edit</h2>
        {save.error && <ErrorBox error={save.error} />}
        <div className="row">
          <Field
            label="Name"
            value={f.name}
            maxLength={200}
            onChange={(e) => setForm({ ...f, name: e.target.value })}
            error={fieldError(save.error?.details, 'name')}
          />
          <Select label="Platform" value={f.platform} onChange={(e) => setForm({ ...f, platform: e.target.value })}>
            {[...new Set([f.platform, ...(types.data ?? []).map((t) => t.platform), CUSTOM_PLATFORM])].map((p) => (
              <option key={p}>{p}</option>
            ))}
          </Select>
          <Field label="Token expires" type="datetime-local" value={f.token_expires_at} onChange={(e) => setForm({ ...f, token_expires_at: e.target.value })} />
        </div>
        <label className="check-label">
          <input type="checkbox" checked={f.rotate} onChange={(e) => setForm({ ...f, rotate: e.target.checked })} /> Issue a new ingest key (the current one
          stops working at once)
        </label>
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={save.busy || !f.name.trim()}>
            {save.busy ? 'Saving…' : 'Save'}
          </button>
          <ConfirmButton
            label="Disconnect"
            confirmLabel="Really disconnect"
            disabled={remove.busy}
            onConfirm={async () => {
              const ok = await remove.run(async () => {
                await call(api.DELETE('/api/admin/integrations/{id}', { params: { path: { id: i.id } } }));
                return true;
              });
              if (ok) navigate('/dashboard/integrations');
            }}
          />
        </div>
        {remove.error && <ErrorBox error={remove.error} />}
      </form>
    </section>
  );
}
