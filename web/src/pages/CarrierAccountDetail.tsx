import { useState, type FormEvent } from 'react';
import { carrierTypes } from '../api/carriers';
import { api, call } from '../api/client';
import type { PageProps } from '../page-props';
import { Link, navigate } from '../router';
import { Badge, ConfirmButton, Empty, ErrorBox, Field, fieldError, Loading, Select, useAction, useAsync, usePolling, when } from '../ui';
import {
  AccountBadges,
  carrierName,
  CredentialsFields,
  HealthSummary,
  MaskedCredentials,
  MODES,
  UnplacedErrors,
  type CarrierAccount,
  type CarrierExchange,
  type Mode,
} from './carriers-common';
import { ExchangeRow } from './exchange-row';
import { credentialFieldNames, credentialsFromDraft, emptyDraft, type CredentialDraft, type JsonSchema } from './credentials-draft';

export function CarrierAccountDetail({ params }: PageProps) {
  const path = { params: { path: { id: params.id } } };
  const account = useAsync(() => call(api.GET('/api/admin/carrier-accounts/{id}', path)), [params.id]);
  const types = useAsync(carrierTypes, []);
  const action = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  // Bumped after each call that reaches the carrier, so the log looks for the new exchanges.
  const [carrierCalls, setCarrierCalls] = useState(0);

  if (account.error)
    return (
      <section>
        <p>
          <Link to="/dashboard/carriers">← Carrier accounts</Link>
        </p>
        <ErrorBox
          error={
            account.error.status === 404
              ? Object.assign(account.error, { message: 'This carrier account does not exist in this workspace and environment.' })
              : account.error
          }
          onRetry={account.reload}
        />
      </section>
    );
  if (!account.data) return <Loading label="Loading carrier account…" />;
  const a = account.data;
  const isApi = a.driver === 'api';
  const name = carrierName(types.data, a.carrier);
  const schema = (types.data?.find((t) => t.carrier === a.carrier)?.credentials_schema ?? null) as JsonSchema | null;

  const saved = (r: CarrierAccount, talkedToCarrier: boolean) => {
    // The last action's notice no longer describes the account.
    setNotice(null);
    account.setData(r);
    if (talkedToCarrier) setCarrierCalls((n) => n + 1);
  };
  async function patch(body: { enabled?: boolean; is_default?: boolean }, done: string) {
    setNotice(null);
    const r = await action.run(() => call(api.PATCH('/api/admin/carrier-accounts/{id}', { ...path, body })));
    if (r) {
      saved(r, false);
      setNotice(done);
    }
  }
  async function test() {
    setNotice(null);
    const r = await action.run(() => call(api.POST('/api/admin/carrier-accounts/{id}/test', path)));
    if (r) {
      saved(r, isApi);
      setNotice(r.health.status === 'ok' ? 'Connection test passed.' : `Connection test: ${r.health.status.replaceAll('_', ' ')}.`);
    }
  }
  async function remove() {
    const r = await action.run(() => call(api.DELETE('/api/admin/carrier-accounts/{id}', path)).then(() => true));
    if (r) navigate('/dashboard/carriers');
  }

  return (
    <section>
      <p>
        <Link to="/dashboard/carriers">← Carrier accounts</Link>
      </p>
      <div className="page-head">
        <h1>
          {name} account <AccountBadges account={a} />
        </h1>
        <div className="actions" role="group" aria-label="Account actions">
          <button type="button" className="btn btn-primary" disabled={action.busy} onClick={test}>
            {action.busy ? 'Working…' : 'Test connection'}
          </button>
          {!a.is_default && (
            <button
              type="button"
              className="btn"
              disabled={action.busy}
              onClick={() => patch({ is_default: true }, `This is now the default ${name} account.`)}
            >
              Make default
            </button>
          )}
          <button
            type="button"
            className="btn"
            disabled={action.busy}
            onClick={() => patch({ enabled: !a.enabled }, a.enabled ? 'Disabled: it no longer rates or buys labels.' : 'Enabled.')}
          >
            {a.enabled ? 'Disable' : 'Enable'}
          </button>
          <ConfirmButton label="Delete" confirmLabel="Delete account" disabled={action.busy} onConfirm={remove} />
        </div>
      </div>
      {a.description && <p>{a.description}</p>}
      {notice && (
        <p className="alert alert-info" role="status">
          {notice}
        </p>
      )}
      {action.error && <ErrorBox error={action.error} />}
      {!a.enabled && (
        <p className="alert alert-warn" role="note">
          This account is disabled: rates do not ask it and labels are not bought with it.
        </p>
      )}
      <div className="grid2">
        <div className="card">
          <h2>Health</h2>
          <HealthSummary health={a.health} driver={a.driver} />
        </div>
        <div className="card">
          <h2>Credentials</h2>
          <MaskedCredentials credentials={a.credentials} />
        </div>
      </div>
      <dl className="facts">
        <div>
          <dt>ID</dt>
          <dd className="mono">{a.id}</dd>
        </div>
        <div>
          <dt>Driver</dt>
          <dd>
            <Badge value={a.driver} kind={`driver-${a.driver}`} />
          </dd>
        </div>
        {isApi && (
          <div>
            <dt>Mode</dt>
            <dd>{a.mode}</dd>
          </div>
        )}
        <div>
          <dt>Account number</dt>
          <dd className="mono">{a.account_number ?? '—'}</dd>
        </div>
        {a.base_url && (
          <div>
            <dt>Base URL</dt>
            <dd className="mono">{a.base_url}</dd>
          </div>
        )}
        <div>
          <dt>Created</dt>
          <dd>{when(a.created_at)}</dd>
        </div>
        <div>
          <dt>Updated</dt>
          <dd>{when(a.updated_at)}</dd>
        </div>
      </dl>
      <EditAccount key={`settings-${a.id}`} account={a} onSaved={saved} />
      {isApi && schema && <ReplaceCredentials key={`credentials-${a.id}`} account={a} schema={schema} onSaved={saved} />}
      {/* A simulated account talks to no carrier: it has no exchanges to show. */}
      {isApi && <ExchangeLog accountId={a.id} carrierCalls={carrierCalls} awaitFirst={a.health.checked_at != null} />}
    </section>
  );
}

function EditAccount({ account, onSaved }: { account: CarrierAccount; onSaved: (a: CarrierAccount, talkedToCarrier: boolean) => void }) {
  const initial = { description: account.description ?? '', mode: account.mode };
  const [form, setForm] = useState(initial);
  const [done, setDone] = useState(false);
  const save = useAction();
  const isApi = account.driver === 'api';
  const changed = form.description.trim() !== initial.description || form.mode !== initial.mode;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setDone(false);
    const body = {
      ...(form.description.trim() !== initial.description ? { description: form.description.trim() || null } : {}),
      ...(form.mode !== initial.mode ? { mode: form.mode } : {}),
    };
    const r = await save.run(() => call(api.PATCH('/api/admin/carrier-accounts/{id}', { params: { path: { id: account.id } }, body })));
    if (r) {
      setDone(true);
      // A new mode means a new host: the service tests it at once.
      onSaved(r, 'mode' in body && isApi);
    }
  }

  return (
    <form className="card form" onSubmit={submit} noValidate aria-label="Account settings">
      <h2>Settings</h2>
      <UnplacedErrors error={save.error} placed={['description', 'mode']} />
      <div className="row">
        <Field
          label="Description"
          value={form.description}
          maxLength={200}
          onChange={(e) => setForm({ ...form, description: e.target.value })}
          error={fieldError(save.error?.details, 'description')}
        />
        {isApi && (
          <Select
            label="Mode"
            value={form.mode}
            onChange={(e) => setForm({ ...form, mode: e.target.value as Mode })}
            error={fieldError(save.error?.details, 'mode')}
          >
            {MODES.map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </Select>
        )}
      </div>
      {done && !changed && (
        <p className="ok" role="status">
          Saved.
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={save.busy || !changed}>
        {save.busy ? 'Saving…' : 'Save changes'}
      </button>
    </form>
  );
}

/** New credentials replace the old ones whole; the service tests them at once. */
function ReplaceCredentials({
  account,
  schema,
  onSaved,
}: {
  account: CarrierAccount;
  schema: JsonSchema;
  onSaved: (a: CarrierAccount, talkedToCarrier: boolean) => void;
}) {
  const [draft, setDraft] = useState<CredentialDraft>(() => emptyDraft(schema, account.credentials));
  const [done, setDone] = useState(false);
  const save = useAction();

  async function submit(e: FormEvent) {
    e.preventDefault();
    setDone(false);
    const r = await save.run(() =>
      call(api.PATCH('/api/admin/carrier-accounts/{id}', { params: { path: { id: account.id } }, body: { credentials: credentialsFromDraft(schema, draft) } })),
    );
    if (r) {
      // The secrets typed here leave the page with the answer.
      setDraft(emptyDraft(schema, r.credentials));
      setDone(true);
      onSaved(r, true);
    }
  }

  return (
    <form className="card form" onSubmit={submit} noValidate aria-label="Replace credentials">
      <h2>Replace credentials</h2>
      <UnplacedErrors error={save.error} placed={credentialFieldNames(schema)} />
      <CredentialsFields schema={schema} draft={draft} onChange={(d) => (setDraft(d), setDone(false))} errors={save.error?.details} replacing />
      {done && (
        <p className={account.health.status === 'ok' ? 'ok' : 'bad'} role="status">
          Credentials replaced and tested: health is {account.health.status.replaceAll('_', ' ')}.
        </p>
      )}
      <button type="submit" className="btn btn-primary" disabled={save.busy}>
        {save.busy ? 'Saving and testing…' : 'Replace credentials'}
      </button>
    </form>
  );
}

/** How many times the log is asked again for an exchange that was just made (written off the request path). */
const LOG_POLLS = 15;

/**
 * GET …/logs: the last 100 exchanges with the carrier, bodies redacted by the service. After a
 * call that reached the carrier, the log is asked again (once a second, a few times) until the
 * new exchange shows, since the service writes exchanges after answering.
 */
function ExchangeLog({ accountId, carrierCalls, awaitFirst }: { accountId: string; carrierCalls: number; awaitFirst: boolean }) {
  const logs = useAsync(() => call(api.GET('/api/admin/carrier-accounts/{id}/logs', { params: { path: { id: accountId } } })), [accountId, carrierCalls]);
  const rows = logs.data?.data ?? [];
  const newest = rows[0]?.id ?? null;
  // Wait for a row newer than `after` (null: any row), at most `left` more polls.
  const [watch, setWatch] = useState<{ after: string | null; left: number } | null>(awaitFirst ? { after: null, left: LOG_POLLS } : null);
  // A new carrier call starts a new wait, from the newest row the log showed before it.
  const [seenCalls, setSeenCalls] = useState(carrierCalls);
  if (seenCalls !== carrierCalls) {
    setSeenCalls(carrierCalls);
    setWatch({ after: newest, left: LOG_POLLS });
  }
  const waiting = !!watch && watch.left > 0 && !!logs.data && newest === watch.after;
  usePolling(
    () => {
      setWatch((w) => (w ? { ...w, left: w.left - 1 } : w));
      logs.reload();
    },
    1000,
    waiting,
  );

  return (
    <div className="card">
      <div className="page-head">
        <h2>Exchange log</h2>
        <button type="button" className="btn btn-small" onClick={logs.reload} disabled={logs.loading}>
          Refresh
        </button>
      </div>
      <p className="muted small">The last 100 requests to the carrier (kept 7 days). Authorization, tokens, secrets and passwords are redacted.</p>
      {logs.error ? (
        <ErrorBox error={logs.error} onRetry={logs.reload} />
      ) : !logs.data ? (
        <Loading label="Loading exchanges…" />
      ) : rows.length === 0 ? (
        <Empty>{waiting ? 'Waiting for the exchanges to be written…' : 'No exchanges with the carrier yet.'}</Empty>
      ) : (
        <div className="table-wrap">
          <table className="table exchanges" data-testid="exchanges">
            <thead>
              <tr>
                <th>Request</th>
                <th>Status</th>
                <th className="num">Duration</th>
                <th className="hide-sm">Request ID</th>
                <th>
                  <span className="sr-only">Bodies</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((x) => (
                <CarrierExchangeRow key={x.id} x={x} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

/** One exchange with the carrier (exchange-row.tsx): what was asked, and our request id. */
function CarrierExchangeRow({ x }: { x: CarrierExchange }) {
  return (
    <ExchangeRow
      x={x}
      testIdPrefix="exchange"
      lead={
        <td>
          <span className="mono path">
            {x.method} {x.path}
          </span>
          <div className="muted small">
            {when(x.created_at)} · {x.operation.replaceAll('_', ' ')}
          </div>
        </td>
      }
      extra={<td className="hide-sm mono small break">{x.request_id ?? '—'}</td>}
    />
  );
}
