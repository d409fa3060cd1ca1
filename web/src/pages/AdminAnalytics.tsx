import { useState } from 'react';
import { api, call } from '../api/client';
import { ErrorBox, Loading, money, useAsync } from '../ui';

/** Plain SVG bars: a chart library would weigh more than this whole page. */
export function Bars({ label, points }: { label: string; points: { x: string; y: number }[] }) {
  const max = Math.max(1, ...points.map((p) => p.y));
  const w = 600;
  const h = 160;
  const bw = points.length ? w / points.length : w;
  return (
    <svg className="chart" viewBox={`0 0 ${w} ${h + 20}`} role="img" aria-label={label}>
      {points.map((p, i) => {
        const bh = (p.y / max) * h;
        return (
          <g key={p.x}>
            <rect x={i * bw + 1} y={h - bh} width={Math.max(1, bw - 2)} height={bh}>
              <title>
                {p.x}: {p.y}
              </title>
            </rect>
            {(points.length <= 12 || i % Math.ceil(points.length / 8) === 0) && (
              <text x={i * bw + 2} y={h + 14}>
                {p.x.slice(5)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

export function AdminAnalytics() {
  const [range, setRange] = useState({ from: '', to: '' });
  const [applied, setApplied] = useState(range);
  const a = useAsync(() => call(api.GET('/api/super-admin/analytics', { params: { query: { from: applied.from || undefined, to: applied.to || undefined } } })), [applied.from, applied.to]);
  return (
    <section>
      <h1>Analytics</h1>
      <form
        className="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied(range);
        }}
      >
        <label className="inline">
          From <input type="date" value={range.from} onChange={(e) => setRange({ ...range, from: e.target.value })} />
        </label>
        <label className="inline">
          To <input type="date" value={range.to} onChange={(e) => setRange({ ...range, to: e.target.value })} />
        </label>
        <button type="submit" className="btn">
          Show
        </button>
      </form>
      {a.error ? (
        <ErrorBox error={a.error} onRetry={a.reload} />
      ) : !a.data ? (
        <Loading label="Loading analytics…" />
      ) : (
        <>
          <dl className="facts" data-testid="analytics">
            <div>
              <dt>Accounts active / pending / suspended</dt>
              <dd>
                {a.data.accounts_by_status.active} / {a.data.accounts_by_status.pending} / {a.data.accounts_by_status.suspended}
              </dd>
            </div>
            <div>
              <dt>Orders created</dt>
              <dd>{a.data.orders.created}</dd>
            </div>
            <div>
              <dt>Labels bought / voided</dt>
              <dd>
                {a.data.labels.purchased} / {a.data.labels.voided}
              </dd>
            </div>
            <div>
              <dt>Label spend</dt>
              <dd>{money(a.data.labels.spend)}</dd>
            </div>
          </dl>
          <div className="grid2">
            <div className="card">
              <h2>Orders per day</h2>
              <Bars label="Orders per day" points={a.data.orders.per_period.map((p) => ({ x: p.period, y: p.created }))} />
            </div>
            <div className="card">
              <h2>Labels per day</h2>
              <Bars label="Labels per day" points={a.data.labels.per_period.map((p) => ({ x: p.period, y: p.purchased }))} />
            </div>
          </div>
          <div className="card">
            <h2>By carrier</h2>
            <ul className="plain">
              {a.data.labels.by_carrier.map((c) => (
                <li key={c.carrier}>
                  {c.carrier}: {c.purchased} bought, {c.voided} voided
                </li>
              ))}
            </ul>
          </div>
        </>
      )}
    </section>
  );
}
