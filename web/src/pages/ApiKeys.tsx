import { useState, type FormEvent } from 'react';
import { api, call, type Environment } from '../api/client';
import { useSession } from '../session';
import { Badge, ConfirmButton, Empty, ErrorBox, Field, fieldError, Loading, Pager, SecretOnce, Select, useAction, useAsync, useCursorPages, when } from '../ui';

export function ApiKeys() {
  const session = useSession();
  const pages = useCursorPages('');
  const list = useAsync(() => call(api.GET('/api/admin/api-keys', { params: { query: { cursor: pages.cursor, limit: 50 } } })), [pages.cursor]);
  const [form, setForm] = useState<{ name: string; environment: Environment; expires_at: string }>({
    name: '',
    environment: session.environment,
    expires_at: '',
  });
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const create = useAction();
  const revoke = useAction();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const res = await create.run(() =>
      call(
        api.POST('/api/admin/api-keys', {
          body: { name: form.name.trim(), environment: form.environment, ...(form.expires_at ? { expires_at: new Date(form.expires_at).toISOString() } : {}) },
        }),
      ),
    );
    if (res) {
      setSecret({ name: res.name, value: res.secret });
      setForm({ ...form, name: '', expires_at: '' });
      list.reload();
    }
  }

  return (
    <section>
      <h1>API keys</h1>
      <p className="muted">
        Keys call <code>/v1</code> with <code>Authorization: Bearer sk_…</code> and <code>X-Service-Workspace: {session.workspaceId}</code>.
      </p>
      {secret && <SecretOnce label={`Secret for “${secret.name}”`} secret={secret.value} onDone={() => setSecret(null)} />}
      <form onSubmit={submit} noValidate className="form card" aria-label="New API key">
        <h2>Create a key</h2>
        {create.error && !create.error.details.length && <ErrorBox error={create.error} />}
        <div className="row">
          <Field
            label="Name"
            value={form.name}
            maxLength={100}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            error={fieldError(create.error?.details, 'name')}
            placeholder="e.g. ERP sync"
          />
          <Select label="Environment" value={form.environment} onChange={(e) => setForm({ ...form, environment: e.target.value as Environment })}>
            <option value="test">test</option>
            <option value="live">live</option>
          </Select>
          <Field
            label="Expires (optional)"
            type="datetime-local"
            value={form.expires_at}
            onChange={(e) => setForm({ ...form, expires_at: e.target.value })}
            error={fieldError(create.error?.details, 'expires_at')}
          />
        </div>
        <button type="submit" className="btn btn-primary" disabled={create.busy || !form.name.trim()}>
          {create.busy ? 'Creating…' : 'Create key'}
        </button>
      </form>
      {revoke.error && <ErrorBox error={revoke.error} />}
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading keys…" />
      ) : list.data.data.length === 0 ? (
        <Empty>No API keys yet.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="api-keys">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Key</th>
                  <th>Env</th>
                  <th className="hide-sm">Created</th>
                  <th className="hide-sm">Expires</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((k) => (
                  <tr key={k.id}>
                    <td>{k.name}</td>
                    <td className="mono">
                      {k.prefix}…{k.last4}
                    </td>
                    <td>
                      <Badge value={k.environment} kind={`env-${k.environment}`} />
                    </td>
                    <td className="hide-sm">{when(k.created_at)}</td>
                    <td className="hide-sm">{k.expires_at ? when(k.expires_at) : 'never'}</td>
                    <td>
                      <ConfirmButton
                        label="Revoke"
                        confirmLabel="Revoke now"
                        disabled={revoke.busy}
                        onConfirm={async () => {
                          await revoke.run(() => call(api.DELETE('/api/admin/api-keys/{id}', { params: { path: { id: k.id } } })));
                          list.reload();
                        }}
                      />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={pages.page} hasMore={list.data.has_more} onPrev={pages.prev} onNext={() => pages.next(list.data?.next_cursor ?? null)} />
        </>
      )}
      <div className="card">
        <h2>Rotating a key without downtime</h2>
        <ol>
          <li>Create a second key (optionally with an expiry for the old one's replacement window).</li>
          <li>Deploy it to every client and check they work with it.</li>
          <li>Revoke the old key: it is refused everywhere at once.</li>
        </ol>
        <p className="muted">A secret is shown only when it is created. If one leaks, revoke it right away.</p>
      </div>
    </section>
  );
}
