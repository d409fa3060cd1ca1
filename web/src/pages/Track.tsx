import { useState, type FormEvent } from 'react';
import { api, call, type Operations } from '../api/client';
import type { PageProps } from '../page-props';
import { Link, navigate } from '../router';
import { Badge, ErrorBox, Loading, day, useAsync, when } from '../ui';

/** Public tracking shows no name, street, email or phone. */
export type PublicTracking = Operations['publicTrack']['responses'][200]['content']['application/json'];

const MILESTONE: Record<string, string> = {
  label_created: 'Label created',
  picked_up: 'Picked up',
  in_transit: 'In transit',
  out_for_delivery: 'Out for delivery',
  delivered: 'Delivered',
};

export function Track({ params }: PageProps) {
  const n = params.trackingNumber;
  const t = useAsync(() => call(api.GET('/api/public/track/{trackingNumber}', { params: { path: { trackingNumber: n } } })), [n]);
  return (
    <div className="narrow-page">
      <h1 className="brand">Track your parcel</h1>
      {/* Keyed by the number: a link to another number (a package's master) shows it in the box too. */}
      <TrackSearch key={n} initial={n} />
      {t.loading && !t.data ? (
        <Loading label="Looking up your parcel…" />
      ) : t.error ? (
        t.error.status === 404 ? (
          <div className="alert alert-warn" role="alert" data-testid="track-not-found">
            <strong>We could not find a parcel with tracking number {n}.</strong>
            <p>Check the number on your shipping confirmation. A new label can take a few hours to show up.</p>
          </div>
        ) : (
          <ErrorBox error={t.error} onRetry={t.reload} />
        )
      ) : t.data ? (
        <Tracking data={t.data} />
      ) : null}
    </div>
  );
}

function TrackSearch({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  return (
    <form
      className="filters"
      role="search"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        const v = value.trim().replace(/\s+/g, '');
        if (v) navigate(`/track/${encodeURIComponent(v)}`);
      }}
    >
      <label className="inline grow">
        <span className="sr-only">Tracking number</span>
        <input value={value} maxLength={64} onChange={(e) => setValue(e.target.value)} placeholder="Tracking number" />
      </label>
      <button type="submit" className="btn btn-primary">
        Track
      </button>
    </form>
  );
}

export function Tracking({ data }: { data: PublicTracking }) {
  return (
    <>
      <div className="card">
        <p className="muted small">
          {data.carrier.toUpperCase()} · <span className="mono">{data.tracking_number}</span>
        </p>
        {/* A later package's number reads as that package; the master's as the whole shipment. */}
        {data.package && (
          <p className="small" data-testid="track-package">
            {data.package.sequence_number > 1 && data.master_tracking_number ? (
              <>
                Package {data.package.sequence_number} of {data.package.count} of shipment{' '}
                <Link to={`/track/${encodeURIComponent(data.master_tracking_number)}`} className="mono">
                  {data.master_tracking_number}
                </Link>
              </>
            ) : (
              `A shipment of ${data.package.count} packages: delivered when every package is`
            )}
          </p>
        )}
        <h2>
          <Badge value={data.status} />
        </h2>
        {data.status !== 'delivered' && data.estimated_delivery_date && (
          <p>
            Estimated delivery: <strong>{day(data.estimated_delivery_date)}</strong>
          </p>
        )}
        <ol className="timeline">
          {data.timeline.map((m) => (
            <li key={m.milestone} className={m.reached_at ? 'reached' : 'pending'}>
              <strong>{MILESTONE[m.milestone] ?? m.milestone}</strong>
              <span className="muted small">{m.reached_at ? when(m.reached_at) : m.estimated_at ? `expected ${when(m.estimated_at)}` : ''}</span>
            </li>
          ))}
        </ol>
      </div>
      <div className="card">
        <h2>History</h2>
        {data.events.length === 0 ? (
          <p className="muted">No scans yet.</p>
        ) : (
          <ul className="plain events">
            {data.events.map((e) => (
              <li key={e.id}>
                <div>{e.description}</div>
                <div className="muted small">
                  {when(e.occurred_at)}
                  {e.location && ` · ${[e.location.city, e.location.state, e.location.country].filter(Boolean).join(', ')}`}
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </>
  );
}
