import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { RoleGate, useSession } from '../session';
import { Badge, ConfirmButton, Empty, ErrorBox, Field, fieldError, Loading, Pager, useAction, useAsync, useCursorPages } from '../ui';

const EMPTY = { name: '', street1: '', city: '', state: '', postal_code: '', country: 'US', timezone: 'America/New_York', pickup_cutoff: '17:00' };

/** Where the workspace ships from: rates use a location's address, time zone and cut-off. */
export function Locations() {
  const canEdit = useSession().can('admin');
  const pages = useCursorPages('');
  const list = useAsync(() => call(api.GET('/api/admin/locations', { params: { query: { cursor: pages.cursor, limit: 25 } } })), [pages.cursor]);
  const [form, setForm] = useState(EMPTY);
  const create = useAction();
  const change = useAction();
  const err = (f: string) => fieldError(create.error?.details, f);
  const set = (f: keyof typeof EMPTY) => (e: { target: { value: string } }) => setForm({ ...form, [f]: e.target.value });

  async function submit(e: FormEvent) {
    e.preventDefault();
    const { name, timezone, pickup_cutoff: cutoff, ...address } = form;
    const res = await create.run(() =>
      call(
        api.POST('/api/admin/locations', {
          body: {
            name: name.trim(),
            timezone,
            pickup_cutoff: cutoff,
            address: Object.fromEntries(Object.entries(address).filter(([, v]) => v.trim() !== '')) as { country: string },
          },
        }),
      ),
    );
    if (res) {
      setForm(EMPTY);
      list.reload();
    }
  }

  return (
    <section>
      <h1>Locations</h1>
      <p className="muted">Rate queries naming a location (or none: the default) ship from its address, on its clock, with its cut-off.</p>
      <RoleGate role="admin" what="add or change locations">
        <form onSubmit={submit} noValidate className="form card" aria-label="New location">
          {create.error && !create.error.details.length && <ErrorBox error={create.error} />}
          <Field label="Name" value={form.name} maxLength={100} onChange={set('name')} error={err('name')} />
          <Field label="Street" value={form.street1} onChange={set('street1')} error={err('address.street1')} />
          <Field label="City" value={form.city} onChange={set('city')} error={err('address.city')} />
          <Field label="State" value={form.state} onChange={set('state')} error={err('address.state')} />
          <Field label="Postal code" value={form.postal_code} onChange={set('postal_code')} error={err('address.postal_code')} />
          <Field label="Country" value={form.country} maxLength={2} onChange={set('country')} error={err('address.country')} />
          <Field label="Time zone" value={form.timezone} onChange={set('timezone')} error={err('timezone')} hint="IANA, e.g. America/Los_Angeles" />
          <Field label="Pickup cut-off (HH:MM)" value={form.pickup_cutoff} onChange={set('pickup_cutoff')} error={err('pickup_cutoff')} />
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={create.busy || !form.name.trim()}>
              {create.busy ? 'Saving…' : 'Add location'}
            </button>
          </div>
        </form>
      </RoleGate>
      {change.error && <ErrorBox error={change.error} />}
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading locations…" />
      ) : list.data.data.length === 0 ? (
        <Empty>No locations yet.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="locations">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Address</th>
                  <th>Time zone</th>
                  <th>Cut-off</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((l) => {
                  const a = l.address as Record<string, string | undefined>;
                  return (
                    <tr key={l.id}>
                      <td>
                        {l.name} {l.is_default && <Badge value="default" />}
                      </td>
                      <td>{[a.street1, a.city, a.state, a.postal_code, a.country].filter(Boolean).join(', ')}</td>
                      <td>{l.timezone}</td>
                      <td>{l.pickup_cutoff}</td>
                      <td>
                        {canEdit && !l.is_default && (
                          <>
                            <button
                              type="button"
                              className="btn btn-ghost"
                              disabled={change.busy}
                              onClick={() =>
                                void change
                                  .run(() => call(api.PATCH('/api/admin/locations/{id}', { params: { path: { id: l.id } }, body: { is_default: true } })))
                                  .then(() => list.reload())
                              }
                            >
                              Make default
                            </button>
                            <ConfirmButton
                              label="Delete"
                              confirmLabel="Delete location"
                              disabled={change.busy}
                              onConfirm={() =>
                                void change
                                  .run(() => call(api.DELETE('/api/admin/locations/{id}', { params: { path: { id: l.id } } })))
                                  .then(() => list.reload())
                              }
                            />
                          </>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <Pager page={pages.page} hasMore={list.data.has_more} onPrev={pages.prev} onNext={() => pages.next(list.data?.next_cursor ?? null)} />
        </>
      )}
    </section>
  );
}
