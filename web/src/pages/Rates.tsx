import { useState, type FormEvent } from 'react';
import { api, call, type FieldError } from '../api/client';
import { carrierTypes } from '../api/carriers';
import { Badge, Empty, ErrorBox, Field, fieldError, Loading, day, money, useAction, useAsync } from '../ui';
import { Delivery, RateProblems } from './BuyLabel';
import { RoleGate } from '../session';

type RateAnswer = Awaited<ReturnType<typeof quote>>;

function quote(body: {
  ship_from: { country: string; postal_code: string };
  ship_to: { country: string; postal_code: string };
  parcel: Record<string, number>;
  residential?: boolean;
}) {
  return call(api.POST('/api/admin/rates/query', { body: body as never }));
}

const num = (s: string) => (s.trim() === '' ? undefined : Number(s));

export function Rates() {
  const [f, setF] = useState({
    fromCountry: 'US',
    fromPostal: '10001',
    toCountry: 'US',
    toPostal: '90210',
    weight: '20',
    length: '10',
    width: '8',
    height: '4',
    residential: 'auto',
  });
  const [answer, setAnswer] = useState<RateAnswer | null>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const action = useAction();
  const set = (k: keyof typeof f) => (e: { target: { value: string } }) => setF((s) => ({ ...s, [k]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local: FieldError[] = [];
    for (const [k, field] of [
      ['weight', 'parcel.weight_oz'],
      ['length', 'parcel.length_in'],
      ['width', 'parcel.width_in'],
      ['height', 'parcel.height_in'],
    ] as const) {
      const v = num(f[k]);
      if (k === 'weight' && v === undefined) local.push({ field, message: 'is required' });
      else if (v !== undefined && !(v > 0)) local.push({ field, message: 'must be a number > 0' });
    }
    setErrors(local);
    if (local.length) return;
    const parcel = Object.fromEntries(
      Object.entries({ weight_oz: num(f.weight), length_in: num(f.length), width_in: num(f.width), height_in: num(f.height) }).filter(
        ([, v]) => v !== undefined,
      ),
    ) as Record<string, number>;
    const res = await action.run(() =>
      quote({
        ship_from: { country: f.fromCountry.trim().toUpperCase(), postal_code: f.fromPostal.trim() },
        ship_to: { country: f.toCountry.trim().toUpperCase(), postal_code: f.toPostal.trim() },
        parcel,
        ...(f.residential === 'auto' ? {} : { residential: f.residential === 'yes' }),
      }),
    );
    setAnswer(res ?? null);
  }
  const err = (field: string) => fieldError(errors.length ? errors : action.error?.details, field);

  return (
    <section>
      <h1>Rate calculator</h1>
      <RoleGate role="operator" what="ask for rates">
        <form onSubmit={submit} noValidate className="form card" aria-label="Rate query">
          <div className="row">
            <Field label="From country" value={f.fromCountry} onChange={set('fromCountry')} maxLength={2} error={err('ship_from.country')} />
            <Field label="From postal code" value={f.fromPostal} onChange={set('fromPostal')} maxLength={40} error={err('ship_from.postal_code')} />
            <Field label="To country" value={f.toCountry} onChange={set('toCountry')} maxLength={2} error={err('ship_to.country')} />
            <Field label="To postal code" value={f.toPostal} onChange={set('toPostal')} maxLength={40} error={err('ship_to.postal_code')} />
          </div>
          <div className="row">
            <Field label="Weight (oz)" inputMode="decimal" value={f.weight} onChange={set('weight')} maxLength={10} error={err('parcel.weight_oz')} />
            <Field label="Length (in)" inputMode="decimal" value={f.length} onChange={set('length')} maxLength={10} error={err('parcel.length_in')} />
            <Field label="Width (in)" inputMode="decimal" value={f.width} onChange={set('width')} maxLength={10} error={err('parcel.width_in')} />
            <Field label="Height (in)" inputMode="decimal" value={f.height} onChange={set('height')} maxLength={10} error={err('parcel.height_in')} />
            <div className="field">
              <label htmlFor="residential">Destination</label>
              <select id="residential" value={f.residential} onChange={set('residential')}>
                <option value="auto">Auto</option>
                <option value="yes">Residential</option>
                <option value="no">Commercial</option>
              </select>
            </div>
          </div>
          <button type="submit" className="btn btn-primary" disabled={action.busy}>
            {action.busy ? 'Quoting…' : 'Get rates'}
          </button>
        </form>
      </RoleGate>
      {action.busy && <Loading label="Comparing carriers…" />}
      {action.error && !action.error.details.length && (
        <ErrorBox
          error={
            action.error.code === 'no_rates' ? Object.assign(action.error, { message: 'No carrier service can carry this parcel on this lane.' }) : action.error
          }
        />
      )}
      {action.error?.details.length ? <ErrorBox error={action.error} /> : null}
      {answer && !action.busy && <RateTable answer={answer} />}
    </section>
  );
}

function RateTable({ answer }: { answer: RateAnswer }) {
  const names = useAsync(() => carrierTypes().catch(() => []), []);
  const carrierName = (slug: string) => names.data?.find((c) => c.carrier === slug)?.name ?? slug;
  return (
    <div className="card" aria-live="polite">
      <h2>
        {answer.data.length} option{answer.data.length === 1 ? '' : 's'}{' '}
        <span className="muted small">
          ship date {day(answer.ship_date)} · {answer.residential ? 'residential' : 'commercial'}
        </span>
      </h2>
      {answer.data.length === 0 ? (
        <Empty>No service can carry this parcel.</Empty>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="rates">
            <thead>
              <tr>
                <th>Service</th>
                <th className="num">Price</th>
                <th className="num">Zone</th>
                <th className="num">Billable wt</th>
                <th>Surcharges</th>
                <th>Delivery</th>
              </tr>
            </thead>
            <tbody>
              {answer.data.map((r) => (
                <tr key={r.id}>
                  <td>
                    <strong>{r.service_name}</strong>
                    <div className="muted small mono">{r.service_code}</div>
                    {r.tags.map((t) => (
                      <Badge key={t} value={t} kind="tag" />
                    ))}
                  </td>
                  <td className="num">{money(r.price)}</td>
                  <td className="num">{r.zone}</td>
                  <td className="num">
                    {r.billable_weight_oz} oz
                    {r.dim_weight_oz != null && (
                      <div className="muted small">
                        DIM {r.dim_weight_oz} oz (÷{r.dim_divisor})
                      </div>
                    )}
                  </td>
                  <td>
                    {r.surcharges.length === 0 ? (
                      <span className="muted">none</span>
                    ) : (
                      <ul className="plain small">
                        {r.surcharges.map((s) => (
                          <li key={s.code}>
                            {s.code.replaceAll('_', ' ')} {money(s.amount)}
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td>
                    <Delivery promise={r.delivery} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <RateProblems answer={answer} carrierName={carrierName} />
    </div>
  );
}
