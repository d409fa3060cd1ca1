import { useState, type FormEvent } from 'react';
import { api, call, type ApiError, type Operations } from '../api/client';
import { ErrorBox, Field, useAction, when } from '../ui';

/** The lookup's answer: 2024 (product key and slip) or 365 (links). */
type Lookup = Operations['officeRedeemLookup']['responses'][200]['content']['application/json'];

function problem(e: ApiError): { title: string; text: string } | null {
  if (e.status === 404) return { title: 'PIN not found', text: 'We do not know this PIN. Check the 16 digits on your slip and try again.' };
  if (e.status === 410) {
    const revoked = /revoked/i.test(e.message) || JSON.stringify(e.details).includes('revoked');
    return revoked
      ? { title: 'This PIN was revoked', text: 'It can no longer be used. Contact the seller you bought from.' }
      : { title: 'This PIN has expired', text: 'PINs are valid for 30 days. Contact the seller you bought from to renew it.' };
  }
  if (e.status === 429) return { title: 'Too many attempts', text: 'Wait a minute before trying again.' };
  if (e.status === 400) return { title: 'That is not a PIN', text: 'A PIN is 16 digits.' };
  return null;
}

export function Redeem() {
  const [pin, setPin] = useState('');
  const [result, setResult] = useState<Lookup | null>(null);
  const action = useAction();
  const digits = pin.replace(/[\s-]/g, '');
  const valid = /^\d{16}$/.test(digits);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setResult(null);
    const res = await action.run(() => call(api.POST('/api/public/office-redeem/lookup', { body: { pin: digits } })));
    if (res) setResult(res);
  }
  const p = action.error && problem(action.error);
  return (
    <div className="narrow-page">
      <h1 className="brand">Redeem your Office PIN</h1>
      <form onSubmit={submit} noValidate className="card">
        <Field
          label="PIN (16 digits)"
          inputMode="numeric"
          autoComplete="off"
          value={pin}
          maxLength={24}
          onChange={(e) => setPin(e.target.value)}
          error={pin && !valid ? 'A PIN is 16 digits' : undefined}
          autoFocus
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={!valid || action.busy}>
          {action.busy ? 'Checking…' : 'Show my product'}
        </button>
      </form>
      {action.error &&
        (p ? (
          <div className="alert alert-warn" role="alert" data-testid="redeem-problem">
            <strong>{p.title}</strong>
            <p>{p.text}</p>
          </div>
        ) : (
          <ErrorBox error={action.error} />
        ))}
      {result && <Product r={result} />}
    </div>
  );
}

function Product({ r }: { r: Lookup }) {
  if (r.product === 'office_2024')
    return (
      <div className="card" data-testid="redeem-2024">
        <h2>{r.slip?.title ?? 'Microsoft Office 2024'}</h2>
        <p>Your product key:</p>
        <p className="product-key mono">{r.product_key}</p>
        {r.slip?.instructions && <p className="prewrap">{r.slip.instructions}</p>}
        {r.slip?.support_url && (
          <p>
            <a href={r.slip.support_url} rel="noreferrer noopener" target="_blank">
              Help with installation
            </a>
          </p>
        )}
        <p className="muted small">Valid until {when(r.expires_at)}</p>
      </div>
    );
  const links = [
    ['Watch the setup video', r.video_url],
    ['Open the Microsoft 365 portal', r.portal_url],
    ['Download the installer', r.installer_url],
    ['Redeem your subscription', r.redeem_url],
  ].filter(([, url]) => url) as [string, string][];
  return (
    <div className="card" data-testid="redeem-365">
      <h2>{r.title ?? 'Microsoft 365'}</h2>
      <ol>
        {links.map(([label, url]) => (
          <li key={label}>
            <a href={url} rel="noreferrer noopener" target="_blank">
              {label}
            </a>
          </li>
        ))}
      </ol>
      <p className="muted small">Valid until {when(r.expires_at)}</p>
    </div>
  );
}
