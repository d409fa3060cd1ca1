import { useState, type FormEvent } from 'react';
import { api, call, type Schemas } from '../api/client';
import { Empty, ErrorBox, Loading, useAction, useAsync, when } from '../ui';

type Setting = Schemas['Setting'];
type JsonSchema = {
  type?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  minItems?: number;
  maxItems?: number;
};

/**
 * The input each setting's JSON schema calls for: a checkbox, a number (its bounds from the
 * schema), a comma-separated list of numbers, one number field per property of an object of
 * numbers, and JSON text for anything richer (maps such as office_redeem.sku_map).
 */
type Kind =
  | { k: 'boolean' }
  | { k: 'number'; s: JsonSchema }
  | { k: 'list'; s: JsonSchema; item: JsonSchema }
  | { k: 'object'; props: [string, JsonSchema][] }
  | { k: 'json' };

const isNumber = (s: JsonSchema | undefined) => s?.type === 'integer' || s?.type === 'number';

function kindOf(schema: JsonSchema): Kind {
  if (schema.type === 'boolean') return { k: 'boolean' };
  if (isNumber(schema)) return { k: 'number', s: schema };
  if (schema.type === 'array' && isNumber(schema.items)) return { k: 'list', s: schema, item: schema.items! };
  if (schema.type === 'object' && schema.properties && Object.values(schema.properties).every(isNumber))
    return { k: 'object', props: Object.entries(schema.properties) };
  return { k: 'json' };
}

/** "Whole number, 1 to 50" from the schema's own bounds. */
function describe(s: JsonSchema): string {
  const lo = s.exclusiveMinimum != null ? `more than ${s.exclusiveMinimum}` : s.minimum != null ? `at least ${s.minimum}` : null;
  const hi = s.maximum != null ? `at most ${s.maximum.toLocaleString()}` : null;
  return [s.type === 'integer' ? 'Whole number' : 'Number', lo, hi].filter(Boolean).join(', ');
}

/** The schema's checks for one number, as a message (or null when it passes). */
function checkNumber(text: string, s: JsonSchema): { value?: number; error?: string } {
  if (text.trim() === '') return { error: 'Enter a number.' };
  const value = Number(text);
  if (!Number.isFinite(value)) return { error: `“${text.trim()}” is not a number.` };
  if (s.type === 'integer' && !Number.isInteger(value)) return { error: 'Must be a whole number.' };
  if (s.minimum != null && value < s.minimum) return { error: `Must be at least ${s.minimum}.` };
  if (s.exclusiveMinimum != null && value <= s.exclusiveMinimum) return { error: `Must be more than ${s.exclusiveMinimum}.` };
  if (s.maximum != null && value > s.maximum) return { error: `Must be at most ${s.maximum.toLocaleString()}.` };
  return { value };
}

type Draft = { checked: boolean; text: string; fields: Record<string, string> };

function toDraft(kind: Kind, value: unknown): Draft {
  const d: Draft = { checked: value === true, text: '', fields: {} };
  if (kind.k === 'number') d.text = String(value ?? '');
  else if (kind.k === 'list') d.text = Array.isArray(value) ? value.join(', ') : '';
  else if (kind.k === 'object')
    d.fields = Object.fromEntries(kind.props.map(([name]) => [name, String((value as Record<string, unknown> | null)?.[name] ?? '')]));
  else if (kind.k === 'json') d.text = JSON.stringify(value, null, 2);
  return d;
}

/** The value to send, or the messages of the fields that fail the schema. */
function fromDraft(kind: Kind, d: Draft): { value?: unknown; errors: Record<string, string> } {
  switch (kind.k) {
    case 'boolean':
      return { value: d.checked, errors: {} };
    case 'number': {
      const r = checkNumber(d.text, kind.s);
      return r.error ? { errors: { value: r.error } } : { value: r.value, errors: {} };
    }
    case 'list': {
      const parts = d.text.split(/[\s,]+/).filter(Boolean);
      if (kind.s.minItems != null && parts.length < kind.s.minItems)
        return { errors: { value: `Enter at least ${kind.s.minItems} value${kind.s.minItems > 1 ? 's' : ''}.` } };
      if (kind.s.maxItems != null && parts.length > kind.s.maxItems) return { errors: { value: `Enter at most ${kind.s.maxItems} values.` } };
      const values: number[] = [];
      for (const [i, p] of parts.entries()) {
        const r = checkNumber(p, kind.item);
        if (r.error) return { errors: { value: `Value ${i + 1}: ${r.error}` } };
        values.push(r.value!);
      }
      return { value: values, errors: {} };
    }
    case 'object': {
      const errors: Record<string, string> = {};
      const value: Record<string, number> = {};
      for (const [name, s] of kind.props) {
        const r = checkNumber(d.fields[name] ?? '', s);
        if (r.error) errors[name] = r.error;
        else value[name] = r.value!;
      }
      return Object.keys(errors).length ? { errors } : { value, errors };
    }
    case 'json':
      try {
        return { value: JSON.parse(d.text), errors: {} };
      } catch {
        return { errors: { value: 'This is not valid JSON.' } };
      }
  }
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
  const kind = kindOf((current.schema ?? {}) as JsonSchema);
  const [draft, setDraft] = useState<Draft>(() => toDraft(kind, current.value));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saved, setSaved] = useState(false);
  const save = useAction();
  const id = `setting-${current.key.replace(/[^a-z0-9]/gi, '-')}`;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    save.setError(undefined);
    const parsed = fromDraft(kind, draft);
    setErrors(parsed.errors);
    if (Object.keys(parsed.errors).length) return;
    const res = await save.run(() =>
      call(api.PUT('/api/super-admin/settings/{key}', { params: { path: { key: current.key } }, body: { value: parsed.value } })),
    );
    if (res) {
      setCurrent({ ...current, ...res });
      setDraft(toDraft(kind, res.value));
      setSaved(true);
    }
  }

  const edit = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    setSaved(false);
  };
  const errorOf = (name: string) =>
    errors[name] && (
      <span className="field-error" id={`${id}-${name}-err`} role="alert">
        {errors[name]}
      </span>
    );

  return (
    <form className="card form" onSubmit={submit} noValidate aria-label={`Setting ${current.key}`} data-testid={id}>
      <h2 className="mono">{current.key}</h2>
      <p className="muted">{current.description}</p>
      {kind.k === 'boolean' ? (
        <label className="inline">
          <input type="checkbox" checked={draft.checked} onChange={(e) => edit({ checked: e.target.checked })} /> Enabled
        </label>
      ) : kind.k === 'number' ? (
        <div className={`field${errors.value ? ' field-invalid' : ''}`}>
          <label htmlFor={id}>Value</label>
          <input
            id={id}
            type="number"
            value={draft.text}
            step={kind.s.type === 'integer' ? 1 : 'any'}
            min={kind.s.minimum}
            max={kind.s.maximum}
            aria-invalid={errors.value ? true : undefined}
            aria-describedby={errors.value ? `${id}-value-err` : `${id}-hint`}
            onChange={(e) => edit({ text: e.target.value })}
          />
          {!errors.value && (
            <span className="hint" id={`${id}-hint`}>
              {describe(kind.s)}
            </span>
          )}
          {errorOf('value')}
        </div>
      ) : kind.k === 'list' ? (
        <div className={`field${errors.value ? ' field-invalid' : ''}`}>
          <label htmlFor={id}>Values (comma-separated)</label>
          <input
            id={id}
            value={draft.text}
            maxLength={2000}
            inputMode="numeric"
            aria-invalid={errors.value ? true : undefined}
            aria-describedby={errors.value ? `${id}-value-err` : `${id}-hint`}
            onChange={(e) => edit({ text: e.target.value })}
          />
          {!errors.value && (
            <span className="hint" id={`${id}-hint`}>
              Each: {describe(kind.item).toLowerCase()}
            </span>
          )}
          {errorOf('value')}
        </div>
      ) : kind.k === 'object' ? (
        <div className="row">
          {kind.props.map(([name, s]) => (
            <div key={name} className={`field${errors[name] ? ' field-invalid' : ''}`}>
              <label htmlFor={`${id}-${name}`}>{name.replaceAll('_', ' ')}</label>
              <input
                id={`${id}-${name}`}
                type="number"
                step={s.type === 'integer' ? 1 : 'any'}
                value={draft.fields[name] ?? ''}
                aria-invalid={errors[name] ? true : undefined}
                aria-describedby={errors[name] ? `${id}-${name}-err` : undefined}
                onChange={(e) => edit({ fields: { ...draft.fields, [name]: e.target.value } })}
              />
              {errorOf(name)}
            </div>
          ))}
        </div>
      ) : (
        <div className={`field${errors.value ? ' field-invalid' : ''}`}>
          <label htmlFor={id}>Value (JSON)</label>
          <textarea
            id={id}
            className="mono"
            rows={Math.min(12, draft.text.split('\n').length + 1)}
            maxLength={100_000}
            value={draft.text}
            aria-invalid={errors.value ? true : undefined}
            onChange={(e) => edit({ text: e.target.value })}
          />
          {errorOf('value')}
        </div>
      )}
      {save.error && <ErrorBox error={save.error} />}
      {saved && (
        <p className="ok" role="status">
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
