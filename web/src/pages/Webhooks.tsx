import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { Link } from '../router';
import { useSession } from '../session';
import { Badge, Empty, ErrorBox, Field, fieldError, Loading, Pager, SecretOnce, useAction, useAsync, useCursorPages, when } from '../ui';
import { EventsPicker, WebhookTabs, type EventType } from './webhooks-common';

const EMPTY_FORM = { url: '', description: '', events: ['*'] as EventType[] };

export function Webhooks() {
  const { environment } = useSession();
  const pages = useCursorPages('');
  const list = useAsync(() => call(api.GET('/api/admin/webhooks', { params: { query: { cursor: pages.cursor, limit: 25 } } })), [pages.cursor]);
  const [creating, setCreating] = useState(false);
  const [form, setForm] = useState(EMPTY_FORM);
  const [secret, setSecret] = useState<{ url: string; value: string } | null>(null);
  const create = useAction();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const res = await create.run(() =>
      call(api.POST('/api/admin/webhooks', { body: { url: form.url.trim(), events: form.events, description: form.description.trim() || null } })),
    );
    if (res) {
      setSecret({ url: res.url, value: res.secret });
      setCreating(false);
      setForm(EMPTY_FORM);
      list.reload();
    }
  }
  const err = (f: string) => fieldError(create.error?.details, f);

  return (
    <section>
      <div className="page-head">
        <h1>Webhooks</h1>
        {!creating && (
          <button type="button" className="btn btn-primary" onClick={() => setCreating(true)}>
            Add endpoint
          </button>
        )}
      </div>
      <WebhookTabs current="/dashboard/webhooks" />
      <p className="muted">
        Events of the {environment} environment are POSTed to each endpoint, signed with its secret in <code>X-Service-Signature</code>. Failed deliveries are
        retried with backoff, then kept as dead letters.
      </p>
      {secret && <SecretOnce label={`Signing secret for ${secret.url}`} secret={secret.value} onDone={() => setSecret(null)} />}
      {creating && (
        <form onSubmit={submit} noValidate className="form card" aria-label="New webhook endpoint">
          <h2>Add an endpoint</h2>
          {create.error && !create.error.details.length && <ErrorBox error={create.error} />}
          <Field
            label="URL"
            type="url"
            value={form.url}
            maxLength={2048}
            placeholder="https://example.com/webhooks/shipping"
            onChange={(e) => setForm({ ...form, url: e.target.value })}
            error={err('url')}
            hint={environment === 'live' ? 'https is required in live.' : undefined}
          />
          <Field
            label="Description (optional)"
            value={form.description}
            maxLength={500}
            onChange={(e) => setForm({ ...form, description: e.target.value })}
            error={err('description')}
          />
          <EventsPicker
            value={form.events}
            onChange={(events) => setForm({ ...form, events })}
            error={err('events') ?? create.error?.details.find((d) => d.field.startsWith('events['))?.message}
          />
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={create.busy || !form.url.trim() || form.events.length === 0}>
              {create.busy ? 'Adding…' : 'Add endpoint'}
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => (setCreating(false), create.setError(undefined))}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading endpoints…" />
      ) : list.data.data.length === 0 ? (
        <Empty>No webhook endpoints in this environment yet. Add one to receive label, tracking and batch events.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="webhooks">
              <thead>
                <tr>
                  <th>URL</th>
                  <th className="hide-sm">Events</th>
                  <th>State</th>
                  <th className="hide-sm">Created</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((w) => (
                  <tr key={w.id}>
                    <td>
                      <Link to={`/dashboard/webhooks/${w.id}`} className="mono">
                        {w.url}
                      </Link>
                      {w.description && <div className="muted small">{w.description}</div>}
                    </td>
                    <td className="hide-sm">{w.events.includes('*') ? 'every event' : w.events.join(', ')}</td>
                    <td>
                      <span title={w.disabled_reason ?? undefined}>
                        <Badge value={w.enabled ? 'enabled' : 'disabled'} />
                      </span>
                    </td>
                    <td className="hide-sm">{when(w.created_at)}</td>
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
