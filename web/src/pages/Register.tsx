import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { Link } from '../router';
import { ErrorBox, Field, fieldError, useAction } from '../ui';

export function Register() {
  const [form, setForm] = useState({ name: '', email: '', password: '', workspace_name: '' });
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [k]: e.target.value }));
  const local = form.password && form.password.length < 10 ? 'must be at least 10 characters' : undefined;

  async function submit(e: FormEvent) {
    e.preventDefault();
    const res = await action.run(() => call(api.POST('/api/auth/register', { body: form })));
    if (res) setDone(res.account.status);
  }

  if (done)
    return (
      <div className="alert alert-success" role="status">
        <h2>Thanks — your account is created</h2>
        {done === 'pending' ? (
          <p>It is waiting for approval by an administrator. You will be able to sign in once it is approved.</p>
        ) : (
          <p>It is active: you can sign in now.</p>
        )}
        <Link to="/dashboard/login">Back to sign in</Link>
      </div>
    );

  const d = action.error?.details;
  return (
    <form onSubmit={submit} noValidate aria-labelledby="reg-title">
      <h2 id="reg-title">Create an account</h2>
      {action.error && action.error.code !== 'validation_failed' && (
        <ErrorBox
          error={action.error.code === 'conflict' ? Object.assign(action.error, { message: 'An account with this email already exists.' }) : action.error}
        />
      )}
      <Field label="Your name" required value={form.name} onChange={set('name')} maxLength={200} error={fieldError(d, 'name')} autoFocus />
      <Field
        label="Email"
        type="email"
        autoComplete="username"
        required
        value={form.email}
        onChange={set('email')}
        maxLength={254}
        error={fieldError(d, 'email')}
      />
      <Field
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        value={form.password}
        onChange={set('password')}
        maxLength={1024}
        hint="At least 10 characters"
        error={local ?? fieldError(d, 'password')}
      />
      <Field
        label="Workspace name"
        required
        value={form.workspace_name}
        onChange={set('workspace_name')}
        maxLength={200}
        error={fieldError(d, 'workspace_name')}
        hint="Your company or store"
      />
      <button
        type="submit"
        className="btn btn-primary btn-block"
        disabled={action.busy || !!local || !form.email || !form.password || !form.name || !form.workspace_name}
      >
        {action.busy ? 'Creating…' : 'Create account'}
      </button>
      <p className="muted center">
        Have an account? <Link to="/dashboard/login">Sign in</Link>
      </p>
    </form>
  );
}
