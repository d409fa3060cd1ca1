import { useState, type FormEvent } from 'react';
import { api, call, type Account } from '../api/client';
import { Badge, Empty, ErrorBox, Loading, Pager, useAction, useAsync, useCursorPages, when } from '../ui';

type Move = 'approve' | 'suspend' | 'reactivate';
const movesFor: Record<Account['status'], Move[]> = { pending: ['approve'], active: ['suspend'], suspended: ['reactivate'] };

function move(userId: string, m: Move): Promise<Account> {
  const params = { params: { path: { userId } } };
  if (m === 'approve') return call(api.POST('/api/super-admin/accounts/{userId}/approve', params));
  if (m === 'suspend') return call(api.POST('/api/super-admin/accounts/{userId}/suspend', { ...params, body: {} }));
  return call(api.POST('/api/super-admin/accounts/{userId}/reactivate', params));
}

export function AdminAccounts() {
  const [status, setStatus] = useState<'' | Account['status']>('');
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const key = `${status}|${search}`;
  const pages = useCursorPages(key);
  const list = useAsync(
    () =>
      call(
        api.GET('/api/super-admin/accounts', { params: { query: { status: status || undefined, q: search || undefined, cursor: pages.cursor, limit: 25 } } }),
      ),
    [key, pages.cursor],
  );
  const action = useAction();

  async function act(a: Account, m: Move) {
    const updated = await action.run(() => move(a.id, m));
    if (updated && list.data) list.setData({ ...list.data, data: list.data.data.map((x) => (x.id === updated.id ? updated : x)) });
  }

  return (
    <section>
      <h1>Accounts</h1>
      <form
        className="filters"
        role="search"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          setSearch(q.trim());
        }}
      >
        <label className="inline">
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value as typeof status)}>
            <option value="">Any</option>
            <option value="pending">pending</option>
            <option value="active">active</option>
            <option value="suspended">suspended</option>
          </select>
        </label>
        <label className="inline grow">
          <span className="sr-only">Search by email</span>
          <input type="search" placeholder="Email" value={q} maxLength={254} onChange={(e) => setQ(e.target.value)} />
        </label>
        <button type="submit" className="btn">
          Search
        </button>
      </form>
      {action.error && <ErrorBox error={action.error} />}
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading accounts…" />
      ) : list.data.data.length === 0 ? (
        <Empty>No accounts match.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="accounts">
              <thead>
                <tr>
                  <th>Email</th>
                  <th className="hide-sm">Name</th>
                  <th>Status</th>
                  <th className="hide-sm">Role</th>
                  <th className="hide-sm">Created</th>
                  <th>
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((a) => (
                  <tr key={a.id}>
                    <td>{a.email}</td>
                    <td className="hide-sm">{a.name}</td>
                    <td>
                      <Badge value={a.status} />
                    </td>
                    <td className="hide-sm">{a.role.replace('_', ' ')}</td>
                    <td className="hide-sm">{when(a.created_at)}</td>
                    <td>
                      {a.role !== 'super_admin' &&
                        movesFor[a.status].map((m) => (
                          <button
                            key={m}
                            type="button"
                            className={`btn btn-small ${m === 'suspend' ? 'btn-danger' : 'btn-primary'}`}
                            disabled={action.busy}
                            onClick={() => act(a, m)}
                            aria-label={`${m} ${a.email}`}
                          >
                            {m[0].toUpperCase() + m.slice(1)}
                          </button>
                        ))}
                    </td>
                  </tr>
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
