import { useState } from 'react';
import { api, call } from '../api/client';
import { Empty, ErrorBox, Loading, Pager, useAsync, useCursorPages, when } from '../ui';

const FILTERS = ['action', 'actor', 'target_type', 'target_id', 'from', 'to'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
const PLACEHOLDER: Filters = {
  action: 'Action (account.*)',
  actor: 'Actor id or email',
  target_type: 'Target type',
  target_id: 'Target id',
  from: 'From (YYYY-MM-DD)',
  to: 'To (YYYY-MM-DD)',
};

export function AdminAudit() {
  const empty: Filters = { action: '', actor: '', target_type: '', target_id: '', from: '', to: '' };
  const [filters, setFilters] = useState<Filters>(empty);
  const [applied, setApplied] = useState<Filters>(empty);
  const pages = useCursorPages(JSON.stringify(applied));
  const query = Object.fromEntries(
    Object.entries(applied)
      .filter(([, v]) => v.trim())
      .map(([k, v]) => [k, v.trim()]),
  );
  const list = useAsync(
    () => call(api.GET('/api/super-admin/audit-log', { params: { query: { ...query, cursor: pages.cursor, limit: 25 } } })),
    [pages.cursor, JSON.stringify(applied)],
  );
  return (
    <section>
      <h1>Audit log</h1>
      <form
        className="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(filters);
        }}
      >
        {FILTERS.map((f) => (
          <label key={f} className="inline">
            <span className="sr-only">{PLACEHOLDER[f]}</span>
            <input value={filters[f]} maxLength={200} placeholder={PLACEHOLDER[f]} onChange={(e) => setFilters({ ...filters, [f]: e.target.value })} />
          </label>
        ))}
        <button type="submit" className="btn">
          Filter
        </button>
      </form>
      {list.error ? (
        <ErrorBox error={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading label="Loading audit log…" />
      ) : list.data.data.length === 0 ? (
        <Empty>No entries match.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table" data-testid="audit-log">
              <thead>
                <tr>
                  <th>When</th>
                  <th>Action</th>
                  <th>Actor</th>
                  <th>Target</th>
                  <th className="hide-sm">Changes</th>
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((a) => (
                  <tr key={a.id}>
                    <td>{when(a.at)}</td>
                    <td className="mono">{a.action}</td>
                    <td>{a.actor.email ?? a.actor.id ?? a.actor.type}</td>
                    <td className="mono">
                      {a.target_type} {a.target_id}
                    </td>
                    <td className="hide-sm mono small">{a.changes == null ? '' : JSON.stringify(a.changes).slice(0, 160)}</td>
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
