import { useState, type FormEvent } from 'react';
import { api, ApiError, call, type Schemas } from '../api/client';
import { useSession } from '../session';
import { Badge, ConfirmButton, Empty, ErrorBox, Field, Loading, money, Select, useAction, useAsync } from '../ui';
import { bodyOf, describeRule, draftOf, errorsFor, inputOf, STRATEGIES, type RuleDraft, type ShippingRule } from './rules-draft';

type Selection = Schemas['ShippingRuleSelection'];

/** One page holds every rule: the service clamps a page to 100, more than a workspace orders by hand. */
const PAGE = 100;

export function Rules() {
  const { environment } = useSession();
  const list = useAsync(() => call(api.GET('/api/admin/shipping-rules', { params: { query: { limit: PAGE } } })), []);
  const [editing, setEditing] = useState<ShippingRule | 'new' | null>(null);
  const change = useAction();
  const rules = list.data?.data ?? [];

  const patch = (id: string, body: { priority?: number; enabled?: boolean }) =>
    call(api.PATCH('/api/admin/shipping-rules/{id}', { params: { path: { id } }, body }));

  /** Swap a rule with its neighbour by exchanging priorities (equal ones: the mover steps past by one). */
  async function move(index: number, by: -1 | 1) {
    const a = rules[index];
    const b = rules[index + by];
    if (!a || !b) return;
    await change.run(async () => {
      if (a.priority === b.priority) await patch(a.id, { priority: b.priority + by });
      else {
        await patch(a.id, { priority: b.priority });
        await patch(b.id, { priority: a.priority });
      }
    });
    list.reload();
  }

  async function toggle(rule: ShippingRule) {
    await change.run(() => patch(rule.id, { enabled: !rule.enabled }));
    list.reload();
  }

  async function remove(rule: ShippingRule) {
    await change.run(() => call(api.DELETE('/api/admin/shipping-rules/{id}', { params: { path: { id: rule.id } } })));
    if (editing !== 'new' && editing?.id === rule.id) setEditing(null);
    list.reload();
  }

  const nextPriority = rules.length ? Math.max(...rules.map((r) => r.priority)) + 10 : 10;
  return (
    <section>
      <div className="page-head">
        <h1>Shipping rules</h1>
        {!editing && (
          <button type="button" className="btn btn-primary" onClick={() => setEditing('new')}>
            Add rule
          </button>
        )}
      </div>
      <p className="muted">
        Labels bought with <code>service_code: "auto"</code> in the {environment} environment apply the first enabled rule, top to bottom, whose conditions
        match the order; no rule matches → the cheapest option.
      </p>
      {editing && (
        <RuleForm
          key={editing === 'new' ? 'new' : editing.id}
          rule={editing === 'new' ? null : editing}
          nextPriority={nextPriority}
          onDone={(saved) => {
            setEditing(null);
            if (saved) list.reload();
          }}
        />
      )}
      {change.error && <ErrorBox error={change.error} />}
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading rules…" />
      ) : rules.length === 0 ? (
        <Empty>
          No shipping rules yet: every auto purchase takes the cheapest option. Add a rule to exclude carriers, cap days or price, or prefer services.
        </Empty>
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="rules">
            <thead>
              <tr>
                <th>Order</th>
                <th>Rule</th>
                <th className="hide-sm">Priority</th>
                <th>State</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {rules.map((r, i) => {
                const d = describeRule(r);
                return (
                  <tr key={r.id} data-rule={r.id}>
                    <td>
                      <span className="inline">
                        <button
                          type="button"
                          className="btn btn-small"
                          aria-label={`Move ${r.name} up`}
                          disabled={i === 0 || change.busy}
                          onClick={() => move(i, -1)}
                        >
                          ↑
                        </button>
                        <button
                          type="button"
                          className="btn btn-small"
                          aria-label={`Move ${r.name} down`}
                          disabled={i === rules.length - 1 || change.busy}
                          onClick={() => move(i, 1)}
                        >
                          ↓
                        </button>
                      </span>
                    </td>
                    <td>
                      <strong className="rule-name">{r.name}</strong>
                      <div className="muted small">When: {d.when}</div>
                      <div className="muted small">Then: {d.then}</div>
                    </td>
                    <td className="hide-sm num">{r.priority}</td>
                    <td>
                      <Badge value={r.enabled ? 'enabled' : 'disabled'} />
                    </td>
                    <td>
                      <span className="actions">
                        <button type="button" className="btn btn-small" disabled={change.busy} onClick={() => toggle(r)}>
                          {r.enabled ? 'Disable' : 'Enable'}
                        </button>
                        <button type="button" className="btn btn-small" onClick={() => setEditing(r)}>
                          Edit
                        </button>
                        <ConfirmButton label="Delete" confirmLabel="Delete rule" disabled={change.busy} onConfirm={() => remove(r)} />
                      </span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <TryIt />
    </section>
  );
}

/** Create or edit a rule: every condition and action; the service's details sit under their inputs. */
function RuleForm({ rule, nextPriority, onDone }: { rule: ShippingRule | null; nextPriority: number; onDone: (saved: boolean) => void }) {
  const [d, setD] = useState<RuleDraft>(() => draftOf(rule, nextPriority));
  const save = useAction();
  const set = (patch: Partial<RuleDraft>) => setD({ ...d, ...patch });
  const err = (input: string) => errorsFor(save.error?.details, input);
  const input = (key: keyof RuleDraft, label: string, extra: { hint?: string; placeholder?: string; inputMode?: 'decimal' | 'numeric' } = {}) => (
    <Field label={label} value={d[key] as string} onChange={(e) => set({ [key]: e.target.value })} error={err(key)} spellCheck={false} {...extra} />
  );

  async function submit(e: FormEvent) {
    e.preventDefault();
    const body = bodyOf(d);
    const saved = await save.run(() =>
      rule
        ? call(api.PATCH('/api/admin/shipping-rules/{id}', { params: { path: { id: rule.id } }, body }))
        : call(api.POST('/api/admin/shipping-rules', { body })),
    );
    if (saved) onDone(true);
  }

  const unplaced = save.error && save.error.details.filter((x) => !inputOf(x.field));
  const label = rule ? `Edit rule ${rule.name}` : 'New shipping rule';
  return (
    <form onSubmit={submit} noValidate className="form card" aria-label={label}>
      <h2>{rule ? `Edit “${rule.name}”` : 'Add a rule'}</h2>
      {save.error && (save.error.details.length === 0 || (unplaced && unplaced.length > 0)) && (
        <ErrorBox error={new ApiError(save.error.status, save.error.code, save.error.message, unplaced ?? [], save.error.requestId)} />
      )}
      <div className="row">
        {input('name', 'Name', { placeholder: 'e.g. Canada: no DHL' })}
        {input('priority', 'Priority', { inputMode: 'numeric', hint: 'Lower applies first.' })}
      </div>
      <label className="check-label">
        <input type="checkbox" checked={d.enabled} onChange={(e) => set({ enabled: e.target.checked })} /> Enabled
      </label>
      <fieldset className="rule-part">
        <legend>When (every condition given must hold; leave empty for any)</legend>
        <div className="row">
          {input('countries', 'Destination countries', { placeholder: 'CA, MX', hint: 'ISO codes, any of.' })}
          {input('states', 'Destination states', { placeholder: 'CA, NY' })}
          <Select
            label="Residential"
            value={d.residential}
            onChange={(e) => set({ residential: e.target.value as RuleDraft['residential'] })}
            error={err('residential')}
          >
            <option value="any">Any</option>
            <option value="yes">Yes (residential)</option>
            <option value="no">No (commercial)</option>
          </Select>
        </div>
        <div className="row">
          {input('weightMin', 'Weight min (oz)', { inputMode: 'decimal' })}
          {input('weightMax', 'Weight max (oz)', { inputMode: 'decimal' })}
        </div>
        <div className="row">
          {input('valueMin', 'Order value min', { inputMode: 'decimal', placeholder: '25.00' })}
          {input('valueMax', 'Order value max', { inputMode: 'decimal' })}
          {input('valueCurrency', 'Order value currency', { placeholder: 'USD' })}
        </div>
        {input('skus', 'SKUs (any of)', { placeholder: 'MUG-1, TEE-2' })}
      </fieldset>
      <fieldset className="rule-part">
        <legend>Then</legend>
        <div className="row">
          {input('excludeCarriers', 'Exclude carriers', { placeholder: 'dhl_express', hint: 'Carrier slugs: usps, ups, fedex, dhl_express.' })}
          {input('excludeServices', 'Exclude services', { placeholder: 'ups_next_day_air' })}
          {input('onlyServices', 'Only services')}
        </div>
        <div className="row">
          {input('maxDays', 'Max business days', { inputMode: 'numeric' })}
          {input('maxPrice', 'Max price', { inputMode: 'decimal' })}
          {input('maxPriceCurrency', 'Max price currency', { placeholder: 'USD' })}
        </div>
        <div className="row">
          <Select label="Choose" value={d.choose} onChange={(e) => set({ choose: e.target.value as RuleDraft['choose'] })} error={err('choose')}>
            {STRATEGIES.map((s) => (
              <option key={s} value={s}>
                {s.replace('_', ' ')}
              </option>
            ))}
          </Select>
          {d.choose === 'preferred' &&
            input('preferred', 'Preferred services', { placeholder: 'ups_ground, usps_ground_advantage', hint: 'In order of preference.' })}
        </div>
        {d.choose !== 'preferred' && err('preferred') && <p className="field-error">{err('preferred')}</p>}
      </fieldset>
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={save.busy}>
          {save.busy ? 'Saving…' : rule ? 'Save rule' : 'Add rule'}
        </button>
        <button type="button" className="btn btn-ghost" onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** "Try it": the selection a purchase with service_code auto would make for an order, without buying. */
function TryIt() {
  const orders = useAsync(() => call(api.GET('/api/admin/orders', { params: { query: { limit: 50 } } })), []);
  const [picked, setPicked] = useState('');
  const [typed, setTyped] = useState('');
  const [selection, setSelection] = useState<Selection | null>(null);
  const evaluate = useAction();
  const orderId = typed.trim() || picked;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSelection(null);
    const res = await evaluate.run(() => call(api.POST('/api/admin/shipping-rules/evaluate', { body: { order_id: orderId } })));
    if (res) setSelection(res);
  }

  return (
    <form onSubmit={submit} noValidate className="form card try-it" aria-label="Try the rules">
      <h2>Try it</h2>
      <p className="muted">
        Rates an order as a purchase with <code>service_code: "auto"</code> would, and shows which option the rules choose and why. Nothing is bought.
      </p>
      <div className="row">
        <Select label="Order" value={picked} onChange={(e) => setPicked(e.target.value)}>
          <option value="">{orders.data ? (orders.data.data.length ? 'Pick an order…' : 'No orders yet') : 'Loading orders…'}</option>
          {(orders.data?.data ?? []).map((o) => (
            <option key={o.id} value={o.id}>
              {o.external_id ?? o.id} · {o.customer.name ?? o.customer.email ?? ''} · {[o.ship_to.city, o.ship_to.country].filter(Boolean).join(', ')}
            </option>
          ))}
        </Select>
        <Field
          label="Or an order id"
          value={typed}
          spellCheck={false}
          placeholder="ord_…"
          onChange={(e) => setTyped(e.target.value)}
          error={errorsFor(evaluate.error?.details, 'order_id')}
        />
      </div>
      {orders.error && <ErrorBox error={orders.error} onRetry={orders.reload} />}
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={evaluate.busy || !orderId}>
          {evaluate.busy ? 'Rating…' : 'Try it'}
        </button>
      </div>
      {evaluate.error && <ErrorBox error={evaluate.error} />}
      {selection && <SelectionTable selection={selection} />}
    </form>
  );
}

function SelectionTable({ selection: s }: { selection: Selection }) {
  return (
    <div data-testid="selection">
      <p className="selection-summary">
        {s.rule_id ? (
          <>
            Rule <strong data-testid="selection-rule">{s.rule_name}</strong> applied, strategy{' '}
            <strong data-testid="selection-strategy">{s.strategy.replace('_', ' ')}</strong>
          </>
        ) : (
          <>
            No rule matched: strategy <strong data-testid="selection-strategy">{s.strategy.replace('_', ' ')}</strong>
          </>
        )}{' '}
        → chose <code>{s.chosen}</code>.
      </p>
      <div className="table-wrap">
        <table className="table selection-table">
          <thead>
            <tr>
              <th>Service</th>
              <th className="hide-sm">Account</th>
              <th className="num">Price</th>
              <th className="num">Days</th>
              <th>Excluded</th>
              <th>Reason</th>
            </tr>
          </thead>
          <tbody>
            {s.considered.map((o) => {
              const chosen = o.service_code === s.chosen && o.carrier_account_id === s.carrier_account_id;
              return (
                <tr
                  key={`${o.service_code}|${o.carrier_account_id}`}
                  className={chosen ? 'chosen' : o.excluded ? 'excluded' : undefined}
                  data-service={o.service_code}
                  aria-current={chosen ? 'true' : undefined}
                >
                  <td className="mono">
                    {o.service_code} {chosen && <Badge value="chosen" />}
                  </td>
                  <td className="hide-sm mono small">{o.carrier_account_id ?? '—'}</td>
                  <td className="num">{money(o.price)}</td>
                  <td className="num">{o.business_days}</td>
                  <td>{o.excluded ? 'yes' : 'no'}</td>
                  <td className="small">{o.reason ?? '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
