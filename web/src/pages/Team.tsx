import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { useSession, type WorkspaceRole } from '../session';
import { ConfirmButton, Empty, ErrorBox, Field, fieldError, Loading, SecretOnce, Select, useAction, useAsync, when } from '../ui';

const ROLES: Array<{ value: WorkspaceRole; label: string }> = [
  { value: 'viewer', label: 'Viewer: reads everything' },
  { value: 'operator', label: 'Operator: orders, labels, returns, batches, end of day' },
  { value: 'admin', label: 'Admin: everything but ownership' },
  { value: 'owner', label: 'Owner: everything' },
];

/** The workspace's members, their roles and pending invitations; changes need admin (ownership: owner). */
export function Team() {
  const session = useSession();
  const canManage = session.can('admin');
  const isOwner = session.role === 'owner';
  const members = useAsync(() => call(api.GET('/api/admin/members', { params: { query: { limit: 100 } } })), []);
  const invitations = useAsync(
    () => (canManage ? call(api.GET('/api/admin/invitations', { params: { query: { limit: 100 } } })) : Promise.resolve(null)),
    [canManage],
  );
  const [form, setForm] = useState<{ email: string; role: WorkspaceRole }>({ email: '', role: 'operator' });
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const invite = useAction();
  const change = useAction();
  const remove = useAction();
  const withdraw = useAction();
  // Only an owner may grant or touch ownership.
  const grantable = ROLES.filter((r) => r.value !== 'owner' || isOwner);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const res = await invite.run(() => call(api.POST('/api/admin/members', { body: { email: form.email.trim(), role: form.role } })));
    if (res) {
      setLink({ email: res.email, url: res.url });
      setForm({ ...form, email: '' });
      invitations.reload();
    }
  }

  return (
    <section>
      <h1>Team</h1>
      <p className="muted">
        Your role here: <strong data-testid="my-role">{session.role}</strong>.
      </p>
      {link && <SecretOnce label={`Invitation link for ${link.email}`} secret={link.url} onDone={() => setLink(null)} />}
      {canManage && (
        <form onSubmit={submit} noValidate className="form card" aria-label="Invite a member">
          <h2>Invite someone</h2>
          {invite.error && !invite.error.details.length && <ErrorBox error={invite.error} />}
          <div className="row">
            <Field
              label="Email"
              type="email"
              value={form.email}
              onChange={(e) => setForm({ ...form, email: e.target.value })}
              error={fieldError(invite.error?.details, 'email')}
            />
            <Select
              label="Role"
              value={form.role}
              onChange={(e) => setForm({ ...form, role: e.target.value as WorkspaceRole })}
              error={fieldError(invite.error?.details, 'role')}
            >
              {grantable.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </Select>
          </div>
          <button type="submit" className="btn btn-primary" disabled={invite.busy || !form.email.trim()}>
            {invite.busy ? 'Inviting…' : 'Invite'}
          </button>
        </form>
      )}
      {(change.error || remove.error || withdraw.error) && <ErrorBox error={(change.error ?? remove.error ?? withdraw.error)!} />}
      <h2>Members</h2>
      {members.error ? (
        <ErrorBox error={members.error} onRetry={members.reload} />
      ) : !members.data ? (
        <Loading label="Loading members…" />
      ) : (
        <div className="table-wrap">
          <table className="table" data-testid="members">
            <thead>
              <tr>
                <th>Name</th>
                <th>Email</th>
                <th>Role</th>
                <th className="hide-sm">Joined</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.data.data.map((m) => {
                const locked = !canManage || (m.role === 'owner' && !isOwner);
                return (
                  <tr key={m.id}>
                    <td>{m.name}</td>
                    <td>{m.email}</td>
                    <td>
                      {locked ? (
                        m.role
                      ) : (
                        <select
                          aria-label={`Role of ${m.email}`}
                          value={m.role}
                          disabled={change.busy}
                          onChange={async (e) => {
                            await change.run(() =>
                              call(api.PATCH('/api/admin/members/{id}', { params: { path: { id: m.id } }, body: { role: e.target.value as WorkspaceRole } })),
                            );
                            members.reload();
                          }}
                        >
                          {grantable.map((r) => (
                            <option key={r.value} value={r.value}>
                              {r.value}
                            </option>
                          ))}
                        </select>
                      )}
                    </td>
                    <td className="hide-sm">{when(m.created_at)}</td>
                    <td>
                      {!locked && (
                        <ConfirmButton
                          label="Remove"
                          confirmLabel="Remove now"
                          disabled={remove.busy}
                          onConfirm={async () => {
                            await remove.run(() => call(api.DELETE('/api/admin/members/{id}', { params: { path: { id: m.id } } })));
                            members.reload();
                          }}
                        />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {canManage && (
        <>
          <h2>Pending invitations</h2>
          {invitations.error ? (
            <ErrorBox error={invitations.error} onRetry={invitations.reload} />
          ) : !invitations.data ? (
            <Loading label="Loading invitations…" />
          ) : invitations.data.data.length === 0 ? (
            <Empty>No pending invitations.</Empty>
          ) : (
            <div className="table-wrap">
              <table className="table" data-testid="invitations">
                <thead>
                  <tr>
                    <th>Email</th>
                    <th>Role</th>
                    <th>Status</th>
                    <th className="hide-sm">Expires</th>
                    <th>
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {invitations.data.data.map((i) => (
                    <tr key={i.id}>
                      <td>{i.email}</td>
                      <td>{i.role}</td>
                      <td>{i.status}</td>
                      <td className="hide-sm">{when(i.expires_at)}</td>
                      <td>
                        {(i.role !== 'owner' || isOwner) && (
                          <ConfirmButton
                            label="Withdraw"
                            confirmLabel="Withdraw now"
                            disabled={withdraw.busy}
                            onConfirm={async () => {
                              await withdraw.run(() => call(api.DELETE('/api/admin/invitations/{id}', { params: { path: { id: i.id } } })));
                              invitations.reload();
                            }}
                          />
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
