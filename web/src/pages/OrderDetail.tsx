import { api, call, type Order } from '../api/client';
import type { PageProps } from '../page-props';
import { Link } from '../router';
import { useSession } from '../session';
import { Badge, Empty, ErrorBox, Loading, money, useAction, useAsync, when } from '../ui';
import { REVIEW_REASONS } from './integrations-common';
import { actionLabel, allowedActions, runOrderAction, type OrderAction } from './orders-actions';
import { customsOf } from './customs';
import { StoreSync } from './OrderStoreSync';
import { fetchLabel, fetchPackingSlip, printBlob } from './label-file';
import { useState } from 'react';
import { BuyLabelCard } from './BuyLabel';
import { usePrintShortcut } from './print-shortcut';
import { LocationName } from './location-select';

type Address = Order['ship_to'];

export function AddressBlock({ address }: { address: Address | null }) {
  if (!address) return <p className="muted">Workspace origin address</p>;
  return (
    <address>
      {[
        address.name,
        address.company,
        address.street1,
        address.street2,
        [address.city, address.state, address.postal_code].filter(Boolean).join(' '),
        address.country,
        address.phone,
        address.email,
      ]
        .filter(Boolean)
        .map((line, i) => (
          <div key={i}>{line}</div>
        ))}
    </address>
  );
}

export function OrderDetail({ params }: PageProps) {
  const order = useAsync(() => call(api.GET('/api/admin/orders/{orderId}', { params: { path: { orderId: params.id } } })), [params.id]);
  const action = useAction();
  // A viewer reads the order; its moves are an operator's.
  const canOperate = useSession().can('operator');
  const [bought, setBought] = useState<{ id: string; tracking_number: string | null; service: string } | null>(null);

  const printBought = () => bought && void action.run(async () => printBlob(await fetchLabel(bought.id, 'pdf_4x6')));
  usePrintShortcut(bought ? printBought : null);

  async function act(a: Exclude<OrderAction, 'generate'>) {
    const updated = await action.run(() => runOrderAction(params.id, a));
    if (updated) order.setData(updated);
  }

  if (order.error)
    return (
      <ErrorBox
        error={
          order.error.status === 404 ? Object.assign(order.error, { message: 'This order does not exist in this workspace and environment.' }) : order.error
        }
        onRetry={order.reload}
      />
    );
  if (!order.data) return <Loading label="Loading order…" />;
  const o = order.data;
  const editable = o.status === 'awaiting_fulfillment' || o.status === 'processing';
  // An imported order's source is the id of the integration that brought it in (docs/channels.md).
  const fromStore = o.source.startsWith('int_');
  return (
    <section>
      <p>
        <Link to="/dashboard/orders">← Orders</Link>
      </p>
      <div className="page-head">
        <h1>
          Order <span className="mono">{o.external_number ?? o.external_id ?? o.id}</span> <Badge value={o.status} /> {o.archived && <Badge value="archived" />}{' '}
          {o.needs_review && <Badge value="needs_review" kind="needs-review" />}
        </h1>
        <div className="actions" role="group" aria-label="Order actions">
          {/* A label is bought from the buy-label card below, after its rate is seen and confirmed. */}
          {canOperate &&
            allowedActions(o)
              .filter((a) => a !== 'generate')
              .map((a) => (
                <button
                  key={a}
                  type="button"
                  className={`btn ${a === 'process' ? 'btn-primary' : a === 'cancel' ? 'btn-danger' : ''}`}
                  disabled={action.busy}
                  onClick={() => act(a)}
                >
                  {actionLabel[a]}
                </button>
              ))}
          {editable && canOperate && (
            <Link to={`/dashboard/orders/${o.id}/edit`} className="btn">
              Edit
            </Link>
          )}
          <button
            type="button"
            className="btn"
            data-testid="print-packing-slip"
            disabled={action.busy}
            onClick={() => action.run(async () => printBlob(await fetchPackingSlip(o.id)))}
          >
            Print packing slip
          </button>
        </div>
      </div>
      {action.error && <ErrorBox error={action.error} />}
      {o.needs_review && <NeedsReviewBanner review={o.needs_review} />}
      <dl className="facts">
        <div>
          <dt>ID</dt>
          <dd className="mono">{o.id}</dd>
        </div>
        <div>
          <dt>Source</dt>
          <dd>
            {fromStore ? (
              <Link to={`/dashboard/integrations/${o.source}`} className="mono">
                {o.source}
              </Link>
            ) : (
              o.source
            )}
          </dd>
        </div>
        {fromStore && (
          <div>
            <dt>Store order</dt>
            <dd className="mono" data-testid="external-number">
              {o.external_number ?? '—'}
              {o.external_id && o.external_id !== o.external_number && <span className="muted small"> (id {o.external_id})</span>}
            </dd>
          </div>
        )}
        <div>
          <dt>Created</dt>
          <dd>{when(o.created_at)}</dd>
        </div>
        <div>
          <dt>Requested service</dt>
          <dd>{o.requested_service ?? 'Cheapest'}</dd>
        </div>
      </dl>
      <div className="grid3">
        <div className="card">
          <h2>Customer</h2>
          <p>
            {o.customer.name ?? '—'}
            <br />
            {o.customer.email}
            <br />
            {o.customer.phone}
          </p>
        </div>
        <div className="card">
          <h2>Ship to</h2>
          <AddressBlock address={o.ship_to} />
        </div>
        <div className="card">
          <h2>Ship from</h2>
          {o.location_id && !o.ship_from ? (
            <p>
              Location <LocationName id={o.location_id} />
            </p>
          ) : (
            <AddressBlock address={o.ship_from} />
          )}
        </div>
      </div>
      <div className="card">
        <h2>Line items</h2>
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                <th>SKU</th>
                <th>Name</th>
                <th className="num">Qty</th>
                <th className="num">Unit price</th>
                <th className="num">Weight (oz)</th>
              </tr>
            </thead>
            <tbody>
              {o.line_items.map((li, i) => (
                <tr key={i}>
                  <td className="mono">{li.sku ?? '—'}</td>
                  <td>{li.name ?? '—'}</td>
                  <td className="num">{li.quantity}</td>
                  <td className="num">{money(li.unit_price)}</td>
                  <td className="num">{li.weight_oz ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {o.parcels ? (
          <p className="muted" data-testid="order-parcels">
            {o.parcels.length} parcels (one package each):{' '}
            {o.parcels.map((p, i) => `${i + 1}) ${p.weight_oz} oz, ${p.length_in}×${p.width_in}×${p.height_in} in`).join('; ')}
          </p>
        ) : (
          <p className="muted">
            Parcel: {o.parcel.weight_oz} oz, {o.parcel.length_in}×{o.parcel.width_in}×{o.parcel.height_in} in{o.parcel_derived ? ' (derived)' : ''}
          </p>
        )}
      </div>
      <CustomsCard order={o} />
      {bought && (
        <div className="alert alert-success" role="status" data-testid="label-bought">
          Label bought:{' '}
          <Link to={`/dashboard/shipments/${bought.id}`} className="mono">
            {bought.tracking_number ?? bought.id}
          </Link>{' '}
          ({bought.service}).{' '}
          <button
            type="button"
            className="btn btn-small btn-primary"
            data-testid="print-bought-label"
            aria-keyshortcuts="P"
            title="Print label (P)"
            onClick={printBought}
          >
            Print label
          </button>
        </div>
      )}
      {canOperate && allowedActions(o).includes('generate') && (
        <BuyLabelCard
          key={o.updated_at}
          order={o}
          onBought={(s) => {
            setBought({ id: s.id, tracking_number: s.tracking_number, service: s.service_name ?? s.service_code });
            order.reload();
          }}
        />
      )}
      <div className="grid2">
        <div className="card">
          <h2>Shipments</h2>
          {o.shipments.length === 0 ? (
            <Empty>No label bought yet.</Empty>
          ) : (
            <ul className="plain">
              {o.shipments.map((s) => (
                <li key={s.id}>
                  <Link to={`/dashboard/shipments/${s.id}`} className="mono">
                    {s.tracking_number ?? s.id}
                  </Link>{' '}
                  {s.service_code} <Badge value={s.status} />{' '}
                  {s.tracking_number && (
                    <a href={`/track/${encodeURIComponent(s.tracking_number)}`} target="_blank" rel="noreferrer">
                      Tracking page
                    </a>
                  )}
                </li>
              ))}
            </ul>
          )}
        </div>
        {/* Only where the order has PINs: most orders never do. */}
        {o.office_pins.length > 0 && (
          <div className="card">
            <h2>Office PINs</h2>
            <ul className="plain">
              {o.office_pins.map((p) => (
                <li key={p.id}>
                  {p.product} <Badge value={p.status} /> expires {when(p.expires_at)}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
      {o.notes && (
        <div className="card">
          <h2>Notes</h2>
          <p className="prewrap">{o.notes}</p>
        </div>
      )}
      {fromStore && <StoreSync orderId={o.id} />}
    </section>
  );
}

/** An edit or a cancellation on the store after the label was bought: never applied silently (docs/channels.md). */
function NeedsReviewBanner({ review }: { review: NonNullable<Order['needs_review']> }) {
  return (
    <div className="alert alert-warn" role="alert" data-testid="needs-review">
      <strong>{REVIEW_REASONS[review.reason] ?? review.reason.replaceAll('_', ' ')}</strong> <span className="muted small">{when(review.at)}</span>
      {review.changes.length > 0 && (
        <p>
          Changed on the store:{' '}
          {review.changes.map((c, i) => (
            <span key={c}>
              {i > 0 && ', '}
              <code>{c}</code>
            </span>
          ))}
        </p>
      )}
      <p className="small">
        {review.reason === 'cancelled_on_channel'
          ? 'The label is still live: void it if the parcel should not ship.'
          : 'The order and its label keep what they were bought with: check the store, then void and buy again if the parcel must change.'}
      </p>
    </div>
  );
}

/** The order's customs declaration, or what happens without one. */
function CustomsCard({ order }: { order: Order }) {
  const c = customsOf(order);
  return (
    <div className="card" aria-label="Customs">
      <h2>Customs</h2>
      {!c ? (
        <p className="muted">No declaration given: one is derived from the line items when a label abroad (or to a military address) is bought.</p>
      ) : (
        <>
          <dl className="facts">
            <div>
              <dt>Contents</dt>
              <dd>
                {c.contents_type.replace(/_/g, ' ')}
                {c.contents_explanation ? ` (${c.contents_explanation})` : ''}
              </dd>
            </div>
            <div>
              <dt>Incoterm</dt>
              <dd>{c.incoterm}</dd>
            </div>
            <div>
              <dt>If undeliverable</dt>
              <dd>{c.non_delivery}</dd>
            </div>
            <div>
              <dt>Signer</dt>
              <dd>{c.signer ?? '—'}</dd>
            </div>
          </dl>
          <div className="table-wrap">
            <table className="table">
              <thead>
                <tr>
                  <th>Description</th>
                  <th className="num">Qty</th>
                  <th className="num">Unit value</th>
                  <th className="num">Unit weight (oz)</th>
                  <th>HS code</th>
                  <th>Origin</th>
                </tr>
              </thead>
              <tbody>
                {c.items.map((it, i) => (
                  <tr key={i}>
                    <td>{it.description}</td>
                    <td className="num">{it.quantity}</td>
                    <td className="num">{money(it.unit_value)}</td>
                    <td className="num">{it.weight_oz}</td>
                    <td className="mono">{it.hs_tariff_number ?? '—'}</td>
                    <td>{it.origin_country}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}
