import { useId } from 'react';
import type { CarrierType } from '../api/carriers';
import { ApiError, type FieldError, type Schemas } from '../api/client';
import { Badge, ErrorBox, Field, fieldError, Select, when } from '../ui';
import { fieldLabel, properties, typeOf, type CredentialDraft, type JsonSchema } from './credentials-draft';

export type CarrierAccount = Schemas['CarrierAccount'];
export type CarrierExchange = Schemas['CarrierExchange'];
export type Mode = CarrierAccount['mode'];
export const MODES: Mode[] = ['sandbox', 'production'];

export function carrierName(types: CarrierType[] | undefined, slug: string): string {
  return types?.find((t) => t.carrier === slug)?.name ?? slug;
}

/**
 * One input per property of the carrier's credentials schema, by its type: a select for an enum,
 * a checkbox for a boolean, a number input, a password input for a secret (`writeOnly`), text
 * otherwise. Titles label them, descriptions are the hints, and the service's validation
 * details (`credentials.<field>`) appear under their field.
 */
export function CredentialsFields({
  schema,
  draft,
  onChange,
  errors,
  replacing,
}: {
  schema: JsonSchema;
  draft: CredentialDraft;
  onChange: (d: CredentialDraft) => void;
  errors?: FieldError[];
  replacing?: boolean;
}) {
  const required = new Set(schema.required ?? []);
  const whole = fieldError(errors, 'credentials');
  const checkboxId = useId();
  return (
    <fieldset data-testid="credentials-fields">
      <legend>{schema.title ?? 'Credentials'}</legend>
      {schema.description && <p className="muted small">{schema.description}</p>}
      {replacing && <p className="muted small">The credentials are replaced whole: enter every field again, secrets included.</p>}
      {whole && (
        <p className="field-error" role="alert">
          {whole}
        </p>
      )}
      <div className="row">
        {properties(schema).map(([name, s]) => {
          const text = `${fieldLabel(name, s)}${required.has(name) ? '' : ' (optional)'}`;
          const error = fieldError(errors, `credentials.${name}`);
          const value = draft[name];
          const set = (v: string | boolean) => onChange({ ...draft, [name]: v });
          const type = typeOf(s);
          if (type === 'boolean')
            return (
              <div key={name} className={`field${error ? ' field-invalid' : ''}`}>
                <label className="check-label" htmlFor={`${checkboxId}-${name}`}>
                  <input id={`${checkboxId}-${name}`} type="checkbox" checked={value === true} onChange={(e) => set(e.target.checked)} /> {text}
                </label>
                {s.description && !error && <span className="hint">{s.description}</span>}
                {error && <span className="field-error">{error}</span>}
              </div>
            );
          if (s.enum)
            return (
              <Select key={name} label={text} value={String(value ?? '')} onChange={(e) => set(e.target.value)} error={error}>
                {!required.has(name) && <option value="">—</option>}
                {required.has(name) && value === '' && (
                  <option value="" disabled>
                    Choose…
                  </option>
                )}
                {s.enum.map((v) => (
                  <option key={String(v)} value={String(v)}>
                    {String(v)}
                  </option>
                ))}
              </Select>
            );
          const number = type === 'integer' || type === 'number';
          return (
            <Field
              key={name}
              label={text}
              type={s.writeOnly ? 'password' : number ? 'number' : s.format === 'uri' ? 'url' : s.format === 'email' ? 'email' : 'text'}
              // A secret typed here is for the service only: no browser password manager offers to keep it.
              autoComplete={s.writeOnly ? 'new-password' : 'off'}
              spellCheck={false}
              value={String(value ?? '')}
              maxLength={s.maxLength}
              min={s.minimum}
              max={s.maximum}
              step={type === 'integer' ? 1 : number ? 'any' : undefined}
              onChange={(e) => set(e.target.value)}
              error={error}
              hint={s.writeOnly ? `${s.description ? `${s.description} ` : ''}Secret: stored sealed, never shown again.` : s.description}
            />
          );
        })}
      </div>
    </fieldset>
  );
}

/** The service's error, minus the details already shown next to their fields (nothing when all are). */
export function UnplacedErrors({ error, placed }: { error?: ApiError; placed: string[] }) {
  if (!error) return null;
  const rest = error.details.filter((d) => !placed.includes(d.field));
  if (error.details.length > 0 && rest.length === 0) return null;
  return <ErrorBox error={new ApiError(error.status, error.code, error.message, rest, error.requestId)} />;
}

/** The masked credentials as the service answers them: secrets are "••••" and at most their last 4 characters. */
export function MaskedCredentials({ credentials }: { credentials: Record<string, unknown> }) {
  const entries = Object.entries(credentials);
  if (entries.length === 0) return <span className="muted">none</span>;
  return (
    <dl className="creds" data-testid="masked-credentials">
      {entries.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd className="mono">{typeof v === 'string' ? v : JSON.stringify(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function HealthBadge({ health }: { health: CarrierAccount['health'] }) {
  return <Badge value={health.status} kind={`health-${health.status}`} />;
}

/** The last connection test: when, how long, and what the carrier said when it was not ok. */
export function HealthSummary({ health, driver, compact }: { health: CarrierAccount['health']; driver: CarrierAccount['driver']; compact?: boolean }) {
  return (
    <div className="health" data-testid="health">
      <HealthBadge health={health} />
      <span className="muted small">
        {health.checked_at ? (
          <>
            {compact ? '' : 'checked '}
            {when(health.checked_at)}
            {health.latency_ms != null && ` · ${health.latency_ms} ms`}
          </>
        ) : driver === 'simulated' ? (
          'simulated: no carrier to reach'
        ) : (
          'never tested'
        )}
      </span>
      {health.message && <div className="small bad break">{health.message}</div>}
    </div>
  );
}

export function AccountBadges({ account }: { account: CarrierAccount }) {
  return (
    <>
      {account.is_default && <Badge value="default" />}
      <Badge value={account.enabled ? 'enabled' : 'disabled'} />
    </>
  );
}
