import { useEffect, useState, type FormEvent } from 'react';
import { api, call, type FieldError, type Order } from '../api/client';
import type { PageProps } from '../page-props';
import { Link, navigate } from '../router';
import { ErrorBox, Field, fieldError, Loading, Select, useAction, useAsync } from '../ui';
import { LocationSelect } from './location-select';
import {
  blankCustomsItem,
  CONTENTS_TYPES,
  customsBody,
  customsForm,
  customsLocalErrors,
  customsOf,
  INCOTERMS,
  NON_DELIVERY,
  type CustomsFormState,
  type CustomsItemRow,
} from './customs';

interface ItemRow {
  sku: string;
  name: string;
  quantity: string;
  price: string;
  weight_oz: string;
}
interface FormState {
  external_id: string;
  customer: { name: string; email: string; phone: string };
  ship_to: Record<(typeof ADDRESS_FIELDS)[number][0], string>;
  items: ItemRow[];
  requested_service: string;
  /** The location it ships from ('' = the default location, or the order's own address). */
  location_id: string;
  notes: string;
  customs: CustomsFormState;
}

export const ADDRESS_FIELDS = [
  ['name', 'Name'],
  ['company', 'Company'],
  ['street1', 'Street'],
  ['street2', 'Street (line 2)'],
  ['city', 'City'],
  ['state', 'State / region'],
  ['postal_code', 'Postal code'],
  ['country', 'Country (2 letters)'],
  ['phone', 'Phone'],
  ['email', 'Email'],
] as const;

const blankItem: ItemRow = { sku: '', name: '', quantity: '1', price: '', weight_oz: '' };

function fromOrder(o?: Order): FormState {
  const ship_to = Object.fromEntries(ADDRESS_FIELDS.map(([k]) => [k, (o?.ship_to as Record<string, string | undefined>)?.[k] ?? ''])) as FormState['ship_to'];
  if (!o) ship_to.country = 'US';
  return {
    external_id: o?.external_id ?? '',
    customer: { name: o?.customer.name ?? '', email: o?.customer.email ?? '', phone: o?.customer.phone ?? '' },
    ship_to,
    items: o
      ? o.line_items.map((li) => ({
          sku: li.sku ?? '',
          name: li.name ?? '',
          quantity: String(li.quantity),
          price: li.unit_price ? (li.unit_price.amount / 100).toFixed(2) : '',
          weight_oz: li.weight_oz == null ? '' : String(li.weight_oz),
        }))
      : [{ ...blankItem }],
    requested_service: o?.requested_service ?? '',
    location_id: o?.location_id ?? '',
    notes: o?.notes ?? '',
    customs: customsForm(customsOf(o)),
  };
}

/** Checks the browser can make before asking the server (which checks everything again). */
function localErrors(f: FormState): FieldError[] {
  const out: FieldError[] = [];
  for (const k of ['street1', 'city', 'country'] as const) if (!f.ship_to[k].trim()) out.push({ field: `ship_to.${k}`, message: 'is required' });
  if (f.ship_to.country && !/^[A-Za-z]{2}$/.test(f.ship_to.country.trim())) out.push({ field: 'ship_to.country', message: 'must be a 2-letter ISO code' });
  f.items.forEach((it, i) => {
    if (!it.sku.trim() && !it.name.trim()) out.push({ field: `line_items[${i}].sku`, message: 'a line needs a SKU or a name' });
    if (!/^\d+$/.test(it.quantity) || Number(it.quantity) < 1) out.push({ field: `line_items[${i}].quantity`, message: 'must be a whole number ≥ 1' });
    if (it.price && !/^\d+(\.\d{1,2})?$/.test(it.price)) out.push({ field: `line_items[${i}].unit_price`, message: 'must be an amount like 12.50' });
    if (it.weight_oz && !(Number(it.weight_oz) >= 0)) out.push({ field: `line_items[${i}].weight_oz`, message: 'must be a number ≥ 0' });
  });
  if (f.requested_service && !/^[a-z][a-z0-9]*(_[a-z0-9]+)+$/.test(f.requested_service))
    out.push({ field: 'requested_service', message: 'must be a service code like usps_ground_advantage' });
  out.push(...customsLocalErrors(f.customs));
  return out;
}

function toBody(f: FormState) {
  const nz = (s: string) => (s.trim() === '' ? undefined : s.trim());
  const ship_to = Object.fromEntries(Object.entries(f.ship_to).flatMap(([k, v]) => (nz(v) ? [[k, k === 'country' ? v.trim().toUpperCase() : v.trim()]] : [])));
  return {
    customer: { name: nz(f.customer.name) ?? null, email: nz(f.customer.email) ?? null, phone: nz(f.customer.phone) ?? null },
    ship_to,
    line_items: f.items.map((it) => ({
      sku: nz(it.sku) ?? null,
      name: nz(it.name) ?? null,
      quantity: Number(it.quantity),
      unit_price: it.price ? { amount: Math.round(Number(it.price) * 100), currency: 'USD' } : null,
      weight_oz: it.weight_oz ? Number(it.weight_oz) : null,
    })),
    requested_service: nz(f.requested_service) ?? null,
    ...(f.location_id ? { location_id: f.location_id } : {}),
    notes: nz(f.notes) ?? null,
    customs: customsBody(f.customs),
  };
}

export function OrderForm({ params }: PageProps) {
  const editing = !!params.id;
  const existing = useAsync(
    () => (editing ? call(api.GET('/api/admin/orders/{orderId}', { params: { path: { orderId: params.id } } })) : Promise.resolve(undefined)),
    [params.id],
  );
  if (existing.error) return <ErrorBox error={existing.error} onRetry={existing.reload} />;
  if (editing && !existing.data) return <Loading label="Loading order…" />;
  return <OrderFormBody order={existing.data} />;
}

function OrderFormBody({ order }: { order?: Order }) {
  const [f, setF] = useState<FormState>(() => fromOrder(order));
  const [errors, setErrors] = useState<FieldError[]>([]);
  const save = useAction();
  useEffect(() => {
    // Field errors go beside their fields; any other error (a 409 invalid_state's status detail) shows in the box.
    if (save.error?.code === 'validation_failed' && save.error.details.length) setErrors(save.error.details);
  }, [save.error]);

  const setShip = (k: keyof FormState['ship_to'], v: string) => setF((s) => ({ ...s, ship_to: { ...s.ship_to, [k]: v } }));
  const setCustoms = (patch: Partial<CustomsFormState>) => setF((s) => ({ ...s, customs: { ...s.customs, ...patch } }));
  const setCustomsItem = (i: number, k: keyof CustomsItemRow, v: string) =>
    setF((s) => ({ ...s, customs: { ...s.customs, items: s.customs.items.map((it, j) => (j === i ? { ...it, [k]: v } : it)) } }));
  const setItem = (i: number, k: keyof ItemRow, v: string) => setF((s) => ({ ...s, items: s.items.map((it, j) => (j === i ? { ...it, [k]: v } : it)) }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const local = localErrors(f);
    setErrors(local);
    if (local.length) {
      document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    const body = toBody(f);
    const saved = await save.run(() =>
      order
        ? call(api.PATCH('/api/admin/orders/{orderId}', { params: { path: { orderId: order.id } }, body: body as never }))
        : call(api.POST('/api/admin/orders', { body: { ...body, external_id: f.external_id.trim() || null } as never })),
    );
    if (saved) navigate(`/dashboard/orders/${saved.id}`);
  }

  const err = (field: string) => fieldError(errors, field);
  return (
    <section>
      <p>
        <Link to={order ? `/dashboard/orders/${order.id}` : '/dashboard/orders'}>← {order ? 'Order' : 'Orders'}</Link>
      </p>
      <h1>{order ? 'Edit order' : 'New order'}</h1>
      <form onSubmit={submit} noValidate className="form">
        {errors.length > 0 && (
          <div className="alert alert-error" role="alert">
            Please correct the {errors.length === 1 ? 'field' : `${errors.length} fields`} marked below.
          </div>
        )}
        {save.error && (save.error.code !== 'validation_failed' || !save.error.details.length) && <ErrorBox error={save.error} />}
        <fieldset>
          <legend>Customer</legend>
          <div className="row">
            <Field
              label="Name"
              value={f.customer.name}
              maxLength={200}
              onChange={(e) => setF({ ...f, customer: { ...f.customer, name: e.target.value } })}
              error={err('customer.name')}
            />
            <Field
              label="Email"
              type="email"
              value={f.customer.email}
              maxLength={320}
              onChange={(e) => setF({ ...f, customer: { ...f.customer, email: e.target.value } })}
              error={err('customer.email')}
            />
            <Field
              label="Phone"
              value={f.customer.phone}
              maxLength={60}
              onChange={(e) => setF({ ...f, customer: { ...f.customer, phone: e.target.value } })}
              error={err('customer.phone')}
            />
          </div>
          {!order && (
            <Field
              label="External id (optional)"
              value={f.external_id}
              maxLength={255}
              onChange={(e) => setF({ ...f, external_id: e.target.value })}
              error={err('external_id')}
              hint="Your own order number"
            />
          )}
        </fieldset>
        <fieldset>
          <legend>Ship to</legend>
          <div className="row">
            {ADDRESS_FIELDS.map(([k, label]) => (
              <Field
                key={k}
                label={label + (['street1', 'city', 'country'].includes(k) ? ' *' : '')}
                value={f.ship_to[k]}
                maxLength={k === 'country' ? 2 : 200}
                onChange={(e) => setShip(k, e.target.value)}
                error={err(`ship_to.${k}`)}
                name={`ship_to.${k}`}
              />
            ))}
          </div>
        </fieldset>
        <LocationSelect value={f.location_id} onChange={(location_id) => setF((s) => ({ ...s, location_id }))} error={err('location_id')} />
        <fieldset>
          <legend>Line items</legend>
          {err('line_items') && <p className="field-error">{err('line_items')}</p>}
          {f.items.map((it, i) => (
            <div className="row item-row" key={i} role="group" aria-label={`Line ${i + 1}`}>
              <Field
                label="SKU"
                value={it.sku}
                maxLength={200}
                onChange={(e) => setItem(i, 'sku', e.target.value)}
                error={err(`line_items[${i}].sku`)}
                name={`line_items.${i}.sku`}
              />
              <Field label="Name" value={it.name} maxLength={500} onChange={(e) => setItem(i, 'name', e.target.value)} error={err(`line_items[${i}].name`)} />
              <Field
                label="Qty"
                inputMode="numeric"
                value={it.quantity}
                maxLength={7}
                onChange={(e) => setItem(i, 'quantity', e.target.value)}
                error={err(`line_items[${i}].quantity`)}
                name={`line_items.${i}.quantity`}
              />
              <Field
                label="Unit price (USD)"
                inputMode="decimal"
                value={it.price}
                maxLength={12}
                onChange={(e) => setItem(i, 'price', e.target.value)}
                error={err(`line_items[${i}].unit_price`)}
              />
              <Field
                label="Weight (oz)"
                inputMode="decimal"
                value={it.weight_oz}
                maxLength={10}
                onChange={(e) => setItem(i, 'weight_oz', e.target.value)}
                error={err(`line_items[${i}].weight_oz`)}
              />
              <button
                type="button"
                className="btn btn-small btn-ghost"
                disabled={f.items.length === 1}
                onClick={() => setF({ ...f, items: f.items.filter((_, j) => j !== i) })}
                aria-label={`Remove line ${i + 1}`}
              >
                Remove
              </button>
            </div>
          ))}
          <button type="button" className="btn btn-small" onClick={() => setF({ ...f, items: [...f.items, { ...blankItem }] })}>
            Add line
          </button>
        </fieldset>
        <fieldset>
          <legend>Customs</legend>
          <label className="check">
            <input type="checkbox" checked={f.customs.declared} onChange={(e) => setCustoms({ declared: e.target.checked })} /> Declare customs for this order
          </label>
          <p className="hint">
            Needed when the parcel crosses a border or goes to a military address (AA, AE, AP). Without a declaration, one is derived from the line items when
            the label is bought.
          </p>
          {f.customs.declared && (
            <>
              <div className="row">
                <Select
                  label="Contents type"
                  value={f.customs.contents_type}
                  onChange={(e) => setCustoms({ contents_type: e.target.value })}
                  error={err('customs.contents_type')}
                >
                  {CONTENTS_TYPES.map((c) => (
                    <option key={c} value={c}>
                      {c.replace(/_/g, ' ')}
                    </option>
                  ))}
                </Select>
                {f.customs.contents_type === 'other' && (
                  <Field
                    label="Explanation"
                    value={f.customs.contents_explanation}
                    maxLength={500}
                    onChange={(e) => setCustoms({ contents_explanation: e.target.value })}
                    error={err('customs.contents_explanation')}
                  />
                )}
                <Select label="Incoterm" value={f.customs.incoterm} onChange={(e) => setCustoms({ incoterm: e.target.value })} error={err('customs.incoterm')}>
                  {INCOTERMS.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </Select>
                <Select
                  label="If undeliverable"
                  value={f.customs.non_delivery}
                  onChange={(e) => setCustoms({ non_delivery: e.target.value })}
                  error={err('customs.non_delivery')}
                >
                  {NON_DELIVERY.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </Select>
                <Field
                  label="Signer"
                  value={f.customs.signer}
                  maxLength={200}
                  onChange={(e) => setCustoms({ signer: e.target.value })}
                  error={err('customs.signer')}
                  hint="Who certifies the declaration"
                />
              </div>
              {f.customs.items.map((it, i) => (
                <div className="row item-row" key={i} role="group" aria-label={`Customs item ${i + 1}`}>
                  <Field
                    label="Description"
                    value={it.description}
                    maxLength={500}
                    onChange={(e) => setCustomsItem(i, 'description', e.target.value)}
                    error={err(`customs.items[${i}].description`)}
                  />
                  <Field
                    label="Qty"
                    inputMode="numeric"
                    value={it.quantity}
                    maxLength={7}
                    onChange={(e) => setCustomsItem(i, 'quantity', e.target.value)}
                    error={err(`customs.items[${i}].quantity`)}
                  />
                  <Field
                    label="Unit value (USD)"
                    inputMode="decimal"
                    value={it.value}
                    maxLength={12}
                    onChange={(e) => setCustomsItem(i, 'value', e.target.value)}
                    error={err(`customs.items[${i}].unit_value`)}
                  />
                  <Field
                    label="Unit weight (oz)"
                    inputMode="decimal"
                    value={it.weight_oz}
                    maxLength={10}
                    onChange={(e) => setCustomsItem(i, 'weight_oz', e.target.value)}
                    error={err(`customs.items[${i}].weight_oz`)}
                  />
                  <Field
                    label="HS code"
                    value={it.hs_tariff_number}
                    maxLength={32}
                    onChange={(e) => setCustomsItem(i, 'hs_tariff_number', e.target.value)}
                    error={err(`customs.items[${i}].hs_tariff_number`)}
                  />
                  <Field
                    label="Origin country"
                    value={it.origin_country}
                    maxLength={2}
                    onChange={(e) => setCustomsItem(i, 'origin_country', e.target.value)}
                    error={err(`customs.items[${i}].origin_country`)}
                  />
                  <Field
                    label="Item SKU"
                    value={it.sku}
                    maxLength={200}
                    onChange={(e) => setCustomsItem(i, 'sku', e.target.value)}
                    error={err(`customs.items[${i}].sku`)}
                  />
                  <button
                    type="button"
                    className="btn btn-small btn-ghost"
                    disabled={f.customs.items.length === 1}
                    onClick={() => setCustoms({ items: f.customs.items.filter((_, j) => j !== i) })}
                    aria-label={`Remove customs item ${i + 1}`}
                  >
                    Remove
                  </button>
                </div>
              ))}
              <button type="button" className="btn btn-small" onClick={() => setCustoms({ items: [...f.customs.items, { ...blankCustomsItem }] })}>
                Add customs item
              </button>
            </>
          )}
        </fieldset>
        <fieldset>
          <legend>Shipping</legend>
          <Field
            label="Requested service (optional)"
            value={f.requested_service}
            maxLength={100}
            placeholder="usps_ground_advantage"
            onChange={(e) => setF({ ...f, requested_service: e.target.value })}
            error={err('requested_service')}
            hint="Empty: the cheapest that meets the promise"
          />
          <div className="field">
            <label htmlFor="notes">Notes</label>
            <textarea id="notes" value={f.notes} maxLength={5000} rows={3} onChange={(e) => setF({ ...f, notes: e.target.value })} />
          </div>
        </fieldset>
        <div className="actions">
          <button type="submit" className="btn btn-primary" disabled={save.busy}>
            {save.busy ? 'Saving…' : order ? 'Save changes' : 'Create order'}
          </button>
          <Link to={order ? `/dashboard/orders/${order.id}` : '/dashboard/orders'} className="btn btn-ghost">
            Cancel
          </Link>
        </div>
      </form>
    </section>
  );
}
