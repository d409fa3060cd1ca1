import { useState, type FormEvent } from 'react';
import { Link, navigate } from '../router';
import { useSession } from '../session';
import { ErrorBox, Field, useAction } from '../ui';

const friendly: Record<string, string> = {
  account_pending: 'Your account is waiting for approval by an administrator. You can sign in once it is approved.',
  account_suspended: 'This account is suspended. Contact your administrator.',
  invalid_credentials: 'Email or password is incorrect.',
  rate_limited: 'Too many attempts. Wait a minute and try again.',
};

export function SignIn() {
  const session = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await action.run(async () => {
      await session.signIn(email, password);
      return true;
    });
    if (ok) navigate('/dashboard/orders', { replace: true });
  }

  const err = action.error;
  return (
    <form onSubmit={submit} noValidate aria-labelledby="signin-title">
      <h2 id="signin-title">Sign in</h2>
      {err &&
        (friendly[err.code] ? (
          <div className="alert alert-error" role="alert">
            {friendly[err.code]}
          </div>
        ) : (
          <ErrorBox error={err} />
        ))}
      <Field label="Email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} maxLength={254} autoFocus />
      <Field
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        maxLength={1024}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={action.busy || !email || !password}>
        {action.busy ? 'Signing in…' : 'Sign in'}
      </button>
      <p className="muted center">
        <Link to="/dashboard/forgot-password">Forgot your password?</Link>
      </p>
      <p className="muted center">
        No account? <Link to="/dashboard/register">Create one</Link>
      </p>
    </form>
  );
}
