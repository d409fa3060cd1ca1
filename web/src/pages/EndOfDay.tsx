import { useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api/client';
import { carrierTypes } from '../api/carriers';
import { Link } from '../router';
import { RoleGate, useSession } from '../session';
import {
  Badge,
  ConfirmButton,
  Empty,
  ErrorBox,
  Field,
  fieldError,
  Loading,
  money,
  Pager,
  Select,
  useAction,
  useAsync,
  useCursorPages,
  usePolling,
  when,
} from '../ui';
import { fetchAdminFile, saveBlob } from './label-file';
import { LocationSelect } from './location-select';

type Manifest = Schemas['Manifest'];
type Pickup = Schemas['Pickup'];

/**
 * The carriers that close a day (manifests) or come to collect (pickups), as the service's
 * carrier types say: a new carrier folder shows up here with no edit.
 */
function useCarriersThat(capability: 'manifests' | 'pickups'): { slug: string; name: string }[] {
  const types = useAsync(carrierTypes, []);
  return (types.data ?? []).filter((t) => t.capabilities[capability]).map((t) => ({ slug: t.carrier, name: t.name }));
}

function CarrierOptions({ carriers }: { carriers: { slug: string; name: string }[] }) {
  return (
    <>
      {carriers.map(({ slug, name }) => (
        <option key={slug} value={slug}>
          {name}
        </option>
      ))}
    </>
  );
}

/** A datetime-local value ("2026-03-03T13:00") as ISO 8601 with this browser's offset, which the API requires. */
export function withOffset(local: string): string {
  const d = new Date(local);
  if (Number.isNaN(d.getTime())) return local;
  const minutes = -d.getTimezoneOffset();
  const sign = minutes >= 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  return `${local.length === 16 ? `${local}:00` : local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** End of day: close the day's labels on a manifest, book and cancel pickups. */
export function EndOfDay() {
  const { environment } = useSession();
  // Manifests and pickups are per location: the lists show, and new ones take, the chosen one.
  const [locationId, setLocationId] = useState('');
  return (
    <section>
      <h1>End of day</h1>
      <p className="muted">
        Close the day in the {environment} environment: a manifest lists the day&apos;s labels on one form for the driver (USPS: a SCAN form; others: a close
        report). A label on a manifest can no longer be voided.
      </p>
      <LocationSelect label="Location" value={locationId} onChange={setLocationId} />
      <Manifests locationId={locationId} />
      <Pickups locationId={locationId} />
    </section>
  );
}

function Manifests({ locationId }: { locationId: string }) {
  const pages = useCursorPages(locationId);
  const list = useAsync(
    () => call(api.GET('/api/admin/manifests', { params: { query: { cursor: pages.cursor, limit: 25, ...(locationId ? { location_id: locationId } : {}) } } })),
    [pages.cursor, locationId],
  );
  const rows = list.data?.data ?? [];
  usePolling(
    list.reload,
    1500,
    rows.some((m) => m.status === 'pending'),
  );
  const [form, setForm] = useState({ carrier: 'usps', ship_date: '' });
  const carriers = useCarriersThat('manifests');
  const create = useAction();
  const download = useAction();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const res = await create.run(() =>
      call(
        api.POST('/api/admin/manifests', {
          body: { carrier: form.carrier, ...(locationId ? { location_id: locationId } : {}), ...(form.ship_date ? { ship_date: form.ship_date } : {}) },
        }),
      ),
    );
    if (res) list.reload();
  }

  async function save(m: Manifest) {
    await download.run(async () =>
      saveBlob(await fetchAdminFile(`/api/admin/manifests/${encodeURIComponent(m.id)}/document`), `${m.documents[0]?.type ?? 'manifest'}-${m.id}.pdf`),
    );
  }

  return (
    <div className="card" data-testid="manifests-section">
      <h2>Manifests</h2>
      <RoleGate role="operator" what="create manifests">
        <form onSubmit={submit} noValidate className="form" aria-label="New manifest">
          <Select label="Carrier" value={form.carrier} onChange={(e) => setForm({ ...form, carrier: e.target.value })}>
            <CarrierOptions carriers={carriers} />
          </Select>
          <Field
            label="Ship date"
            type="date"
            value={form.ship_date}
            hint="Empty: today in the location's time zone."
            error={fieldError(create.error?.details, 'ship_date')}
            onChange={(e) => setForm({ ...form, ship_date: e.target.value })}
          />
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={create.busy}>
              {create.busy ? 'Creating…' : 'Create manifest'}
            </button>
          </div>
        </form>
      </RoleGate>
      {create.error && <ErrorBox error={create.error} />}
      {download.error && <ErrorBox error={download.error} />}
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading manifests…" />
      ) : rows.length === 0 ? (
        <Empty>No manifests yet in this environment.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="manifests">
              <thead>
                <tr>
                  <th>Manifest</th>
                  <th>Carrier</th>
                  <th className="hide-sm">Ship date</th>
                  <th>Status</th>
                  <th className="num">Labels</th>
                  <th>Rejected</th>
                  <th>Document</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((m) => (
                  <tr key={m.id} data-manifest={m.id}>
                    <td className="mono">{m.id}</td>
                    <td>{m.carrier}</td>
                    <td className="hide-sm">{m.ship_date}</td>
                    <td>
                      <Badge value={m.status} />
                      {m.error && <div className="small muted">{m.error.message}</div>}
                    </td>
                    <td className="num">{m.shipment_ids.length}</td>
                    <td>
                      {m.rejected.length === 0 ? (
                        <span className="muted">none</span>
                      ) : (
                        <details>
                          <summary>{m.rejected.length} rejected</summary>
                          <ul className="small">
                            {m.rejected.map((r) => (
                              <li key={r.shipment_id}>
                                <Link to={`/dashboard/shipments/${r.shipment_id}`} className="mono">
                                  {r.shipment_id}
                                </Link>{' '}
                                <code>{r.code}</code> {r.message}
                              </li>
                            ))}
                          </ul>
                        </details>
                      )}
                    </td>
                    <td>
                      {m.status === 'ready' ? (
                        <button type="button" className="btn btn-small" disabled={download.busy} onClick={() => void save(m)}>
                          {m.documents[0]?.type === 'scan_form' ? 'SCAN form' : 'Close report'}
                        </button>
                      ) : (
                        <span className="muted">—</span>
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
    </div>
  );
}

const EMPTY_PICKUP = { carrier: 'usps', start: '', end: '', package_count: '1', instructions: '' };

function Pickups({ locationId }: { locationId: string }) {
  const canOperate = useSession().can('operator');
  const pages = useCursorPages(locationId);
  const list = useAsync(
    () => call(api.GET('/api/admin/pickups', { params: { query: { cursor: pages.cursor, limit: 25, ...(locationId ? { location_id: locationId } : {}) } } })),
    [pages.cursor, locationId],
  );
  const rows = list.data?.data ?? [];
  const [form, setForm] = useState(EMPTY_PICKUP);
  const carriers = useCarriersThat('pickups');
  const book = useAction();
  const cancel = useAction();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const res = await book.run(() =>
      call(
        api.POST('/api/admin/pickups', {
          body: {
            carrier: form.carrier,
            ...(locationId ? { location_id: locationId } : {}),
            window: { start: withOffset(form.start), end: withOffset(form.end) },
            package_count: Number(form.package_count),
            ...(form.instructions.trim() ? { instructions: form.instructions.trim() } : {}),
          },
        }),
      ),
    );
    if (res) {
      setForm(EMPTY_PICKUP);
      list.reload();
    }
  }

  async function cancelPickup(p: Pickup) {
    const res = await cancel.run(() => call(api.POST('/api/admin/pickups/{id}/cancel', { params: { path: { id: p.id } } })));
    if (res) list.reload();
  }
  const err = (f: string) => fieldError(book.error?.details, f);

  return (
    <div className="card" data-testid="pickups-section">
      <h2>Pickups</h2>
      <RoleGate role="operator" what="book or cancel pickups">
        <form onSubmit={submit} noValidate className="form" aria-label="Book a pickup">
          <Select label="Pickup carrier" value={form.carrier} onChange={(e) => setForm({ ...form, carrier: e.target.value })}>
            <CarrierOptions carriers={carriers} />
          </Select>
          <Field
            label="Window start"
            type="datetime-local"
            value={form.start}
            error={err('window.start')}
            onChange={(e) => setForm({ ...form, start: e.target.value })}
          />
          <Field
            label="Window end"
            type="datetime-local"
            value={form.end}
            error={err('window.end')}
            hint="At least 2 hours, same day, not on a Sunday or a carrier holiday."
            onChange={(e) => setForm({ ...form, end: e.target.value })}
          />
          <Field
            label="Packages"
            type="number"
            min={1}
            max={500}
            value={form.package_count}
            error={err('package_count')}
            onChange={(e) => setForm({ ...form, package_count: e.target.value })}
          />
          <Field
            label="Instructions (optional)"
            value={form.instructions}
            maxLength={500}
            onChange={(e) => setForm({ ...form, instructions: e.target.value })}
          />
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={book.busy || !form.start || !form.end}>
              {book.busy ? 'Booking…' : 'Book pickup'}
            </button>
          </div>
        </form>
      </RoleGate>
      {book.error && <ErrorBox error={book.error} />}
      {cancel.error && <ErrorBox error={cancel.error} />}
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading pickups…" />
      ) : rows.length === 0 ? (
        <Empty>No pickups yet in this environment.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="pickups">
              <thead>
                <tr>
                  <th>Confirmation</th>
                  <th>Carrier</th>
                  <th>Window</th>
                  <th>Status</th>
                  <th className="hide-sm num">Price</th>
                  <th className="hide-sm">Cancel by</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {rows.map((p) => (
                  <tr key={p.id} data-pickup={p.id}>
                    <td className="mono">{p.confirmation_number}</td>
                    <td>{p.carrier}</td>
                    <td className="small">
                      {when(p.window.start)} – {when(p.window.end)}
                    </td>
                    <td>
                      <Badge value={p.status} />
                    </td>
                    <td className="hide-sm num">{money(p.price)}</td>
                    <td className="hide-sm">{when(p.cancel_by)}</td>
                    <td>
                      {canOperate && p.status === 'scheduled' && (
                        <ConfirmButton label="Cancel" confirmLabel="Cancel pickup" disabled={cancel.busy} onConfirm={() => void cancelPickup(p)} />
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
    </div>
  );
}
