import { useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api/client';
import { Empty, ErrorBox, Loading, useAction, useAsync, when } from '../ui';

type Setting = Schemas['Setting'];

/** The input a setting's JSON schema calls for: boolean → checkbox, integer/number → number, else JSON. */
function kindOf(schema: Record<string, unknown>): 'boolean' | 'number' | 'json' {
  if (schema.type === 'boolean') return 'boolean';
  if (schema.type === 'integer' || schema.type === 'number') return 'number';
  return 'json';
}

export function AdminSettings() {
  const list = useAsync(() => call(api.GET('/api/super-admin/settings')), []);
  return (
    <section>
      <h1>Settings</h1>
      <p className="muted">A change is in force on every process within a few seconds and is written to the audit log.</p>
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading settings…" />
      ) : list.data.data.length === 0 ? (
        <Empty>No settings.</Empty>
      ) : (
        list.data.data.map((s) => <SettingForm key={s.key} setting={s} />)
      )}
    </section>
  );
}

function SettingForm({ setting }: { setting: Setting }) {
  const [current, setCurrent] = useState(setting);
  const schema = (current.schema ?? {}) as Record<string, unknown>;
  const kind = kindOf(schema);
  const show = (v: unknown) => (kind === 'json' ? JSON.stringify(v, null, 2) : String(v));
  const [draft, setDraft] = useState<string>(show(current.value));
  const [checked, setChecked] = useState<boolean>(current.value === true);
  const [localError, setLocalError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const id = `setting-${current.key.replace(/[^a-z0-9]/gi, '-')}`;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setLocalError(null);
    setSaved(false);
    let value: unknown;
    if (kind === 'boolean') value = checked;
    else if (kind === 'number') {
      value = Number(draft);
      if (draft.trim() === '' || !Number.isFinite(value)) return setLocalError('Enter a number.');
    } else {
      try {
        value = JSON.parse(draft);
      } catch {
        return setLocalError('This is not valid JSON.');
      }
    }
    const res = await save.run(() => call(api.PUT('/api/super-admin/settings/{key}', { params: { path: { key: current.key } }, body: { value } })));
    if (res) {
      setCurrent({ ...current, ...res });
      setDraft(show(res.value));
      setSaved(true);
    }
  }

  return (
    <form className="card form" onSubmit={submit} noValidate aria-label={`Setting ${current.key}`} data-testid={id}>
      <h2 className="mono">{current.key}</h2>
      <p className="muted">{current.description}</p>
      {kind === 'boolean' ? (
        <label className="inline">
          <input type="checkbox" checked={checked} onChange={(e) => setChecked(e.target.checked)} /> Enabled
        </label>
      ) : kind === 'number' ? (
        <div className="field">
          <label htmlFor={id}>Value</label>
          <input id={id} type="number" value={draft} step={schema.type === 'integer' ? 1 : 'any'} min={schema.minimum as number | undefined} max={schema.maximum as number | undefined} onChange={(e) => setDraft(e.target.value)} />
        </div>
      ) : (
        <div className="field">
          <label htmlFor={id}>Value (JSON)</label>
          <textarea id={id} className="mono" rows={Math.min(12, draft.split('\n').length + 1)} maxLength={100_000} value={draft} onChange={(e) => setDraft(e.target.value)} />
        </div>
      )}
      {localError && (
        <p className="field-error" role="alert">
          {localError}
        </p>
      )}
      {save.error && <ErrorBox error={save.error} />}
      {saved && (
        <p className="muted" role="status">
          Saved.
        </p>
      )}
      <p className="muted small">
        Default: <code>{JSON.stringify(current.default)}</code> · updated {when(current.updated_at)}
      </p>
      <button type="submit" className="btn btn-primary btn-small" disabled={save.busy}>
        {save.busy ? 'Saving…' : 'Save'}
      </button>
    </form>
  );
}
