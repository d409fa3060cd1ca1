import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { RoleGate, useSession } from '../session';
import { Badge, ConfirmButton, Empty, ErrorBox, Field, fieldError, Loading, Pager, Select, useAction, useAsync, useCursorPages, when } from '../ui';

const CARRIERS = ['usps', 'ups', 'fedex', 'dhl_express'] as const;

/** Labels bought elsewhere, followed like our own: add one by carrier and tracking number. */
export function Trackers() {
  const canEdit = useSession().can('operator');
  const pages = useCursorPages('');
  const list = useAsync(() => call(api.GET('/api/admin/trackers', { params: { query: { cursor: pages.cursor, limit: 25 } } })), [pages.cursor]);
  const [form, setForm] = useState({ carrier: 'usps', tracking_number: '' });
  const create = useAction();
  const remove = useAction();
  const err = (f: string) => fieldError(create.error?.details, f);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const res = await create.run(() =>
      call(api.POST('/api/admin/trackers', { body: { carrier: form.carrier, tracking_number: form.tracking_number.trim() } })),
    );
    if (res) {
      setForm({ ...form, tracking_number: '' });
      list.reload();
    }
  }

  return (
    <section>
      <h1>Trackers</h1>
      <p className="muted">Follow a label bought elsewhere: its carrier's scans arrive here and as tracking.updated webhooks.</p>
      <RoleGate role="operator" what="add or stop trackers">
        <form onSubmit={submit} noValidate className="form card" aria-label="New tracker">
          {create.error && !create.error.details.length && <ErrorBox error={create.error} />}
          <Select label="Carrier" value={form.carrier} onChange={(e) => setForm({ ...form, carrier: e.target.value })} error={err('carrier')}>
            {CARRIERS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </Select>
          <Field
            label="Tracking number"
            value={form.tracking_number}
            maxLength={64}
            onChange={(e) => setForm({ ...form, tracking_number: e.target.value })}
            error={err('tracking_number')}
          />
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={create.busy || !form.tracking_number.trim()}>
              {create.busy ? 'Adding…' : 'Track'}
            </button>
          </div>
        </form>
      </RoleGate>
      {remove.error && <ErrorBox error={remove.error} />}
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading trackers…" />
      ) : list.data.data.length === 0 ? (
        <Empty>No trackers yet.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="trackers">
              <thead>
                <tr>
                  <th>Tracking number</th>
                  <th>Carrier</th>
                  <th>Status</th>
                  <th className="hide-sm">Latest event</th>
                  <th className="hide-sm">Estimated delivery</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((t) => (
                  <tr key={t.id}>
                    <td className="mono">{t.tracking_number}</td>
                    <td>{t.carrier}</td>
                    <td>
                      <Badge value={t.status} />
                    </td>
                    <td className="hide-sm">{t.events[0] ? `${t.events[0].description} (${when(t.events[0].occurred_at)})` : '—'}</td>
                    <td className="hide-sm">{t.estimated_delivery_at ? when(t.estimated_delivery_at) : '—'}</td>
                    <td>
                      {canEdit && (
                        <ConfirmButton
                          label="Stop"
                          confirmLabel="Stop tracking"
                          disabled={remove.busy}
                          onConfirm={() =>
                            void remove.run(() => call(api.DELETE('/api/admin/trackers/{id}', { params: { path: { id: t.id } } }))).then(() => list.reload())
                          }
                        />
                      )}
                    </td>
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
