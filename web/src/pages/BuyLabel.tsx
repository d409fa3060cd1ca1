import { useEffect, useState, type KeyboardEvent } from 'react';
import { api, call, type Order, type Schemas } from '../api/client';
import { carrierTypes } from '../api/carriers';
import { Badge, ErrorBox, Field, Loading, day, fieldError, money, useAction, useAsync } from '../ui';
import { bodyOf, draftOf, type OptionsDraft } from './options-draft';
import { LabelOptionsFields } from './LabelOptions';
import { LocationSelect } from './location-select';

const quoteRates = (body: unknown) => call(api.POST('/api/admin/rates/query', { body: body as never }));
export type RateAnswer = Awaited<ReturnType<typeof quoteRates>>;
type Rate = RateAnswer['data'][number];
type Selection = Schemas['ShippingRuleSelection'];
type Shipment = Schemas['Shipment'];

/** The parcel as the form edits it: a package (preset or carrier packaging) or dimensions, and a weight. */
interface ParcelDraft {
  package_id: string;
  weight_oz: string;
  length_in: string;
  width_in: string;
  height_in: string;
}

function parcelDraftOf(parcel: Order['parcel']): ParcelDraft {
  const p = parcel as Order['parcel'] & { package_id?: string };
  return {
    package_id: p.package_id ?? '',
    weight_oz: String(p.weight_oz),
    length_in: String(p.length_in),
    width_in: String(p.width_in),
    height_in: String(p.height_in),
  };
}

/** What the rate query and the order update send: the package and weight, or the dimensions and weight. */
function parcelBody(d: ParcelDraft): Record<string, string | number> {
  const n = (s: string) => (s.trim() === '' ? s : Number(s));
  if (d.package_id) return { package_id: d.package_id, weight_oz: n(d.weight_oz) };
  return { weight_oz: n(d.weight_oz), length_in: n(d.length_in), width_in: n(d.width_in), height_in: n(d.height_in) };
}

const ADDRESS_FIELDS = ['name', 'company', 'street1', 'street2', 'city', 'state', 'postal_code', 'country', 'phone', 'email'] as const;
const addressBody = (a: Order['ship_to']) => Object.fromEntries(ADDRESS_FIELDS.filter((k) => a[k] != null && a[k] !== '').map((k) => [k, a[k]]));

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** "USPS Ground Advantage", not "USPS USPS Ground Advantage": most service names carry their carrier's. */
const serviceLabel = (carrier: string, serviceName: string) =>
  serviceName.toLowerCase().startsWith(carrier.toLowerCase()) ? serviceName : `${carrier} ${serviceName}`;

/** The order's value as a purchase's shipping rules see it: its priced lines, in one currency, else none. */
function orderValue(order: Order): { amount: number; currency: string } | undefined {
  const priced = order.line_items.filter((l) => l.unit_price);
  const currencies = new Set(priced.map((l) => l.unit_price!.currency));
  if (priced.length === 0 || currencies.size !== 1) return undefined;
  return { amount: priced.reduce((sum, l) => sum + l.unit_price!.amount * l.quantity, 0), currency: [...currencies][0] };
}

/**
 * Buying a label from the order page (README, "Dashboard"): the package,
 * weight and options are edited first, the rates shown with their price breakdown and delivery
 * date (the shipping rules' choice marked), and a label is bought only after the operator
 * confirms the rate chosen. Nothing is bought or saved before that confirmation; the order's
 * parcel is updated to what was bought.
 */
export function BuyLabelCard({ order, onBought }: { order: Order; onBought: (shipment: Shipment) => void }) {
  const saved = { parcel: parcelDraftOf(order.parcel), options: draftOf(order.options) };
  // A multi-piece order is rated and bought with every piece as saved (edit the order to change them).
  const pieces = order.parcels && order.parcels.length > 1 ? order.parcels : null;
  const [parcel, setParcel] = useState<ParcelDraft>(saved.parcel);
  const [options, setOptions] = useState<OptionsDraft>(saved.options);
  // '' = where the order ships from (its own address or location, else the default location).
  const [location, setLocation] = useState('');
  const [answer, setAnswer] = useState<{ rates: RateAnswer; selection: Selection | null; asked: string } | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const quote = useAction();
  const buy = useAction();
  const packages = useAsync(
    () => Promise.all([call(api.GET('/api/admin/packages', { params: { query: { limit: 100 } } })), call(api.GET('/api/admin/carrier-packages'))]),
    [],
  );
  const names = useAsync(() => carrierTypes().catch(() => []), []);
  const carrierName = (slug: string) => names.data?.find((c) => c.carrier === slug)?.name ?? slug;

  // What the rates on screen were asked for: an edit after that asks for them again.
  const asked = JSON.stringify({ parcel, options, location });
  useEffect(() => {
    if (answer && answer.asked !== asked) {
      setChosen(null);
      setConfirming(false);
    }
  }, [asked, answer]);
  const stale = answer !== null && answer.asked !== asked;

  async function getRates() {
    const result = await quote.run(async () => {
      // Where the label ships from, as a purchase decides it (docs/api-conventions.md, "Locations"):
      // the location chosen here, else the order's own address, else its location, else the default.
      const locationId = location || (order.ship_from ? null : order.location_id);
      const from = locationId
        ? (await call(api.GET('/api/admin/locations/{id}', { params: { path: { id: locationId } } }))).address
        : (order.ship_from ?? (await call(api.GET('/api/admin/workspace'))).origin_address);
      const body = {
        ship_to: addressBody(order.ship_to),
        ...(locationId ? { location_id: locationId } : from ? { ship_from: addressBody(from as Order['ship_to']) } : {}),
        ...(pieces ? { parcels: pieces } : { parcel: parcelBody(parcel) }),
        options: bodyOf(options),
      };
      const rates = await quoteRates(body);
      // The rules judge what is on the form (the order as it would be bought): its value and SKUs,
      // and the parcel's dimensions (a package's own). A rule that excludes everything marks nothing.
      const dims = {
        weight_oz: Number(parcel.weight_oz),
        length_in: Number(parcel.length_in),
        width_in: Number(parcel.width_in),
        height_in: Number(parcel.height_in),
      };
      const shape = pieces
        ? { parcels: pieces.map((p) => ({ weight_oz: p.weight_oz, length_in: p.length_in, width_in: p.width_in, height_in: p.height_in })) }
        : { parcel: dims };
      const value = orderValue(order);
      const selection = from
        ? await call(
            api.POST('/api/admin/shipping-rules/evaluate', {
              body: {
                ...body,
                location_id: undefined,
                ship_from: addressBody(from as Order['ship_to']),
                ...shape,
                ...(value ? { order_value: value } : {}),
                skus: order.line_items.flatMap((l) => (l.sku ? [l.sku] : [])),
              } as never,
            }),
          ).catch(() => null)
        : null;
      return { rates, selection, asked };
    });
    if (!result) return;
    setAnswer(result);
    const pick =
      result.rates.data.find(
        (r) => result.selection && r.service_code === result.selection.chosen && r.carrier_account_id === result.selection.carrier_account_id,
      ) ?? result.rates.data[0];
    setChosen(pick?.id ?? null);
    setConfirming(false);
  }

  const rate = answer?.rates.data.find((r) => r.id === chosen) ?? null;

  async function confirmPurchase() {
    if (!rate) return;
    const shipment = await buy.run(async () => {
      if (!pieces && !same(parcel, saved.parcel)) {
        await call(api.PATCH('/api/admin/orders/{orderId}', { params: { path: { orderId: order.id } }, body: { parcel: parcelBody(parcel) } as never }));
      }
      return call(
        api.POST('/api/admin/shipments', {
          body: {
            order_id: order.id,
            service_code: rate.service_code,
            ...(rate.carrier_account_id ? { carrier_account_id: rate.carrier_account_id } : {}),
            ...(location ? { location_id: location } : {}),
            options: bodyOf(options),
          } as never,
        }),
      );
    });
    if (shipment) onBought(shipment as Shipment);
    setConfirming(false);
  }

  // Enter on the rates (a packing station works from the keyboard): ask to confirm the chosen one.
  function onRatesKey(e: KeyboardEvent) {
    if (e.key === 'Enter' && rate) {
      e.preventDefault();
      setConfirming(true);
    }
  }

  const setP = (k: keyof ParcelDraft) => (e: { target: { value: string } }) => setParcel((p) => ({ ...p, [k]: e.target.value }));
  const choosePackage = (id: string) => {
    const preset = packages.data?.[0].data.find((p) => p.id === id) ?? packages.data?.[1].data.find((p) => p.id === id);
    setParcel((p) =>
      preset
        ? { ...p, package_id: id, length_in: String(preset.length_in), width_in: String(preset.width_in), height_in: String(preset.height_in) }
        : { ...p, package_id: '' },
    );
  };
  const err = (field: string) => fieldError(quote.error?.details ?? buy.error?.details, field);

  return (
    <div className="card" aria-label="Buy a label" data-testid="buy-label">
      <h2>Buy a label</h2>
      <LocationSelect label="Ship from" emptyLabel="The order's ship-from" value={location} onChange={setLocation} />
      {pieces ? (
        <p data-testid="buy-pieces">
          {pieces.length} pieces, rated and bought as one shipment:{' '}
          {pieces.map((p) => `${p.weight_oz} oz ${p.length_in}×${p.width_in}×${p.height_in} in`).join(' · ')}
        </p>
      ) : (
        <div className="row">
          <div className="field">
            <label htmlFor="buy-package">Package</label>
            <select id="buy-package" value={parcel.package_id} onChange={(e) => choosePackage(e.target.value)}>
              <option value="">Custom dimensions</option>
              {packages.data?.[0].data.length ? (
                <optgroup label="Your packages">
                  {packages.data[0].data.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name} ({p.length_in}×{p.width_in}×{p.height_in} in)
                    </option>
                  ))}
                </optgroup>
              ) : null}
              {packages.data?.[1].data.length ? (
                <optgroup label="Carrier packaging">
                  {packages.data[1].data.map((p) => (
                    <option key={p.id} value={p.id}>
                      {carrierName(p.carrier)} {p.name}
                      {p.flat_rate_services.length ? ' (flat rate)' : ''}
                    </option>
                  ))}
                </optgroup>
              ) : null}
            </select>
          </div>
          <Field label="Weight (oz)" inputMode="decimal" value={parcel.weight_oz} onChange={setP('weight_oz')} maxLength={10} error={err('parcel.weight_oz')} />
          {!parcel.package_id && (
            <>
              <Field
                label="Length (in)"
                inputMode="decimal"
                value={parcel.length_in}
                onChange={setP('length_in')}
                maxLength={10}
                error={err('parcel.length_in')}
              />
              <Field label="Width (in)" inputMode="decimal" value={parcel.width_in} onChange={setP('width_in')} maxLength={10} error={err('parcel.width_in')} />
              <Field
                label="Height (in)"
                inputMode="decimal"
                value={parcel.height_in}
                onChange={setP('height_in')}
                maxLength={10}
                error={err('parcel.height_in')}
              />
            </>
          )}
        </div>
      )}
      <LabelOptionsFields draft={options} onChange={setOptions} />
      <button type="button" className="btn btn-primary" disabled={quote.busy || buy.busy} onClick={() => void getRates()}>
        {quote.busy ? 'Comparing carriers…' : answer ? 'Get rates again' : 'Get rates'}
      </button>
      {quote.busy && <Loading label="Comparing carriers…" />}
      {quote.error && (
        <ErrorBox
          error={
            quote.error.code === 'no_rates'
              ? Object.assign(quote.error, { message: 'No carrier service can carry this parcel on this lane with these options.' })
              : quote.error
          }
        />
      )}
      {answer && !quote.busy && (
        <>
          {stale && (
            <p className="alert alert-warn" role="status">
              The parcel or options changed: get the rates again before buying.
            </p>
          )}
          <RateChoices
            answer={answer.rates}
            selection={answer.selection}
            chosen={chosen}
            onChoose={setChosen}
            onKeyDown={onRatesKey}
            carrierName={carrierName}
          />
          {rate && !stale && !confirming && (
            <button type="button" className="btn btn-primary" data-testid="buy-chosen" disabled={buy.busy} onClick={() => setConfirming(true)}>
              Buy {rate.service_name} for {money(rate.price)}…
            </button>
          )}
          {rate && !stale && confirming && (
            <div className="alert alert-info" role="alertdialog" aria-label="Confirm the purchase" data-testid="confirm-buy">
              <p>
                Buy <strong>{serviceLabel(carrierName(rate.carrier), rate.service_name)}</strong> for <strong>{money(rate.price)}</strong>, delivery by{' '}
                {day(rate.delivery.estimated_delivery_date)}?
                {!same(parcel, saved.parcel) && <span className="muted small"> The order's parcel is updated to this one.</span>}
              </p>
              <button type="button" className="btn btn-primary" autoFocus disabled={buy.busy} onClick={() => void confirmPurchase()}>
                {buy.busy ? 'Buying…' : 'Confirm purchase'}
              </button>{' '}
              <button type="button" className="btn btn-ghost" disabled={buy.busy} onClick={() => setConfirming(false)}>
                Back
              </button>
            </div>
          )}
        </>
      )}
      {buy.error && <ErrorBox error={buy.error} />}
    </div>
  );
}

/** The rates as radio rows: price and its breakdown, delivery date, tags, the rules' choice; failures named. */
function RateChoices({
  answer,
  selection,
  chosen,
  onChoose,
  onKeyDown,
  carrierName,
}: {
  answer: RateAnswer;
  selection: Selection | null;
  chosen: string | null;
  onChoose: (id: string) => void;
  onKeyDown: (e: KeyboardEvent) => void;
  carrierName: (slug: string) => string;
}) {
  const isRulesChoice = (r: Rate) => selection !== null && r.service_code === selection.chosen && r.carrier_account_id === selection.carrier_account_id;
  return (
    <div aria-live="polite">
      {answer.data.length > 0 && (
        <div className="table-wrap">
          <table className="table" data-testid="buy-rates" onKeyDown={onKeyDown}>
            <thead>
              <tr>
                <th aria-label="Choose" />
                <th>Service</th>
                <th>Delivery</th>
                <th className="num">Price</th>
                <th>Breakdown</th>
              </tr>
            </thead>
            <tbody>
              {answer.data.map((r) => (
                <tr key={r.id} className={r.id === chosen ? 'row-selected' : undefined} onClick={() => onChoose(r.id)}>
                  <td>
                    <input
                      type="radio"
                      name="buy-rate"
                      aria-label={serviceLabel(carrierName(r.carrier), r.service_name)}
                      checked={r.id === chosen}
                      onChange={() => onChoose(r.id)}
                    />
                  </td>
                  <td>
                    <strong>{serviceLabel(carrierName(r.carrier), r.service_name)}</strong>{' '}
                    {isRulesChoice(r) && <Badge value="rules' choice" kind="rules-choice" />}
                    {r.tags.map((t) => (
                      <Badge key={t} value={t} kind="tag" />
                    ))}
                  </td>
                  <td>
                    <Delivery promise={r.delivery} />
                  </td>
                  <td className="num">
                    <strong>{money(r.price)}</strong>
                  </td>
                  <td className="small">
                    postage {money(r.base_price)}
                    {r.surcharges.map((s) => (
                      <div key={s.code}>
                        + {s.code.replaceAll('_', ' ')} {money(s.amount)}
                      </div>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {selection && (
        <p className="muted small" data-testid="rules-choice">
          {selection.rule_name
            ? `Rule "${selection.rule_name}" (${selection.strategy.replaceAll('_', ' ')}) chooses ${answer.data.find((r) => r.service_code === selection.chosen)?.service_name ?? selection.chosen}.`
            : 'No shipping rule matches this order: the cheapest is the default.'}
        </p>
      )}
      <RateProblems answer={answer} carrierName={carrierName} />
    </div>
  );
}

/**
 * What a rate query could not quote, named: each carrier account that failed (which account, the
 * carrier's message) and each service that cannot carry the parcel (and why).
 */
export function RateProblems({ answer, carrierName }: { answer: RateAnswer; carrierName: (slug: string) => string }) {
  return (
    <>
      {answer.messages.length > 0 && (
        <ul className="plain small" data-testid="rate-messages">
          {answer.messages.map((m, i) => (
            <li key={i}>
              <strong>{carrierName(m.carrier)}</strong>
              {m.carrier_account_id ? <span className="muted mono"> ({m.carrier_account_id})</span> : null}: {m.message}
            </li>
          ))}
        </ul>
      )}
      {answer.unavailable.length > 0 && (
        <details>
          <summary>
            {answer.unavailable.length} service{answer.unavailable.length === 1 ? '' : 's'} cannot carry this parcel
          </summary>
          <ul className="plain small">
            {answer.unavailable.map((u) => (
              <li key={`${u.carrier}-${u.service_code}`}>
                {carrierName(u.carrier)} <span className="mono">{u.service_code}</span>: {u.reason}
              </li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}

/** A rate's delivery promise: the date, its business days, and whether the carrier guarantees it. */
export function Delivery({ promise }: { promise: Rate['delivery'] }) {
  return (
    <>
      {day(promise.estimated_delivery_date)}
      <div className="muted small">
        {promise.business_days} business day{promise.business_days === 1 ? '' : 's'}
        {promise.guaranteed ? ' · guaranteed' : ''}
      </div>
    </>
  );
}
