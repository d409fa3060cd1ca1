import { useState, type FormEvent } from 'react';
import { carrierTypes, type CarrierType } from '../api/carriers';
import { api, call } from '../api/client';
import { Link, navigate } from '../router';
import { useSession } from '../session';
import { Badge, Empty, ErrorBox, Field, fieldError, Loading, Pager, Select, useAction, useAsync, useCursorPages } from '../ui';
import { AccountBadges, carrierName, CredentialsFields, HealthSummary, MaskedCredentials, MODES, UnplacedErrors, type Mode } from './carriers-common';
import { credentialFieldNames, credentialsFromDraft, emptyDraft, type CredentialDraft, type JsonSchema } from './credentials-draft';

export function Carriers() {
  const { environment } = useSession();
  const [carrier, setCarrier] = useState('');
  const pages = useCursorPages(carrier);
  const types = useAsync(carrierTypes, []);
  const list = useAsync(
    () => call(api.GET('/api/admin/carrier-accounts', { params: { query: { cursor: pages.cursor, limit: 50, carrier: carrier || undefined } } })),
    [pages.cursor, carrier],
  );
  const [adding, setAdding] = useState(false);

  return (
    <section>
      <div className="page-head">
        <h1>Carriers</h1>
        {!adding && (
          <button type="button" className="btn btn-primary" onClick={() => setAdding(true)} disabled={!types.data}>
            Add account
          </button>
        )}
      </div>
      <p className="muted">
        The carrier accounts of the {environment} environment. Rates ask every enabled account; a label is bought with the carrier’s default account unless the
        request names one.
      </p>
      {types.error && <ErrorBox error={types.error} onRetry={types.reload} />}
      {adding && types.data && <AddAccount types={types.data} onCancel={() => setAdding(false)} />}
      <div className="filters">
        <Select label="Filter by carrier" value={carrier} onChange={(e) => setCarrier(e.target.value)}>
          <option value="">Any</option>
          {(types.data ?? []).map((t) => (
            <option key={t.carrier} value={t.carrier}>
              {t.name}
            </option>
          ))}
        </Select>
      </div>
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading carrier accounts…" />
      ) : list.data.data.length === 0 ? (
        <Empty>
          {carrier
            ? `No ${carrierName(types.data, carrier)} accounts in this environment.`
            : 'No carrier accounts in this environment. Add one to rate and buy labels.'}
        </Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="carrier-accounts">
              <thead>
                <tr>
                  <th>Carrier</th>
                  <th>Driver</th>
                  <th className="hide-sm">Mode</th>
                  <th className="hide-sm">Credentials</th>
                  <th>State</th>
                  <th>Health</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((a) => (
                  <tr key={a.id} data-account={a.id}>
                    <td>
                      <Link to={`/dashboard/carriers/${a.id}`}>{carrierName(types.data, a.carrier)}</Link>
                      {a.description && <div className="muted small">{a.description}</div>}
                      {a.account_number && <div className="muted small mono">#{a.account_number}</div>}
                    </td>
                    <td>
                      <Badge value={a.driver} kind={`driver-${a.driver}`} />
                    </td>
                    <td className="hide-sm">{a.driver === 'api' ? a.mode : '—'}</td>
                    <td className="hide-sm">
                      <MaskedCredentials credentials={a.credentials} />
                    </td>
                    <td>
                      <AccountBadges account={a} />
                    </td>
                    <td>
                      <HealthSummary health={a.health} driver={a.driver} compact />
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

type Form = { carrier: string; driver: 'simulated' | 'api'; description: string; mode: Mode; account_number: string; base_url: string; is_default: boolean };

function blankForm(type: CarrierType | undefined): Form {
  return {
    carrier: type?.carrier ?? '',
    driver: type?.drivers.includes('api') ? 'api' : 'simulated',
    description: '',
    mode: 'sandbox',
    account_number: '',
    base_url: '',
    is_default: false,
  };
}

/**
 * Connect an account: carrier and driver first; for `api`, the fields the carrier's credentials
 * schema asks for. The service tests the connection on create (a failure is kept, with health
 * saying so), then the account page shows the outcome.
 */
function AddAccount({ types, onCancel }: { types: CarrierType[]; onCancel: () => void }) {
  const initial = types.find((t) => t.drivers.includes('api')) ?? types[0];
  const [form, setForm] = useState<Form>(() => blankForm(initial));
  const type = types.find((t) => t.carrier === form.carrier);
  const schema = form.driver === 'api' ? ((type?.credentials_schema ?? null) as JsonSchema | null) : null;
  const [draft, setDraft] = useState<CredentialDraft>(() => emptyDraft(schema));
  const create = useAction();
  const err = (f: string) => fieldError(create.error?.details, f);

  const pickCarrier = (slug: string) => {
    const next = types.find((t) => t.carrier === slug);
    const f = { ...blankForm(next), description: form.description };
    setForm(f);
    setDraft(emptyDraft(f.driver === 'api' ? (next?.credentials_schema as JsonSchema | null) : null));
    create.setError(undefined);
  };
  const pickDriver = (driver: Form['driver']) => {
    setForm({ ...form, driver });
    setDraft(emptyDraft(driver === 'api' ? (type?.credentials_schema as JsonSchema | null) : null));
    create.setError(undefined);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const api_ = form.driver === 'api';
    const created = await create.run(() =>
      call(
        api.POST('/api/admin/carrier-accounts', {
          body: {
            carrier: form.carrier,
            driver: form.driver,
            ...(form.description.trim() ? { description: form.description.trim() } : {}),
            ...(api_ ? { mode: form.mode, credentials: credentialsFromDraft(schema, draft) } : {}),
            ...(api_ && form.account_number.trim() ? { account_number: form.account_number.trim() } : {}),
            ...(api_ && form.base_url.trim() ? { base_url: form.base_url.trim() } : {}),
            is_default: form.is_default,
          },
        }),
      ),
    );
    if (created) {
      // Nothing typed stays in the page once the service has it.
      setDraft(emptyDraft(schema));
      navigate(`/dashboard/carriers/${created.id}`);
    }
  }

  // Details on fields the form shows sit under them; any other goes to the error box.
  const placed = [
    'carrier',
    'driver',
    'description',
    'is_default',
    ...(form.driver === 'api' ? ['mode', 'account_number', 'base_url'] : []),
    ...(schema ? credentialFieldNames(schema) : []),
  ];
  return (
    <form onSubmit={submit} noValidate className="form card" aria-label="New carrier account">
      <h2>Add a carrier account</h2>
      <UnplacedErrors error={create.error} placed={placed} />
      <div className="row">
        <Select label="Carrier" value={form.carrier} onChange={(e) => pickCarrier(e.target.value)} error={err('carrier')}>
          {types.map((t) => (
            <option key={t.carrier} value={t.carrier}>
              {t.name}
            </option>
          ))}
        </Select>
        <Select label="Driver" value={form.driver} onChange={(e) => pickDriver(e.target.value as Form['driver'])} error={err('driver')}>
          {(type?.drivers ?? ['simulated']).map((d) => (
            <option key={d} value={d}>
              {d === 'api' ? 'api (real API)' : 'simulated (no credentials)'}
            </option>
          ))}
        </Select>
        {form.driver === 'api' && (
          <Select label="Mode" value={form.mode} onChange={(e) => setForm({ ...form, mode: e.target.value as Mode })} error={err('mode')}>
            {MODES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </Select>
        )}
      </div>
      <div className="row">
        <Field
          label="Description (optional)"
          value={form.description}
          maxLength={200}
          onChange={(e) => setForm({ ...form, description: e.target.value })}
          error={err('description')}
          placeholder="e.g. Our UPS contract"
        />
        {form.driver === 'api' && (
          <Field
            label="Account number (optional)"
            value={form.account_number}
            maxLength={64}
            spellCheck={false}
            onChange={(e) => setForm({ ...form, account_number: e.target.value })}
            error={err('account_number')}
            hint="Your shipper number at the carrier."
          />
        )}
      </div>
      {schema && <CredentialsFields schema={schema} draft={draft} onChange={setDraft} errors={create.error?.details} />}
      {form.driver === 'api' && !schema && <p className="alert alert-warn">This carrier’s api driver publishes no credentials schema.</p>}
      {form.driver === 'api' && (
        <details className="advanced" open={!!err('base_url') || !!form.base_url}>
          <summary>Advanced</summary>
          <Field
            label="Base URL override (optional)"
            type="url"
            value={form.base_url}
            maxLength={2048}
            spellCheck={false}
            placeholder="https://proxy.example.com"
            onChange={(e) => setForm({ ...form, base_url: e.target.value })}
            error={err('base_url')}
            hint="Replaces the carrier’s host (a test double or an egress proxy). Accepted only where the service allows it."
          />
        </details>
      )}
      <label className="check-label">
        <input type="checkbox" checked={form.is_default} onChange={(e) => setForm({ ...form, is_default: e.target.checked })} /> Make it the default{' '}
        {type?.name ?? form.carrier} account
      </label>
      {err('is_default') && <p className="field-error">{err('is_default')}</p>}
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={create.busy || !form.carrier}>
          {create.busy ? (form.driver === 'api' ? 'Connecting and testing…' : 'Adding…') : 'Add account'}
        </button>
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
