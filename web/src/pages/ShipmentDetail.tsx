import { useEffect, useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import type { PageProps } from '../page-props';
import { Link } from '../router';
import { useSession } from '../session';
import { usePrintShortcut } from './print-shortcut';
import { AddressBlock } from './OrderDetail';
import { WriteBacksTable } from './integrations-common';
import { Tracking } from './Track';
import {
  documentName,
  downloadDocument,
  downloadLabel,
  fetchDocuments,
  fetchLabel,
  fetchPackingSlip,
  LABEL_FORMATS,
  previewDocument,
  printBlob,
} from './label-file';
import { asApiError, Badge, ConfirmButton, ErrorBox, Field, fieldError, Loading, money, useAction, useAsync, when } from '../ui';

export function ShipmentDetail({ params }: PageProps) {
  const shipment = useAsync(() => loadShipment(params.id), [params.id]);
  const action = useAction();
  const session = useSession();
  const [canOperate, canAdmin] = [session.can('operator'), session.can('admin')];
  const s = shipment.data;
  const printLabel = () => s && void action.run(async () => printBlob(await fetchLabel(s.id, 'pdf_4x6')));
  usePrintShortcut(s ? printLabel : null);
  // The buyer's timeline is the public tracking answer: the same one the buyer sees.
  const tracking = useAsync(
    () => (s ? call(api.GET('/api/public/track/{trackingNumber}', { params: { path: { trackingNumber: s.tracking_number } } })) : new Promise<never>(() => {})),
    [s?.tracking_number, s?.status],
  );

  if (shipment.error) return <ErrorBox error={shipment.error} onRetry={shipment.reload} />;
  if (!s) return <Loading label="Loading shipment…" />;

  async function act(kind: 'cancel' | 'force-delivery') {
    const path = { params: { path: { id: params.id } } };
    const updated = await action.run(() =>
      call(kind === 'cancel' ? api.POST('/api/admin/shipments/{id}/cancel', path) : api.POST('/api/admin/shipments/{id}/force-delivery', path)),
    );
    if (updated) shipment.setData(updated);
  }

  return (
    <section>
      <p>
        <Link to="/dashboard/shipments">← Shipments</Link> · <Link to={`/dashboard/orders/${s.order_id}`}>Order</Link>
      </p>
      <div className="page-head">
        <h1>
          {s.is_return ? 'Return' : 'Shipment'} <span className="mono">{s.tracking_number}</span> <Badge value={s.status} />
          {s.simulated && <Badge value="sample - do not mail" kind="sample" />}
        </h1>
        <div className="actions" role="group" aria-label="Shipment actions">
          {canOperate && s.status === 'label_purchased' && (
            <ConfirmButton label="Void label" confirmLabel="Void now" disabled={action.busy} onConfirm={() => act('cancel')} />
          )}
          {/* Overriding the carrier's tracking is an admin's call (src/route-roles.ts). */}
          {canAdmin && s.status !== 'voided' && s.status !== 'delivered' && s.status !== 'expired' && (
            <button type="button" className="btn" disabled={action.busy} onClick={() => act('force-delivery')}>
              Mark delivered
            </button>
          )}
          <a className="btn" href={s.tracking_url} target="_blank" rel="noreferrer">
            Buyer tracking page
          </a>
        </div>
      </div>
      {action.error && <ErrorBox error={action.error} />}
      <dl className="facts">
        <div>
          <dt>Service</dt>
          <dd>
            {s.carrier} · {s.service_name}
          </dd>
        </div>
        <div>
          <dt>Price</dt>
          <dd>{money(s.price)}</dd>
        </div>
        <div>
          <dt>Billing</dt>
          <dd data-testid="billing-status">
            <Badge value={s.billing_status} />
            {s.charge && <span className="muted"> · {s.charge.replaceAll('_', ' ')}</span>}
          </dd>
        </div>
        <div>
          <dt>Zone / billable</dt>
          <dd>
            {s.rate.zone} · {s.rate.billable_weight_oz} oz
          </dd>
        </div>
        <div>
          <dt>Estimated delivery</dt>
          <dd>{s.estimated_delivery_date ?? '—'}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>{when(s.created_at)}</dd>
        </div>
      </dl>
      {s.is_return && <ReturnFacts shipment={s} />}
      {s.refund && <RefundCard refund={s.refund} />}
      <div className="grid2">
        <div className="card">
          <h2>Label</h2>
          <LabelPreview shipmentId={s.id} voided={s.status === 'voided'} />
          <div className="actions" role="group" aria-label="Print">
            <button type="button" className="btn btn-primary" data-testid="print-label" aria-keyshortcuts="P" title="Print label (P)" onClick={printLabel}>
              Print label
            </button>
            {!s.is_return && (
              <button
                type="button"
                className="btn"
                data-testid="print-packing-slip"
                onClick={() => action.run(async () => printBlob(await fetchPackingSlip(s.order_id)))}
              >
                Print packing slip
              </button>
            )}
          </div>
          <div className="actions" role="group" aria-label="Download label">
            {LABEL_FORMATS.map((f) => (
              <button key={f} type="button" className="btn btn-small" onClick={() => action.run(() => downloadLabel(s.id, s.tracking_number, f))}>
                Download {f.replace('_', ' ')}
              </button>
            ))}
          </div>
          <Documents shipmentId={s.id} trackingNumber={s.tracking_number} run={action.run} />
        </div>
        <div>
          <div className="grid2">
            <div className="card">
              <h2>Ship to</h2>
              <AddressBlock address={s.ship_to as never} />
              <AddressCheck check={s.address_validation} original={s.ship_to_original} />
            </div>
            <div className="card">
              <h2>Ship from</h2>
              <AddressBlock address={s.ship_from as never} />
            </div>
          </div>
        </div>
      </div>
      <Packages shipment={s} />
      {!s.is_return && <StoreWriteBacks shipmentId={s.id} />}
      {!s.is_return && <Returns shipment={s} onCreated={shipment.reload} />}
      <h2>Tracking</h2>
      {tracking.error ? (
        <ErrorBox error={tracking.error} onRetry={tracking.reload} />
      ) : tracking.data ? (
        <Tracking data={tracking.data} />
      ) : (
        <Loading label="Loading tracking…" />
      )}
    </section>
  );
}

/**
 * The packages of the shipment, each with its own tracking number, parcel and journey; the
 * label file has one page per package, in this order (docs/api-conventions.md, "Multi-piece shipments").
 */
function Packages({ shipment }: { shipment: Shipment }) {
  const packages = shipment.packages;
  return (
    <div className="card" aria-label="Packages" data-testid="packages">
      <h2>
        Packages <span className="muted">({packages.length})</span>
      </h2>
      <div className="table-wrap">
        <table className="table" aria-label="Packages of this shipment">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Tracking number</th>
              <th scope="col">Weight</th>
              <th scope="col">Dimensions (in)</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {packages.map((p, i) => (
              <tr key={p.tracking_number}>
                <td>
                  {i + 1} of {packages.length}
                </td>
                <td className="mono">
                  {p.tracking_number}
                  {i === 0 && packages.length > 1 && <span className="muted"> (master)</span>}
                </td>
                <td>{p.parcel.weight_oz} oz</td>
                <td>
                  {p.parcel.length_in} × {p.parcel.width_in} × {p.parcel.height_in}
                </td>
                <td>
                  <Badge value={p.tracking_status} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/**
 * The tracking sent back to the store the order came from (docs/channels.md), with Retry when it
 * is dead or retrying. Nothing for an order that came from the API.
 */
function StoreWriteBacks({ shipmentId }: { shipmentId: string }) {
  const list = useAsync(() => call(api.GET('/api/admin/write-backs', { params: { query: { shipment_id: shipmentId, limit: 100 } } })), [shipmentId]);
  if (list.error) return <ErrorBox error={list.error} onRetry={list.reload} />;
  if (!list.data || list.data.data.length === 0) return null;
  return (
    <div className="card" aria-label="Store write-back">
      <h2>Tracking sent to the store</h2>
      <WriteBacksTable rows={list.data.data} onRetried={list.reload} label="Shipment write-backs" />
    </div>
  );
}

/**
 * The shipment's customs documents (CN 22/23, commercial invoice, and any the carrier issued),
 * each to open in the browser's PDF viewer or to download. Nothing for a domestic shipment.
 */
function Documents({ shipmentId, trackingNumber, run }: { shipmentId: string; trackingNumber: string; run: ReturnType<typeof useAction>['run'] }) {
  const docs = useAsync(() => fetchDocuments(shipmentId), [shipmentId]);
  if (docs.error) return <ErrorBox error={docs.error} onRetry={docs.reload} />;
  if (!docs.data || docs.data.length === 0) return null;
  return (
    <section aria-label="Customs documents" data-testid="documents">
      <h3>Customs documents</h3>
      <p className="muted">PDF labels print these pages after the label.</p>
      <ul className="plain">
        {docs.data.map((d) => (
          <li key={d.type}>
            <span>{documentName(d.type)}</span>
            {d.source === 'carrier' && <span className="muted"> (issued by the carrier)</span>}{' '}
            <span className="actions" role="group" aria-label={documentName(d.type)}>
              {d.format === 'pdf' && (
                <button type="button" className="btn btn-small" onClick={() => run(() => previewDocument(shipmentId, d.type))}>
                  Open
                </button>
              )}
              <button type="button" className="btn btn-small" onClick={() => run(() => downloadDocument(shipmentId, trackingNumber, d))}>
                Download {d.format.toUpperCase()}
              </button>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The label as a PNG (rendered on demand in that format): an <img> works on every browser and phone. */
function LabelPreview({ shipmentId, voided }: { shipmentId: string; voided: boolean }) {
  const [url, setUrl] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    let made: string | null = null;
    fetchLabel(shipmentId, 'png_4x6').then(
      (blob) => {
        made = URL.createObjectURL(blob);
        if (live) setUrl(made);
      },
      (e: unknown) => live && setError(asApiError(e).message),
    );
    return () => {
      live = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [shipmentId]);
  if (error) return <p className="muted">{error}</p>;
  if (!url) return <Loading label="Rendering label…" />;
  return <img src={url} alt={voided ? 'Label (voided)' : 'Shipping label'} className="label-preview" data-testid="label-preview" />;
}

const loadShipment = (id: string) => call(api.GET('/api/admin/shipments/{id}', { params: { path: { id } } }));
type Shipment = Awaited<ReturnType<typeof loadShipment>>;

/** What makes a return label a return. */
function ReturnFacts({ shipment: s }: { shipment: Shipment }) {
  return (
    <dl className="facts" data-testid="return-facts">
      <div>
        <dt>Return of</dt>
        <dd>{s.return_of ? <Link to={`/dashboard/shipments/${s.return_of}`}>the outbound shipment</Link> : 'the order (standalone)'}</dd>
      </div>
      <div>
        <dt>RMA</dt>
        <dd>{s.rma_number ?? '—'}</dd>
      </div>
      <div>
        <dt>Reason</dt>
        <dd>{s.reason ?? '—'}</dd>
      </div>
      <div>
        <dt>Expires</dt>
        <dd>{s.expires_at ? when(s.expires_at) : '—'}</dd>
      </div>
    </dl>
  );
}

/** The refund the void asked for. */
function RefundCard({ refund }: { refund: NonNullable<Shipment['refund']> }) {
  return (
    <div className="card" data-testid="refund">
      <h2>
        Refund <Badge value={refund.status} />
      </h2>
      <p>
        {money(refund.amount)} · requested {when(refund.requested_at)}
        {refund.decided_at && <> · decided {when(refund.decided_at)}</>}
      </p>
      {refund.reason && <p className="muted">{refund.reason}</p>}
    </div>
  );
}

/** The outbound's return labels, and a small form to make one. */
function Returns({ shipment: s, onCreated }: { shipment: Shipment; onCreated: () => void }) {
  const [form, setForm] = useState({ rma_number: '', reason: '', charge: '', expires_in_days: '' });
  const create = useAction();
  const canOperate = useSession().can('operator');
  const [made, setMade] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setMade(null);
    const body = {
      ...(form.rma_number.trim() ? { rma_number: form.rma_number.trim() } : {}),
      ...(form.reason.trim() ? { reason: form.reason.trim() } : {}),
      ...(form.charge ? { charge: form.charge as 'on_scan' | 'on_creation' } : {}),
      ...(form.expires_in_days.trim() ? { expires_in_days: Number(form.expires_in_days) } : {}),
    };
    const r = await create.run(() => call(api.POST('/api/admin/shipments/{id}/return', { params: { path: { id: s.id } }, body })));
    if (r) {
      setMade(r.tracking_number);
      setForm({ rma_number: '', reason: '', charge: '', expires_in_days: '' });
      onCreated();
    }
  }
  const err = (f: string) => fieldError(create.error?.details, f);
  return (
    <div className="grid2">
      <div className="card">
        <h2>Returns</h2>
        {s.returns.length === 0 ? (
          <p className="muted">No return labels yet.</p>
        ) : (
          <table className="table" data-testid="returns">
            <thead>
              <tr>
                <th>Tracking number</th>
                <th>Status</th>
                <th>Billing</th>
              </tr>
            </thead>
            <tbody>
              {s.returns.map((r) => (
                <tr key={r.id}>
                  <td className="mono">
                    <Link to={`/dashboard/shipments/${r.id}`}>{r.tracking_number}</Link>
                  </td>
                  <td>
                    <Badge value={r.status} />
                  </td>
                  <td>
                    <Badge value={r.billing_status} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {s.status !== 'voided' && canOperate && (
        <form className="card form" onSubmit={submit} noValidate aria-label="Create a return label">
          <h2>Create a return label</h2>
          <Field
            label="RMA number"
            value={form.rma_number}
            maxLength={100}
            onChange={(e) => setForm({ ...form, rma_number: e.target.value })}
            error={err('rma_number')}
          />
          <Field label="Reason" value={form.reason} maxLength={500} onChange={(e) => setForm({ ...form, reason: e.target.value })} error={err('reason')} />
          <div className="field">
            <label htmlFor="return-charge">Charge</label>
            <select id="return-charge" value={form.charge} onChange={(e) => setForm({ ...form, charge: e.target.value })}>
              <option value="">Carrier default</option>
              <option value="on_scan">On first scan</option>
              <option value="on_creation">On creation</option>
            </select>
            {err('charge') && <span className="field-error">{err('charge')}</span>}
          </div>
          <Field
            label="Expires in days"
            type="number"
            min={1}
            max={90}
            value={form.expires_in_days}
            placeholder="30"
            onChange={(e) => setForm({ ...form, expires_in_days: e.target.value })}
            error={err('expires_in_days')}
          />
          {create.error && !create.error.details.some((d) => ['rma_number', 'reason', 'charge', 'expires_in_days'].includes(d.field)) && (
            <ErrorBox error={create.error} />
          )}
          {made && <p role="status">Return label {made} created.</p>}
          <button type="submit" className="btn btn-primary" disabled={create.busy}>
            Create return label
          </button>
        </form>
      )}
    </div>
  );
}
type ShipmentAddressCheck = NonNullable<Awaited<ReturnType<typeof loadShipment>>['address_validation']>;

/** How the destination was checked before purchase, and the address as given when it was cleaned. */
function AddressCheck({ check, original }: { check: ShipmentAddressCheck | null; original: unknown }) {
  if (!check) return null;
  const by = check.source?.type === 'carrier' ? `${check.source.carrier} (carrier)` : check.source ? 'built-in validator' : null;
  return (
    <div data-testid="address-check">
      <p className="muted">
        Address check: {check.mode.replaceAll('_', ' ')}
        {check.status && (
          <>
            {' '}
            · <Badge value={check.status} />
          </>
        )}
        {by && <> · {by}</>}
      </p>
      {check.messages.length > 0 && (
        <ul className="muted">
          {check.messages.map((m) => (
            <li key={`${m.field}:${m.code}`}>{m.message}</li>
          ))}
        </ul>
      )}
      {original !== null && original !== undefined && (
        <details>
          <summary>As the order gave it</summary>
          <AddressBlock address={original as never} />
        </details>
      )}
    </div>
  );
}
