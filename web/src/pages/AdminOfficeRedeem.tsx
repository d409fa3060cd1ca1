import { useEffect, useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { Badge, Empty, ErrorBox, Field, fieldError, Loading, useAction, useAsync, when } from '../ui';

const PAGE = 25;

export function AdminOfficeRedeem() {
  return (
    <section>
      <h1>Office redeem</h1>
      <Pins />
      <div className="grid2">
        <Config2024 />
        <Config365 />
      </div>
    </section>
  );
}

function Pins() {
  const [filter, setFilter] = useState('');
  const [q, setQ] = useState('');
  const [applied, setApplied] = useState({ filter: '', q: '' });
  const [offset, setOffset] = useState(0);
  const list = useAsync(
    () =>
      call(
        api.GET('/api/super-admin/office-redeem/pins', {
          params: { query: { filter: applied.filter || undefined, q: applied.q.trim() || undefined, limit: PAGE, offset } },
        }),
      ),
    [applied.filter, applied.q, offset],
  );
  const act = useAction();
  const test = useAction();
  const [created, setCreated] = useState<string | null>(null);

  async function move(pin: string, m: 'renew' | 'expire') {
    const path = { params: { path: { pin } } };
    const r = await act.run(() =>
      call(
        m === 'renew' ? api.POST('/api/super-admin/office-redeem/pins/{pin}/renew', path) : api.POST('/api/super-admin/office-redeem/pins/{pin}/expire', path),
      ),
    );
    if (r) list.reload();
  }

  return (
    <div className="card">
      <h2>PINs</h2>
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setOffset(0);
          setApplied({ filter, q });
        }}
      >
        <label className="inline">
          <span className="sr-only">Filter</span>
          <select value={filter} onChange={(e) => setFilter(e.target.value)}>
            <option value="">All PINs</option>
            {['active', 'expired', 'revoked', 'office_2024', 'office_365'].map((f) => (
              <option key={f} value={f}>
                {f.replace('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        <label className="inline grow">
          <span className="sr-only">PIN digits</span>
          <input value={q} maxLength={16} inputMode="numeric" placeholder="PIN digits" onChange={(e) => setQ(e.target.value.replace(/\D/g, ''))} />
        </label>
        <button type="submit" className="btn">
          Search
        </button>
        {(['office_2024', 'office_365'] as const).map((product) => (
          <button
            key={product}
            type="button"
            className="btn btn-small"
            disabled={test.busy}
            onClick={async () => {
              const r = await test.run(() => call(api.POST('/api/super-admin/office-redeem/create-test-pin', { body: { product } })));
              if (r) {
                setCreated(r.pin);
                list.reload();
              }
            }}
          >
            Test PIN ({product.replace('office_', '')})
          </button>
        ))}
      </form>
      {created && (
        <p role="status">
          Test PIN created: <code data-testid="test-pin">{created}</code>
        </p>
      )}
      {(act.error ?? test.error) && <ErrorBox error={(act.error ?? test.error)!} />}
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading PINs…" />
      ) : list.data.data.length === 0 ? (
        <Empty>No PINs match.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="pins">
              <thead>
                <tr>
                  <th>PIN</th>
                  <th>Product</th>
                  <th>Status</th>
                  <th className="hide-sm">Expires</th>
                  <th className="hide-sm num">Lookups</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((p) => (
                  <tr key={p.id}>
                    <td className="mono">
                      {p.pin} {p.test && <Badge value="test" />}
                    </td>
                    <td>{p.product.replace('_', ' ')}</td>
                    <td>
                      <Badge value={p.status} />
                    </td>
                    <td className="hide-sm">{when(p.expires_at)}</td>
                    <td className="hide-sm num">{p.lookup_count}</td>
                    <td>
                      <button type="button" className="btn btn-small" disabled={act.busy} onClick={() => move(p.id, 'renew')}>
                        Renew
                      </button>{' '}
                      {p.status === 'active' && (
                        <button type="button" className="btn btn-small btn-danger" disabled={act.busy} onClick={() => move(p.id, 'expire')}>
                          Expire
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <nav className="pager" aria-label="Pages">
            <button type="button" className="btn btn-small" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE))}>
              ← Previous
            </button>
            <span className="muted">
              {offset + 1}–{offset + list.data.data.length} of {list.data.total}
            </span>
            <button type="button" className="btn btn-small" disabled={offset + PAGE >= list.data.total} onClick={() => setOffset(offset + PAGE)}>
              Next →
            </button>
          </nav>
        </>
      )}
    </div>
  );
}

function Config2024() {
  const cfg = useAsync(() => call(api.GET('/api/super-admin/office-redeem/2024-master-product-key')), []);
  const [form, setForm] = useState({ product_key: '', title: '', instructions: '', support_url: '', support_email: '', footer: '' });
  useEffect(() => {
    if (cfg.data)
      setForm({
        product_key: cfg.data.product_key ?? '',
        title: cfg.data.slip.title ?? '',
        instructions: cfg.data.slip.instructions ?? '',
        support_url: cfg.data.slip.support_url ?? '',
        support_email: cfg.data.slip.support_email ?? '',
        footer: cfg.data.slip.footer ?? '',
      });
  }, [cfg.data]);
  const save = useAction();
  const [saved, setSaved] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    const { product_key, ...slip } = form;
    const nul = (v: string) => (v.trim() ? v.trim() : null);
    const r = await save.run(() =>
      call(
        api.PUT('/api/super-admin/office-redeem/2024-master-product-key', {
          body: { product_key: product_key.trim().toUpperCase(), slip: Object.fromEntries(Object.entries(slip).map(([k, v]) => [k, nul(v)])) },
        }),
      ),
    );
    if (r) setSaved(true);
  }
  if (cfg.error) return <ErrorBox error={cfg.error} onRetry={cfg.reload} />;
  if (!cfg.data) return <Loading />;
  const err = (f: string) => fieldError(save.error?.details, f);
  return (
    <form className="card form" onSubmit={submit} noValidate aria-label="Office 2024 configuration">
      <h2>Office 2024</h2>
      <Field
        label="Master product key"
        value={form.product_key}
        maxLength={29}
        placeholder="XXXXX-XXXXX-XXXXX-XXXXX-XXXXX"
        className="mono"
        onChange={(e) => setForm({ ...form, product_key: e.target.value })}
        error={err('product_key')}
      />
      {(['title', 'instructions', 'support_url', 'support_email', 'footer'] as const).map((k) => (
        <Field
          key={k}
          label={`Slip ${k.replace('_', ' ')}`}
          value={form[k]}
          maxLength={2000}
          onChange={(e) => setForm({ ...form, [k]: e.target.value })}
          error={err(`slip.${k}`)}
        />
      ))}
      {save.error && !save.error.details.length && <ErrorBox error={save.error} />}
      {saved && <p role="status">Saved.</p>}
      <button type="submit" className="btn btn-primary" disabled={save.busy}>
        Save 2024 configuration
      </button>
    </form>
  );
}

function Config365() {
  const cfg = useAsync(() => call(api.GET('/api/super-admin/office-redeem/365-pin-configure')), []);
  const keys = ['title', 'video_url', 'portal_url', 'installer_url', 'redeem_url'] as const;
  const [form, setForm] = useState<Record<(typeof keys)[number], string>>({ title: '', video_url: '', portal_url: '', installer_url: '', redeem_url: '' });
  useEffect(() => {
    if (cfg.data) setForm(Object.fromEntries(keys.map((k) => [k, cfg.data?.[k] ?? ''])) as typeof form);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [cfg.data]);
  const save = useAction();
  const [saved, setSaved] = useState(false);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    const r = await save.run(() =>
      call(api.PUT('/api/super-admin/office-redeem/365-pin-configure', { body: Object.fromEntries(keys.map((k) => [k, form[k].trim()])) as typeof form })),
    );
    if (r) setSaved(true);
  }
  if (cfg.error) return <ErrorBox error={cfg.error} onRetry={cfg.reload} />;
  if (!cfg.data) return <Loading />;
  return (
    <form className="card form" onSubmit={submit} noValidate aria-label="Office 365 configuration">
      <h2>Office 365</h2>
      {keys.map((k) => (
        <Field
          key={k}
          label={k.replace('_', ' ')}
          value={form[k]}
          maxLength={2000}
          type={k === 'title' ? 'text' : 'url'}
          onChange={(e) => setForm({ ...form, [k]: e.target.value })}
          error={fieldError(save.error?.details, k)}
        />
      ))}
      {save.error && !save.error.details.length && <ErrorBox error={save.error} />}
      {saved && <p role="status">Saved.</p>}
      <button type="submit" className="btn btn-primary" disabled={save.busy}>
        Save 365 configuration
      </button>
    </form>
  );
}
