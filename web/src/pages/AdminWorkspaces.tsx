import { useState, type FormEvent } from 'react';
import { api, call, type Workspace } from '../api/client';
import { Badge, Empty, ErrorBox, Loading, Pager, useAction, useAsync, useCursorPages, when } from '../ui';

const PLANS = ['starter', 'professional', 'enterprise'] as const;
const PLAN_BURST: Record<string, string> = { starter: '60/min', professional: '300/min', enterprise: 'custom' };

export function AdminWorkspaces() {
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const pages = useCursorPages(search);
  const list = useAsync(
    () => call(api.GET('/api/super-admin/workspaces', { params: { query: { q: search || undefined, cursor: pages.cursor, limit: 25 } } })),
    [search, pages.cursor],
  );

  return (
    <section>
      <h1>Workspaces &amp; plans</h1>
      <form
        className="filters"
        role="search"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          setSearch(q.trim());
        }}
      >
        <label className="inline grow">
          <span className="sr-only">Search workspaces</span>
          <input type="search" placeholder="Name or id" value={q} maxLength={200} onChange={(e) => setQ(e.target.value)} />
        </label>
        <button type="submit" className="btn">
          Search
        </button>
      </form>
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading workspaces…" />
      ) : list.data.data.length === 0 ? (
        <Empty>No workspaces match.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Workspace</th>
                  <th className="hide-sm">Created</th>
                  <th>Plan and burst</th>
                  <th>Members</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((w) => (
                  <WorkspaceRow key={w.id} workspace={w} />
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={pages.page} hasMore={list.data.has_more} onPrev={pages.prev} onNext={() => pages.next(list.data?.next_cursor ?? null)} />
        </>
      )}
    </section>
  );
}

// The super-admin list carries its own shape (effective burst), not the tenant Workspace.
type AdminWorkspace = Pick<Workspace, 'id' | 'name' | 'plan' | 'burst_per_minute' | 'created_at'> & { member_count?: number };

function WorkspaceRow({ workspace }: { workspace: AdminWorkspace }) {
  const [w, setW] = useState(workspace);
  const [plan, setPlan] = useState<Workspace['plan']>(w.plan);
  const [burst, setBurst] = useState(w.burst_per_minute ? String(w.burst_per_minute) : '');
  const save = useAction();
  const [saved, setSaved] = useState(false);
  const burstInvalid = plan === 'enterprise' && burst !== '' && !(/^\d+$/.test(burst) && Number(burst) >= 1 && Number(burst) <= 10_000_000);
  const dirty = plan !== w.plan || (plan === 'enterprise' && burst !== (w.burst_per_minute ? String(w.burst_per_minute) : ''));

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(false);
    const res = await save.run(() =>
      call(
        api.PATCH('/api/super-admin/workspaces/{id}', {
          params: { path: { id: w.id } },
          body: { plan, ...(plan === 'enterprise' ? { burst_per_minute: burst ? Number(burst) : null } : {}) },
        }),
      ),
    );
    if (res) {
      setW(res);
      setSaved(true);
    }
  }
  return (
    <tr>
      <td>
        <strong>{w.name}</strong>
        <div className="muted small mono">{w.id}</div>
      </td>
      <td className="hide-sm">{when(w.created_at)}</td>
      <td>
        <form className="inline-form" onSubmit={submit} aria-label={`Plan of ${w.name}`}>
          <select value={plan} onChange={(e) => setPlan(e.target.value as Workspace['plan'])} aria-label="Plan">
            {PLANS.map((p) => (
              <option key={p} value={p}>
                {p} ({PLAN_BURST[p]})
              </option>
            ))}
          </select>
          {plan === 'enterprise' && (
            <input
              inputMode="numeric"
              aria-label="Burst per minute"
              aria-invalid={burstInvalid || undefined}
              placeholder="burst/min"
              value={burst}
              maxLength={8}
              onChange={(e) => setBurst(e.target.value)}
              className="narrow-input"
            />
          )}
          <button type="submit" className="btn btn-small" disabled={!dirty || burstInvalid || save.busy}>
            Save
          </button>
          {saved && !dirty && (
            <span className="ok small" role="status">
              Saved
            </span>
          )}
          {burstInvalid && <span className="field-error">1 – 10,000,000</span>}
        </form>
        {save.error && <ErrorBox error={save.error} />}
      </td>
      <td>
        <WorkspaceMembers workspaceId={w.id} count={workspace.member_count} />
      </td>
    </tr>
  );
}

/** Who is in a workspace and with which role: read when opened. */
function WorkspaceMembers({ workspaceId, count }: { workspaceId: string; count?: number }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)} data-testid="workspace-members">
      <summary>{count === undefined ? 'Members' : `${count} member${count === 1 ? '' : 's'}`}</summary>
      {open && <MemberList workspaceId={workspaceId} />}
    </details>
  );
}

function MemberList({ workspaceId }: { workspaceId: string }) {
  const list = useAsync(
    () => call(api.GET('/api/super-admin/workspaces/{id}/members', { params: { path: { id: workspaceId }, query: { limit: 100 } } })),
    [workspaceId],
  );
  if (list.error) return <ErrorBox error={list.error} onRetry={list.reload} />;
  if (!list.data) return <Loading label="Loading members…" />;
  return (
    <ul className="plain small">
      {list.data.data.map((m) => (
        <li key={m.id}>
          {m.email} <Badge value={m.role} kind="tag" />
        </li>
      ))}
    </ul>
  );
}
