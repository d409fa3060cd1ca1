import { useCallback, useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';
import { ApiError, type FieldError } from './api/client';
import { Link } from './router';

/** A request's life: loading, error or data, with reload. Stale answers (deps changed) are dropped. */
export function useAsync<T>(
  fn: () => Promise<T>,
  deps: unknown[],
): { data?: T; error?: ApiError; loading: boolean; reload: () => void; setData: (d: T) => void } {
  const [state, setState] = useState<{ data?: T; error?: ApiError; loading: boolean }>({ loading: true });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setState((s) => ({ data: s.data, loading: true }));
    fn().then(
      (data) => live && setState({ data, loading: false }),
      (error: unknown) => live && setState({ error: asApiError(error), loading: false }),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller names the inputs
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  const setData = useCallback((data: T) => setState({ data, loading: false }), []);
  return { ...state, reload, setData };
}

/** Run an action (a button): busy flag and its error, cleared on the next run. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>();
  const run = useCallback(async <T,>(fn: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await fn();
    } catch (e) {
      setError(asApiError(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run, setError };
}

export function asApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  return new ApiError(0, 'client_error', e instanceof Error ? e.message : 'Something went wrong.');
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  );
}

export function ErrorBox({ error, onRetry }: { error: ApiError; onRetry?: () => void }) {
  return (
    <div className="alert alert-error" role="alert">
      <strong>{error.message}</strong>
      {error.details.length > 0 && (
        <ul>
          {error.details.map((d, i) => (
            <li key={i}>
              <code>{d.field}</code> {d.message}
            </li>
          ))}
        </ul>
      )}
      <div className="muted small">
        {error.code}
        {error.requestId ? ` · request ${error.requestId}` : ''}
      </div>
      {onRetry && (
        <button type="button" className="btn btn-small" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

export function Badge({ value, kind }: { value: string; kind?: string }) {
  return <span className={`badge badge-${kind ?? value}`}>{value.replaceAll('_', ' ')}</span>;
}

export function money(m: { amount: number; currency: string } | null | undefined): string {
  if (!m) return '—';
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: m.currency }).format(m.amount / 100);
  } catch {
    return `${(m.amount / 100).toFixed(2)} ${m.currency}`;
  }
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function day(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso.length === 10 ? `${iso}T12:00:00Z` : iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString(undefined, { weekday: 'short', month: 'short', day: 'numeric' });
}

/** The server's detail for a field (`ship_to.city`, `line_items[0].quantity`), or the local one. */
export function fieldError(errors: FieldError[] | undefined, field: string): string | undefined {
  return errors?.find((e) => e.field === field)?.message;
}

const useFieldId = useId;

export function Field({ label, error, hint, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; hint?: string }) {
  const id = useFieldId();
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-err` : undefined} {...input} />
      {hint && !error && <span className="hint">{hint}</span>}
      {error && (
        <span className="field-error" id={`${id}-err`}>
          {error}
        </span>
      )}
    </div>
  );
}

export function Select({ label, error, children, ...select }: SelectHTMLAttributes<HTMLSelectElement> & { label: string; error?: string }) {
  const id = useFieldId();
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      <select id={id} {...select}>
        {children}
      </select>
      {error && <span className="field-error">{error}</span>}
    </div>
  );
}

/** A secret shown this once (API key, ingest key): copy it now, it is not shown again. */
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="alert alert-secret" role="alert" data-testid="secret-once">
      <strong>{label}</strong>
      <p>Copy it now: it is shown only this once and cannot be retrieved later.</p>
      <div className="secret-row">
        <code className="secret" tabIndex={0}>
          {secret}
        </code>
        <button
          type="button"
          className="btn btn-small"
          onClick={() =>
            navigator.clipboard?.writeText(secret).then(
              () => setCopied(true),
              () => setCopied(false),
            )
          }
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <button type="button" className="btn btn-small btn-ghost" onClick={onDone}>
        I have stored it — hide
      </button>
    </div>
  );
}

/** Two-step destructive button: the first press asks, the second acts. */
export function ConfirmButton({
  label,
  confirmLabel,
  onConfirm,
  disabled,
}: {
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" className="btn btn-small btn-danger" disabled={disabled} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  return (
    <span className="confirm">
      <button
        type="button"
        className="btn btn-small btn-danger"
        disabled={disabled}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
        autoFocus
      >
        {confirmLabel}
      </button>
      <button type="button" className="btn btn-small btn-ghost" onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  );
}

/** Previous/next over a cursor-paginated list: the cursors seen so far make "previous" work. */
export function useCursorPages(resetKey: string) {
  const [stack, setStack] = useState<(string | undefined)[]>([undefined]);
  useEffect(() => setStack([undefined]), [resetKey]);
  const cursor = stack[stack.length - 1];
  return {
    cursor,
    page: stack.length,
    next: (c: string | null) => c && setStack((s) => [...s, c]),
    prev: () => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)),
  };
}

export function Pager({ page, hasMore, onPrev, onNext }: { page: number; hasMore: boolean; onPrev: () => void; onNext: () => void }) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="btn btn-small" disabled={page <= 1} onClick={onPrev}>
        ← Previous
      </button>
      <span className="muted">Page {page}</span>
      <button type="button" className="btn btn-small" disabled={!hasMore} onClick={onNext}>
        Next →
      </button>
    </nav>
  );
}

/**
 * Calls `tick` every `ms` while `active`, one at a time: the next wait starts when the previous
 * tick has settled, so a slow answer never stacks requests. Stops when inactive or unmounted.
 */
export function usePolling(tick: () => Promise<unknown> | void, ms: number, active: boolean): void {
  const latest = useRef(tick);
  latest.current = tick;
  useEffect(() => {
    if (!active) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout>;
    const loop = () => {
      timer = setTimeout(async () => {
        try {
          await latest.current();
        } catch {
          // The page shows the error of its own request; polling just tries again.
        }
        if (live) loop();
      }, ms);
    };
    loop();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [ms, active]);
}

/** 75 → "1 min 15 s"; 3700 → "1 h 2 min". */
export function duration(seconds: number | null | undefined): string {
  if (seconds == null) return '—';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `${Math.floor(s / 3600)} h${Math.floor((s % 3600) / 60) ? ` ${Math.floor((s % 3600) / 60)} min` : ''}`;
}

/** Sub-navigation between the pages of one area (webhook endpoints, deliveries, dead letters). */
export function Tabs({ label, tabs, current }: { label: string; tabs: { to: string; label: string }[]; current: string }) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map((t) => (
        <Link key={t.to} to={t.to} aria-current={t.to === current ? 'page' : undefined}>
          {t.label}
        </Link>
      ))}
    </nav>
  );
}
