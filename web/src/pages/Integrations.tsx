import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { channelTypes, CUSTOM_PLATFORM, type IntegrationPlatform } from '../api/channels';
import { Link } from '../router';
import { useSession } from '../session';
import { Badge, Empty, ErrorBox, Field, fieldError, Loading, Pager, SecretOnce, Select, useAction, useAsync, useCursorPages, when } from '../ui';

export function HealthBadge({ health, reason }: { health: string; reason?: string | null }) {
  return (
    <span title={reason ?? undefined}>
      <Badge value={health} kind={`health-${health}`} />
    </span>
  );
}

export function Integrations() {
  const { environment } = useSession();
  const pages = useCursorPages('');
  const list = useAsync(() => call(api.GET('/api/admin/integrations', { params: { query: { cursor: pages.cursor, limit: 25 } } })), [pages.cursor]);
  const [creating, setCreating] = useState(false);
  // The connect form is drawn from the platforms the service found (GET /api/admin/channel-types).
  const types = useAsync(channelTypes, []);
  const blank = { name: '', platform: '', store_ref: '', credentials: {} as Record<string, string>, token_expires_at: '' };
  const [form, setForm] = useState(blank);
  const [created, setCreated] = useState<{ name: string; key: string; authorizeUrl: string | null; platform: string } | null>(null);
  const create = useAction();
  // The first platform listed until one is picked; custom alone when the list could not be read.
  const selected = form.platform || types.data?.[0]?.platform || (types.error ? CUSTOM_PLATFORM : '');
  const type = types.data?.find((t) => t.platform === selected);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const name = form.name.trim();
    const platform = selected as IntegrationPlatform;
    // Empty fields are left out: the platform says which of its fields it needs (Shopify: a token, or a client id for OAuth).
    const credentials = Object.fromEntries(
      (type?.credentials ?? []).map((f) => [f.field, (form.credentials[f.field] ?? '').trim()] as const).filter(([, value]) => value !== ''),
    );
    const body = type
      ? { name, platform, store_ref: form.store_ref.trim(), credentials }
      : {
          name,
          platform,
          config: form.store_ref.trim() ? { shop_domain: form.store_ref.trim() } : {},
          token_expires_at: form.token_expires_at ? new Date(form.token_expires_at).toISOString() : null,
        };
    const res = await create.run(() => call(api.POST('/api/admin/integrations', { body })));
    if (res) {
      setCreated({ name: res.name, key: res.ingest_key ?? '', authorizeUrl: res.connection?.authorize_url ?? null, platform: type?.name ?? platform });
      setCreating(false);
      setForm(blank);
      list.reload();
    }
  }

  return (
    <section>
      <div className="page-head">
        <h1>Integrations</h1>
        {!creating && (
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
            Connect a store
          </button>
        )}
      </div>
      <p className="muted">
        Orders an integration sends land in the {environment} environment. Stores push orders to <code>POST /api/integrations/orders</code> with their ingest
        key.
      </p>
      {created?.authorizeUrl && (
        <p className="card">
          Approve the app on {created.platform} to finish connecting {created.name}:{' '}
          <a className="btn btn-primary" href={created.authorizeUrl}>
            Install on {created.platform}
          </a>
        </p>
      )}
      {created && <SecretOnce label={`Ingest key for ${created.name}`} secret={created.key} onDone={() => setCreated(null)} />}
      {creating && (
        <form onSubmit={submit} noValidate className="form card" aria-label="New integration">
          <h2>Connect a store</h2>
          {create.error && <ErrorBox error={create.error} />}
          {types.error && <ErrorBox error={types.error} onRetry={types.reload} />}
          <div className="row">
            <Field
              label="Name"
              required
              value={form.name}
              maxLength={200}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
              error={fieldError(create.error?.details, 'name')}
              autoFocus
            />
            <Select label="Platform" value={selected} onChange={(e) => setForm({ ...form, platform: e.target.value, credentials: {} })}>
              {(types.data ?? []).map((t) => (
                <option key={t.platform} value={t.platform}>
                  {t.name}
                </option>
              ))}
              <option value={CUSTOM_PLATFORM}>Custom (push with the ingest key)</option>
            </Select>
            {type ? (
              <>
                <Field
                  label={type.store_ref.label}
                  required
                  value={form.store_ref}
                  maxLength={255}
                  onChange={(e) => setForm({ ...form, store_ref: e.target.value })}
                  error={fieldError(create.error?.details, 'store_ref')}
                />
                {type.credentials.map((f) => (
                  <Field
                    key={f.field}
                    label={f.label}
                    required={f.required}
                    type={f.secret ? 'password' : 'text'}
                    autoComplete="off"
                    value={form.credentials[f.field] ?? ''}
                    maxLength={512}
                    onChange={(e) => setForm({ ...form, credentials: { ...form.credentials, [f.field]: e.target.value } })}
                    error={fieldError(create.error?.details, `credentials.${f.field}`)}
                  />
                ))}
              </>
            ) : selected === CUSTOM_PLATFORM ? (
              <>
                <Field
                  label="Shop domain (optional)"
                  value={form.store_ref}
                  maxLength={200}
                  onChange={(e) => setForm({ ...form, store_ref: e.target.value })}
                />
                <Field
                  label="Token expires (optional)"
                  type="datetime-local"
                  value={form.token_expires_at}
                  onChange={(e) => setForm({ ...form, token_expires_at: e.target.value })}
                  error={fieldError(create.error?.details, 'token_expires_at')}
                />
              </>
            ) : (
              <Loading label="Loading platforms…" />
            )}
          </div>
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={create.busy || !form.name.trim()}>
              {create.busy ? 'Connecting…' : 'Connect'}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => setCreating(false)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading integrations…" />
      ) : list.data.data.length === 0 ? (
        <Empty>No integrations in this environment yet.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Platform</th>
                  <th>Health</th>
                  <th className="hide-sm">Last order</th>
                  <th className="hide-sm">Key</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((i) => (
                  <tr key={i.id}>
                    <td>
                      <Link to={`/dashboard/integrations/${i.id}`}>{i.name}</Link>
                    </td>
                    <td>{i.platform}</td>
                    <td>
                      <HealthBadge health={i.health} reason={i.health_reason} />
                    </td>
                    <td className="hide-sm">{when(i.last_intake_at)}</td>
                    <td className="hide-sm mono">…{i.ingest_key_last4}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={pages.page} hasMore={list.data.has_more} onPrev={pages.prev} onNext={() => pages.next(list.data?.next_cursor ?? null)} />
        </>
      )}
    </section>
  );
}
