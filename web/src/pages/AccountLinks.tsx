import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import type { PageProps } from '../page-props';
import { Link, navigate } from '../router';
import { useSession } from '../session';
import { ErrorBox, Field, fieldError, useAction } from '../ui';

/**
 * The pages the mailed links open (docs/architecture.md, "Accounts: invitations and password reset"): an invitation to join a
 * workspace, and a password reset; plus the form that asks for a reset. None needs a session.
 */
export function AcceptInvitation({ params }: PageProps) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const [joined, setJoined] = useState(false);
  const session = useSession();
  const errors = action.error?.code === 'validation_failed' ? action.error.details : [];

  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await action.run(() =>
      call(api.POST('/api/auth/invitations/{code}/accept', { params: { path: { code: params.code } }, body: { name, password } as never })),
    );
    if (ok) setJoined(true);
  }

  if (session.status === 'signed_in') return <JoinSignedIn code={params.code} />;
  if (joined) {
    return (
      <div>
        <h2>You have joined the workspace</h2>
        <p>
          <Link to="/dashboard/login">Sign in</Link> with your email and the password you chose.
        </p>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate aria-labelledby="accept-title">
      <h2 id="accept-title">Join the workspace</h2>
      <p className="muted">Choose your name and a password to create your account.</p>
      {action.error && errors.length === 0 && <ErrorBox error={action.error} />}
      <Field label="Your name" required value={name} onChange={(e) => setName(e.target.value)} maxLength={200} error={fieldError(errors, 'name')} autoFocus />
      <Field
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        maxLength={1024}
        error={fieldError(errors, 'password')}
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={action.busy || !name || !password}>
        Create account and join
      </button>
      <p className="muted center">
        Already have an account? <Link to="/dashboard/login">Sign in</Link>, then open this link again to join with it.
      </p>
    </form>
  );
}

/** A signed-in visitor joins with the account they are signed in with (the session, no password). */
function JoinSignedIn({ code }: { code: string }) {
  const session = useSession();
  const action = useAction();
  async function join() {
    const answer = await action.run(() => call(api.POST('/api/auth/invitations/{code}/accept', { params: { path: { code } }, body: {} as never })));
    if (!answer) return;
    await session.refresh(answer.workspace.id);
    navigate('/dashboard/orders');
  }
  return (
    <div aria-labelledby="join-title">
      <h2 id="join-title">Join the workspace</h2>
      <p>
        You are signed in as <strong>{session.me?.account.email}</strong>: join with this account.
      </p>
      {action.error && <ErrorBox error={action.error} />}
      <button type="button" className="btn btn-primary btn-block" disabled={action.busy} onClick={() => void join()}>
        {action.busy ? 'Joining…' : 'Join with this account'}
      </button>
      <p className="muted center">
        Not you?{' '}
        <button type="button" className="btn btn-ghost btn-small" onClick={() => void session.signOut()}>
          Sign out
        </button>{' '}
        and open the link again.
      </p>
    </div>
  );
}

export function ResetPassword({ params }: PageProps) {
  const [password, setPassword] = useState('');
  const action = useAction();
  const [done, setDone] = useState(false);
  const errors = action.error?.code === 'validation_failed' ? action.error.details : [];

  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await action.run(async () => {
      await call(api.POST('/api/auth/password-reset/{code}', { params: { path: { code: params.code } }, body: { password } }));
      return true;
    });
    if (ok) setDone(true);
  }

  if (done) {
    return (
      <div>
        <h2>Password changed</h2>
        <p>
          Every other session of your account has ended. <Link to="/dashboard/login">Sign in</Link> with the new password.
        </p>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate aria-labelledby="reset-title">
      <h2 id="reset-title">Choose a new password</h2>
      {action.error && errors.length === 0 && <ErrorBox error={action.error} />}
      <Field
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        maxLength={1024}
        error={fieldError(errors, 'password')}
        autoFocus
      />
      <button type="submit" className="btn btn-primary btn-block" disabled={action.busy || !password}>
        Change password
      </button>
    </form>
  );
}

export function ForgotPassword() {
  const [email, setEmail] = useState('');
  const action = useAction();
  const [sent, setSent] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await action.run(async () => {
      await call(api.POST('/api/auth/password-reset', { body: { email } }));
      return true;
    });
    if (ok) setSent(true);
  }

  return (
    <form onSubmit={submit} noValidate aria-labelledby="forgot-title">
      <h2 id="forgot-title">Reset your password</h2>
      {sent ? (
        <p role="status">If an account has this email, a link to choose a new password is on its way. It works once, for an hour.</p>
      ) : (
        <>
          {action.error && <ErrorBox error={action.error} />}
          <Field
            label="Email"
            type="email"
            autoComplete="username"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            maxLength={254}
            autoFocus
          />
          <button type="submit" className="btn btn-primary btn-block" disabled={action.busy || !email}>
            Send the link
          </button>
        </>
      )}
      <p className="muted center">
        <Link to="/dashboard/login">Back to sign in</Link>
      </p>
    </form>
  );
}
