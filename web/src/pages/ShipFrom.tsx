import { useEffect, useState, type FormEvent } from 'react';
import { api, call, type Workspace } from '../api/client';
import type { PageProps } from '../page-props';
import { Link } from '../router';
import { useSession } from '../session';
import { ErrorBox, Field, fieldError, Loading, useAction, useAsync } from '../ui';
import { ADDRESS_FIELDS } from './OrderForm';

type Address = Record<(typeof ADDRESS_FIELDS)[number][0], string>;

function toForm(a: Workspace['origin_address'] | null | undefined): Address {
  return Object.fromEntries(ADDRESS_FIELDS.map(([k]) => [k, ((a ?? {}) as Record<string, string | undefined>)[k] ?? ''])) as Address;
}

/**
 * The ship-from address: where labels say a parcel comes from and where rates start. A new
 * workspace has none, and no label can be bought until it is set, so the order queue shows this
 * form first (onboarding) and the Ship from page keeps it editable.
 */
export function ShipFromForm({ workspace, onSaved }: { workspace: Workspace; onSaved: (w: Workspace) => void }) {
  const [f, setF] = useState<Address>(() => toForm(workspace.origin_address));
  const save = useAction();
  const [saved, setSaved] = useState(false);
  const errors = save.error?.code === 'validation_failed' ? save.error.details : [];
  useEffect(() => setSaved(false), [f]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const origin_address = Object.fromEntries(
      Object.entries(f)
        .map(([k, v]) => [k, v.trim()])
        .filter(([, v]) => v !== ''),
    );
    const updated = await save.run(() => call(api.PATCH('/api/admin/workspace', { body: { origin_address } as never })));
    if (updated) {
      setSaved(true);
      onSaved(updated);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="form" aria-label="Ship-from address">
      {save.error && errors.length === 0 && <ErrorBox error={save.error} />}
      {errors.length > 0 && (
        <div className="alert alert-error" role="alert">
          Please correct the {errors.length === 1 ? 'field' : `${errors.length} fields`} marked below.
        </div>
      )}
      <div className="row">
        {ADDRESS_FIELDS.map(([k, label]) => (
          <Field
            key={k}
            label={label + (['street1', 'city', 'postal_code', 'country'].includes(k) ? ' *' : '')}
            value={f[k]}
            maxLength={k === 'country' ? 2 : 200}
            onChange={(e) => setF((s) => ({ ...s, [k]: e.target.value }))}
            error={fieldError(errors, `origin_address.${k}`)}
            name={`origin_address.${k}`}
          />
        ))}
      </div>
      <div className="actions">
        <button type="submit" className="btn btn-primary" disabled={save.busy}>
          Save ship-from address
        </button>
        {saved && <span role="status">Saved.</span>}
      </div>
    </form>
  );
}

export function ShipFrom(_props: PageProps) {
  const workspace = useAsync(() => call(api.GET('/api/admin/workspace')), []);
  if (workspace.error) return <ErrorBox error={workspace.error} onRetry={workspace.reload} />;
  if (!workspace.data) return <Loading label="Loading workspace…" />;
  return (
    <section>
      <h1>Ship from</h1>
      <p className="muted">Labels print this as the sender, and rates and delivery dates start here.</p>
      <ShipFromForm workspace={workspace.data} onSaved={workspace.setData} />
    </section>
  );
}

/**
 * Onboarding on the order queue: shown only while labels have nowhere to ship from (no
 * ship-from address and no location: a location made through the API ships them too).
 */
export function ShipFromOnboarding() {
  const workspace = useAsync(() => call(api.GET('/api/admin/workspace')), []);
  const locations = useAsync(() => call(api.GET('/api/admin/locations', { params: { query: { limit: 1 } } })), []);
  const [done, setDone] = useState(false);
  // Setting it is an admin's (docs/architecture.md, "Roles"); others see the queue as it is.
  const canSet = useSession().can('admin');
  if (!canSet || !workspace.data || !locations.data || workspace.data.origin_address || locations.data.data.length > 0 || done) return null;
  return (
    <div className="card onboarding" data-testid="ship-from-onboarding">
      <h2>First, where do your parcels ship from?</h2>
      <p className="muted">
        No label can be bought until the workspace has a ship-from address. You can change it later under <Link to="/dashboard/ship-from">Ship from</Link>.
      </p>
      <ShipFromForm workspace={workspace.data} onSaved={() => setDone(true)} />
    </div>
  );
}

/**
 * The live environment starts with simulated carriers: their labels print SAMPLE and no carrier
 * will take them. Until a real carrier account is connected, every live page says so.
 */
export function LiveCarrierWarning() {
  const accounts = useAsync(() => call(api.GET('/api/admin/carrier-accounts', { params: { query: { limit: 100 } } })), []);
  const real = accounts.data?.data.some((a) => a.driver === 'api' && a.enabled);
  if (!accounts.data || real) return null;
  return (
    <div className="live-warning" role="alert" data-testid="live-carrier-warning">
      Live, but no real carrier account is connected: labels are simulated and print SAMPLE - DO NOT MAIL.{' '}
      <Link to="/dashboard/carriers">Connect a carrier account</Link>
    </div>
  );
}
