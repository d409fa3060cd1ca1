import { useState, type ReactNode } from 'react';
import { api, call, type Operations } from '../api/client';
import { day, Empty, ErrorBox, Loading, money, useAsync } from '../ui';

type Report = Operations['superAdminAnalytics']['responses'][200]['content']['application/json'];

/**
 * recharts (with the parts of d3 and redux it brings) is fetched in a chunk of its own when a
 * chart first shows: the other pages, and the public tracking page of the same bundle, never load
 * it. The parts are named so that the bundler can leave the rest of the library out.
 */
async function loadCharts() {
  const { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } = await import('recharts');
  return { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis };
}

/** The dashboard's accent and status colours as literals: recharts writes them into SVG attributes, where CSS variables don't apply. */
const COLOURS = ['#2256d8', '#16794a', '#a15c00', '#8f1c12', '#4b2a99', '#0e7490'];

const DAY_MS = 86_400_000;
const count = (n: number) => n.toLocaleString();
const percent = (rate: number | null) => (rate === null ? '—' : rate.toLocaleString(undefined, { style: 'percent', maximumFractionDigits: 1 }));
/** A bucket's first day (YYYY-MM-DD, UTC) as an axis tick: "Nov 23". */
const shortDay = (period: string) => new Date(`${period}T00:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });
const utcDate = (ms: number) => new Date(ms).toLocaleDateString(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
/** The API's `to` is exclusive; the date picked as To means "through that day". */
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

type Series<Row> = { name: string; value: (row: Row) => number; colour: string };

/**
 * Bars per period, stacked when there are several series. A range with nothing in it shows
 * `empty` instead of a flat chart.
 */
function TimeChart<Row extends { period: string }>({
  title,
  rows,
  series,
  empty,
  tooltipLabel = day,
}: {
  title: string;
  rows: Row[];
  series: Series<Row>[];
  empty: string;
  tooltipLabel?: (period: string) => string;
}) {
  const lib = useAsync(loadCharts, []);
  if (!rows.some((row) => series.some((s) => s.value(row) > 0))) return <Empty>{empty}</Empty>;
  if (lib.error) return <ErrorBox error={lib.error} onRetry={lib.reload} />;
  if (!lib.data) return <Loading label="Loading chart…" />;
  const { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } = lib.data;
  const tick = { fontSize: 12 };
  return (
    <BarChart responsive className="time-chart" data={rows} title={title} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
      <CartesianGrid vertical={false} stroke="#eceff3" />
      <XAxis dataKey="period" tickFormatter={shortDay} tick={tick} minTickGap={12} />
      <YAxis allowDecimals={false} width="auto" tick={tick} />
      <Tooltip labelFormatter={(period) => tooltipLabel(String(period))} />
      {series.length > 1 && <Legend />}
      {series.map((s) => (
        // No animation: the bars are redrawn on every range change, and numbers should not move.
        <Bar key={s.name} name={s.name} dataKey={s.value} fill={s.colour} stackId="total" maxBarSize={40} isAnimationActive={false} />
      ))}
    </BarChart>
  );
}

/** Counts by key (a status, a plan), keys made readable. */
function Tally({ counts }: { counts: Record<string, ReactNode> }) {
  return (
    <dl className="tally">
      {Object.entries(counts).map(([key, value]) => (
        <div key={key}>
          <dt>{key.replaceAll('_', ' ')}</dt>
          <dd>{typeof value === 'number' ? count(value) : value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Card({ title, note, testId, children }: { title: string; note?: string; testId?: string; children: ReactNode }) {
  return (
    <section className="card" data-testid={testId}>
      <h2>{title}</h2>
      {note && <p className="muted small">{note}</p>}
      {children}
    </section>
  );
}

function LabelsByCarrier({ labels }: { labels: Report['labels'] }) {
  if (labels.by_carrier.length === 0) return null;
  return (
    <>
      <h3>By carrier</h3>
      <div className="table-wrap">
        <table className="table">
          <caption className="sr-only">Labels by carrier</caption>
          <thead>
            <tr>
              <th scope="col">Carrier</th>
              <th scope="col" className="num">
                Bought
              </th>
              <th scope="col" className="num">
                Voided
              </th>
              <th scope="col" className="num">
                Spend
              </th>
            </tr>
          </thead>
          <tbody>
            {labels.by_carrier.map((c) => (
              <tr key={c.carrier}>
                <td>{c.carrier}</td>
                <td className="num">{count(c.purchased)}</td>
                <td className="num">{count(c.voided)}</td>
                <td className="num">{money(c.spend)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              <td className="num">{count(labels.purchased)}</td>
              <td className="num">{count(labels.voided)}</td>
              <td className="num">{money(labels.spend)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </>
  );
}

function RequestsByWorkspace({ rows }: { rows: Report['api_requests']['by_workspace'] }) {
  if (rows.length === 0) return null;
  return (
    <>
      <h3>By workspace (the 100 busiest)</h3>
      <div className="table-wrap" data-testid="analytics-requests-by-workspace">
        <table className="table">
          <caption className="sr-only">API requests by workspace</caption>
          <thead>
            <tr>
              <th scope="col">Workspace</th>
              <th scope="col" className="num">
                Requests
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((w) => (
              <tr key={w.workspace_id}>
                <td>
                  {/* A deleted workspace keeps its counts but loses its name. */}
                  <div className={w.name === null ? 'muted' : undefined}>{w.name ?? 'Deleted workspace'}</div>
                  <div className="mono small muted">{w.workspace_id}</div>
                </td>
                <td className="num">{count(w.requests)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

function AnalyticsReport({ report: r }: { report: Report }) {
  // Every carrier of the range gets a colour, in the order of the by-carrier table.
  const carriers = [...new Set([...r.labels.by_carrier.map((c) => c.carrier), ...r.labels.per_period.flatMap((p) => Object.keys(p.by_carrier))])];
  const byCarrier: Series<Report['labels']['per_period'][number]>[] = carriers.map((c, i) => ({
    name: c,
    value: (p) => p.by_carrier[c] ?? 0,
    colour: COLOURS[i % COLOURS.length],
  }));
  const spend = new Map(r.labels.per_period.map((p) => [p.period, p.spend]));
  const per = r.interval;
  return (
    <div className="analytics" data-testid="analytics">
      <p className="muted small">
        {utcDate(Date.parse(r.from))} – {utcDate(Date.parse(r.to) - 1)} (UTC), per {per}
      </p>
      <dl className="facts">
        <div>
          <dt>Orders created</dt>
          <dd>{count(r.orders.created)}</dd>
        </div>
        <div>
          <dt>Labels bought</dt>
          <dd>{count(r.labels.purchased)}</dd>
        </div>
        <div>
          <dt>Label spend</dt>
          <dd>{money(r.labels.spend)}</dd>
        </div>
        <div>
          <dt>API requests</dt>
          <dd>{count(r.api_requests.total)}</dd>
        </div>
        <div>
          <dt>Webhook success rate</dt>
          <dd>{percent(r.webhooks.success_rate)}</dd>
        </div>
      </dl>
      <div className="grid2">
        <Card title={`Orders per ${per}`} testId="analytics-orders">
          <TimeChart
            title={`Orders created per ${per}`}
            rows={r.orders.per_period}
            series={[{ name: 'Orders', value: (p) => p.created, colour: COLOURS[0] }]}
            empty="No orders created in this range."
          />
          <h3>By current status</h3>
          <Tally counts={r.orders.by_status} />
        </Card>
        <Card title={`Labels per ${per}, by carrier`} testId="analytics-labels">
          <TimeChart
            title={`Labels bought per ${per}, by carrier`}
            rows={r.labels.per_period}
            series={byCarrier}
            empty="No labels bought in this range."
            tooltipLabel={(period) => `${day(period)} · ${money(spend.get(period))}`}
          />
          <LabelsByCarrier labels={r.labels} />
        </Card>
        <Card title={`API requests per ${per}`} testId="analytics-requests">
          <TimeChart
            title={`API requests per ${per}`}
            rows={r.api_requests.per_period}
            series={[{ name: 'Requests', value: (p) => p.requests, colour: COLOURS[5] }]}
            empty="No API requests in this range."
          />
          <RequestsByWorkspace rows={r.api_requests.by_workspace} />
        </Card>
      </div>
      <div className="grid3">
        <Card title="Webhook deliveries" note="Success rate: delivered of those finished (delivered or dead)." testId="analytics-webhooks">
          <Tally counts={{ ...r.webhooks, success_rate: percent(r.webhooks.success_rate) }} />
        </Card>
        <Card title="Batches" testId="analytics-batches">
          <Tally counts={{ created: r.batches.created, ...r.batches.by_status }} />
        </Card>
        <Card title="Accounts and workspaces" note="All of them now, whatever the range." testId="analytics-accounts">
          <h3>Accounts by status</h3>
          <Tally counts={r.accounts_by_status} />
          <h3>Workspaces by plan</h3>
          <Tally counts={r.workspaces_by_plan} />
        </Card>
      </div>
    </div>
  );
}

export function AdminAnalytics() {
  const [range, setRange] = useState({ from: '', to: '' });
  const [applied, setApplied] = useState(range);
  const a = useAsync(
    () =>
      call(
        api.GET('/api/super-admin/analytics', { params: { query: { from: applied.from || undefined, to: applied.to ? dayAfter(applied.to) : undefined } } }),
      ),
    [applied.from, applied.to],
  );
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
          From <input type="date" value={range.from} max={range.to || undefined} onChange={(e) => setRange({ ...range, from: e.target.value })} />
        </label>
        <label className="inline">
          To <input type="date" value={range.to} min={range.from || undefined} onChange={(e) => setRange({ ...range, to: e.target.value })} />
        </label>
        <button type="submit" className="btn">
          Show
        </button>
      </form>
      {a.error ? <ErrorBox error={a.error} onRetry={a.reload} /> : !a.data ? <Loading label="Loading analytics…" /> : <AnalyticsReport report={a.data} />}
    </section>
  );
}
