import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { Link } from '../router';
import { useSession } from '../session';
import { Badge, Empty, ErrorBox, Field, fieldError, Loading, Pager, SecretOnce, Select, useAction, useAsync, useCursorPages, when } from '../ui';

export const PLATFORMS = ['shopify', 'woocommerce', 'bigcommerce', 'custom'] as const;

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
  const blank = {
    name: '',
    platform: 'shopify',
    shop: '',
    token_expires_at: '',
    access_token: '',
    client_secret: '',
    client_id: '',
    consumer_key: '',
    consumer_secret: '',
  };
  const [form, setForm] = useState(blank);
  const [created, setCreated] = useState<{ name: string; key: string; authorizeUrl: string | null } | null>(null);
  const create = useAction();
  const shopify = form.platform === 'shopify';
  const woocommerce = form.platform === 'woocommerce';
  const bigcommerce = form.platform === 'bigcommerce';

  /** Shopify: a custom app's token (active at once), or a Partner app's client id (the OAuth install). */
  function shopifyCredentials() {
    const secret = { client_secret: form.client_secret.trim() };
    return form.access_token.trim() ? { access_token: form.access_token.trim(), ...secret } : { client_id: form.client_id.trim(), ...secret };
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const name = form.name.trim();
    const platform = form.platform as (typeof PLATFORMS)[number];
    const body = shopify
      ? { name, platform, store_ref: form.shop.trim(), credentials: shopifyCredentials() }
      : woocommerce
        ? { name, platform, store_ref: form.shop.trim(), credentials: { consumer_key: form.consumer_key.trim(), consumer_secret: form.consumer_secret.trim() } }
        : bigcommerce
          ? { name, platform, store_ref: form.shop.trim(), credentials: { access_token: form.access_token.trim() } }
          : {
              name,
              platform,
              config: form.shop.trim() ? { shop_domain: form.shop.trim() } : {},
              token_expires_at: form.token_expires_at ? new Date(form.token_expires_at).toISOString() : null,
            };
    const res = await create.run(() => call(api.POST('/api/admin/integrations', { body })));
    if (res) {
      setCreated({ name: res.name, key: res.ingest_key ?? '', authorizeUrl: res.connection?.authorize_url ?? null });
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
          Approve the app on Shopify to finish connecting {created.name}:{' '}
          <a className="btn btn-primary" href={created.authorizeUrl}>
            Install on Shopify
          </a>
        </p>
      )}
      {created && <SecretOnce label={`Ingest key for ${created.name}`} secret={created.key} onDone={() => setCreated(null)} />}
      {creating && (
        <form onSubmit={submit} noValidate className="form card" aria-label="New integration">
          <h2>Connect a store</h2>
          {create.error && <ErrorBox error={create.error} />}
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
            <Select label="Platform" value={form.platform} onChange={(e) => setForm({ ...form, platform: e.target.value })}>
              {PLATFORMS.map((p) => (
                <option key={p}>{p}</option>
              ))}
            </Select>
            {shopify ? (
              <>
                <Field
                  label="Shop domain (name.myshopify.com)"
                  required
                  value={form.shop}
                  maxLength={255}
                  onChange={(e) => setForm({ ...form, shop: e.target.value })}
                  error={fieldError(create.error?.details, 'store_ref')}
                />
                <Field
                  label="Admin API access token (custom app)"
                  type="password"
                  autoComplete="off"
                  value={form.access_token}
                  maxLength={512}
                  onChange={(e) => setForm({ ...form, access_token: e.target.value })}
                  error={fieldError(create.error?.details, 'credentials.access_token')}
                />
                <Field
                  label="Client ID (Partner app, for the OAuth install)"
                  value={form.client_id}
                  maxLength={512}
                  disabled={Boolean(form.access_token)}
                  onChange={(e) => setForm({ ...form, client_id: e.target.value })}
                  error={fieldError(create.error?.details, 'credentials.client_id')}
                />
                <Field
                  label="Client secret (API secret key)"
                  required
                  type="password"
                  autoComplete="off"
                  value={form.client_secret}
                  maxLength={512}
                  onChange={(e) => setForm({ ...form, client_secret: e.target.value })}
                  error={fieldError(create.error?.details, 'credentials.client_secret')}
                />
              </>
            ) : woocommerce ? (
              <>
                <Field
                  label="Site URL (https://shop.example.com)"
                  required
                  value={form.shop}
                  maxLength={255}
                  onChange={(e) => setForm({ ...form, shop: e.target.value })}
                  error={fieldError(create.error?.details, 'store_ref')}
                />
                <Field
                  label="Consumer key (ck_…)"
                  required
                  type="password"
                  autoComplete="off"
                  value={form.consumer_key}
                  maxLength={512}
                  onChange={(e) => setForm({ ...form, consumer_key: e.target.value })}
                  error={fieldError(create.error?.details, 'credentials.consumer_key')}
                />
                <Field
                  label="Consumer secret (cs_…)"
                  required
                  type="password"
                  autoComplete="off"
                  value={form.consumer_secret}
                  maxLength={512}
                  onChange={(e) => setForm({ ...form, consumer_secret: e.target.value })}
                  error={fieldError(create.error?.details, 'credentials.consumer_secret')}
                />
              </>
            ) : bigcommerce ? (
              <>
                <Field
                  label="Store hash (from the API path stores/…/v3)"
                  required
                  value={form.shop}
                  maxLength={255}
                  onChange={(e) => setForm({ ...form, shop: e.target.value })}
                  error={fieldError(create.error?.details, 'store_ref')}
                />
                <Field
                  label="Access token (store API account)"
                  required
                  type="password"
                  autoComplete="off"
                  value={form.access_token}
                  maxLength={512}
                  onChange={(e) => setForm({ ...form, access_token: e.target.value })}
                  error={fieldError(create.error?.details, 'credentials.access_token')}
                />
              </>
            ) : (
              <>
                <Field label="Shop domain (optional)" value={form.shop} maxLength={200} onChange={(e) => setForm({ ...form, shop: e.target.value })} />
                <Field
                  label="Token expires (optional)"
                  type="datetime-local"
                  value={form.token_expires_at}
                  onChange={(e) => setForm({ ...form, token_expires_at: e.target.value })}
                  error={fieldError(create.error?.details, 'token_expires_at')}
                />
              </>
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
