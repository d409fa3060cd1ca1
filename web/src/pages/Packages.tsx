import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { RoleGate, useSession } from '../session';
import { ConfirmButton, Empty, ErrorBox, Field, fieldError, Loading, Pager, useAction, useAsync, useCursorPages } from '../ui';

const EMPTY = { name: '', length_in: '', width_in: '', height_in: '', tare_weight_oz: '', max_weight_oz: '' };
const num = (v: string) => (v.trim() === '' ? undefined : Number(v));

/** Box presets of the workspace, and the carriers' own packaging (flat-rate boxes and envelopes). */
export function Packages() {
  const canEdit = useSession().can('admin');
  const pages = useCursorPages('');
  const list = useAsync(() => call(api.GET('/api/admin/packages', { params: { query: { cursor: pages.cursor, limit: 25 } } })), [pages.cursor]);
  const carrier = useAsync(() => call(api.GET('/api/admin/carrier-packages')), []);
  const [form, setForm] = useState(EMPTY);
  const create = useAction();
  const remove = useAction();
  const err = (f: string) => fieldError(create.error?.details, f);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const res = await create.run(() =>
      call(
        api.POST('/api/admin/packages', {
          body: {
            name: form.name.trim(),
            length_in: Number(form.length_in),
            width_in: Number(form.width_in),
            height_in: Number(form.height_in),
            tare_weight_oz: num(form.tare_weight_oz),
            max_weight_oz: num(form.max_weight_oz),
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
      <h1>Packages</h1>
      <p className="muted">
        Use a package as <code>parcel: {'{package_id, weight_oz}'}</code>: a preset adds its tare weight; a carrier's flat-rate packaging prices flat on its
        services.
      </p>
      <RoleGate role="admin" what="add or delete packages">
        <form onSubmit={submit} noValidate className="form card" aria-label="New package">
          {create.error && !create.error.details.length && <ErrorBox error={create.error} />}
          <Field label="Name" value={form.name} maxLength={100} onChange={(e) => setForm({ ...form, name: e.target.value })} error={err('name')} />
          {(['length_in', 'width_in', 'height_in', 'tare_weight_oz', 'max_weight_oz'] as const).map((f) => (
            <Field
              key={f}
              label={f}
              type="number"
              inputMode="decimal"
              value={form[f]}
              onChange={(e) => setForm({ ...form, [f]: e.target.value })}
              error={err(f)}
            />
          ))}
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={create.busy || !form.name.trim()}>
              {create.busy ? 'Saving…' : 'Add package'}
            </button>
          </div>
        </form>
      </RoleGate>
      {remove.error && <ErrorBox error={remove.error} />}
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading packages…" />
      ) : list.data.data.length === 0 ? (
        <Empty>No package presets yet.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="packages">
              <thead>
                <tr>
                  <th>Id</th>
                  <th>Name</th>
                  <th className="num">L × W × H (in)</th>
                  <th className="num">Tare (oz)</th>
                  <th className="num">Max (oz)</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((p) => (
                  <tr key={p.id}>
                    <td className="mono">{p.id}</td>
                    <td>{p.name}</td>
                    <td className="num">{`${p.length_in} × ${p.width_in} × ${p.height_in}`}</td>
                    <td className="num">{p.tare_weight_oz}</td>
                    <td className="num">{p.max_weight_oz ?? '—'}</td>
                    <td>
                      {canEdit && (
                        <ConfirmButton
                          label="Delete"
                          confirmLabel="Delete package"
                          disabled={remove.busy}
                          onConfirm={() =>
                            void remove.run(() => call(api.DELETE('/api/admin/packages/{id}', { params: { path: { id: p.id } } }))).then(() => list.reload())
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
      <h2>Carrier packaging</h2>
      {carrier.error ? (
        <ErrorBox error={carrier.error} onRetry={carrier.reload} />
      ) : !carrier.data ? (
        <Loading label="Loading carrier packaging…" />
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="carrier-packages">
            <thead>
              <tr>
                <th>Id</th>
                <th>Carrier</th>
                <th>Name</th>
                <th className="num">L × W × H (in)</th>
                <th className="num">Max (oz)</th>
                <th>Flat-rate services</th>
              </tr>
            </thead>
            <tbody>
              {carrier.data.data.map((p) => (
                <tr key={p.id}>
                  <td className="mono">{p.id}</td>
                  <td>{p.carrier}</td>
                  <td>{p.name}</td>
                  <td className="num">{`${p.length_in} × ${p.width_in} × ${p.height_in}`}</td>
                  <td className="num">{p.max_weight_oz}</td>
                  <td>{p.flat_rate_services.join(', ') || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
