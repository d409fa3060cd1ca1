import type { FastifyInstance } from 'fastify';
import { trackAt } from '../carriers/simulation/tracking-sim.js';
import type { Address, SandboxOptions, TrackingStatus } from '../carriers/types.js';

/**
 * A realistic day in the demo workspace's `test` environment: orders in every
 * state, labels of the four carriers at different tracking stages, a US → GB shipment with
 * its customs documents, a pay-on-scan return, a voided label and its refund, a USPS manifest,
 * a UPS pickup, a purchase_labels batch and a webhook endpoint with deliveries (one dead).
 *
 * Everything is made through the service's own HTTP API (`app.inject` with the demo test key,
 * or the demo user's session for the admin-only order moves), so every row is one the product
 * itself writes. SQL is used only where time must have passed, each place says why:
 * backdating a few purchases so the simulated tracking has moved on, and the dead letter.
 * The batch and the manifest finish on the job workers a moment later, as they would for a user.
 */
export async function seedDemoDay(
  app: FastifyInstance,
  demo: { workspaceId: string; apiKey: string; email: string; password: string },
): Promise<DemoDaySummary> {
  const system = { type: 'system' as const, id: null };
  const meta = { requestId: 'seed' };
  const workspaceId = demo.workspaceId;
  // The demo is on the starter plan (60 /v1 requests a minute); seeding makes more than that in
  // a second, so the workspace is enterprise with a high burst while it runs, then starter again.
  await app.identity.workspaces.setPlan(workspaceId, { plan: 'enterprise', burst_per_minute: 1_000_000 }, system, meta);
  try {
    return await buildDay(app, demo);
  } finally {
    await app.identity.workspaces.setPlan(workspaceId, { plan: 'starter', burst_per_minute: null }, system, meta);
  }
}

export interface DemoDaySummary {
  orders: number;
  batchId: string;
  manifestId: string;
  pickupId: string | null;
  webhookId: string;
}

interface Json {
  [key: string]: unknown;
}

const ORIGIN = {
  name: 'Demo Store',
  company: 'Demo Store',
  street1: '1 Market St',
  city: 'San Francisco',
  state: 'CA',
  postal_code: '94105',
  country: 'US',
  phone: '+1 415 555 0100',
};

/** US customers: real, well-formed addresses so address checks pass. */
const CUSTOMERS = [
  { name: 'Ada Lovelace', email: 'ada@example.com', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118' },
  { name: 'Grace Hopper', email: 'grace@example.com', street1: '233 S Wacker Dr', city: 'Chicago', state: 'IL', postal_code: '60606' },
  { name: 'Alan Turing', email: 'alan@example.com', street1: '400 Broad St', city: 'Seattle', state: 'WA', postal_code: '98109' },
  { name: 'Katherine Johnson', email: 'katherine@example.com', street1: '100 Congress Ave', city: 'Austin', state: 'TX', postal_code: '78701' },
  { name: 'Edsger Dijkstra', email: 'edsger@example.com', street1: '1 Beacon St', city: 'Boston', state: 'MA', postal_code: '02108' },
  { name: 'Barbara Liskov', email: 'barbara@example.com', street1: '1600 Pennsylvania Ave NW', city: 'Washington', state: 'DC', postal_code: '20500' },
  { name: 'Donald Knuth', email: 'donald@example.com', street1: '450 Serra Mall', city: 'Stanford', state: 'CA', postal_code: '94305' },
  { name: 'Margaret Hamilton', email: 'margaret@example.com', street1: '1 Main St', city: 'Cambridge', state: 'MA', postal_code: '02142' },
  { name: 'Linus Torvalds', email: 'linus@example.com', street1: '1120 NW Couch St', city: 'Portland', state: 'OR', postal_code: '97209' },
  { name: 'Radia Perlman', email: 'radia@example.com', street1: '1 Microsoft Way', city: 'Redmond', state: 'WA', postal_code: '98052' },
];

const PRODUCTS = [
  { sku: 'MUG-11', name: 'Ceramic mug, 11 oz', weight_oz: 14, price: 1800 },
  { sku: 'TEE-M', name: 'Cotton T-shirt, M', weight_oz: 6, price: 2400 },
  { sku: 'HOOD-L', name: 'Hoodie, L', weight_oz: 22, price: 5200 },
  { sku: 'CAP-1', name: 'Baseball cap', weight_oz: 5, price: 2200 },
  { sku: 'BTL-750', name: 'Steel water bottle', weight_oz: 12, price: 2900 },
];

async function buildDay(app: FastifyInstance, demo: { workspaceId: string; apiKey: string; email: string; password: string }): Promise<DemoDaySummary> {
  const headers = { authorization: `Bearer ${demo.apiKey}`, 'x-service-workspace': demo.workspaceId };
  const login = await app.identity.accounts.login({ email: demo.email, password: demo.password }, { requestId: 'seed' });
  const adminHeaders = { authorization: `Bearer ${login.token}`, 'x-service-workspace': demo.workspaceId, 'x-service-environment': 'test' };
  let sequence = 0;

  async function call(method: 'GET' | 'POST', url: string, payload?: unknown, opts: { admin?: boolean; ok?: number[] } = {}): Promise<Json> {
    const res = await app.inject({
      method,
      url,
      headers: { ...(opts.admin ? adminHeaders : headers), ...(method === 'POST' && !opts.admin ? { 'idempotency-key': `demo-seed-${++sequence}` } : {}) },
      ...(payload === undefined ? {} : { payload: payload as Json }),
    });
    if (!(opts.ok ?? [200, 201, 202]).includes(res.statusCode)) {
      throw new Error(`demo seed: ${method} ${url} answered ${res.statusCode}: ${res.body.slice(0, 500)}`);
    }
    return res.json() as Json;
  }

  // 1. The webhook endpoint first, so the day's events have deliveries.
  const webhook = await createWebhook(app, call);

  // 2. Orders: a few dozen, each with one or two lines.
  let orderCount = 0;
  const createOrder = async (
    opts: { customer?: number; notes?: string; ship_to?: Json; customs?: Json; lines?: Json[]; parcel?: Json; requested_service?: string } = {},
  ): Promise<string> => {
    const n = orderCount++;
    const c = CUSTOMERS[(opts.customer ?? n) % CUSTOMERS.length];
    const p = PRODUCTS[n % PRODUCTS.length];
    const q = PRODUCTS[(n + 2) % PRODUCTS.length];
    const lines = opts.lines ?? [
      { sku: p.sku, name: p.name, quantity: 1 + (n % 2), unit_price: { amount: p.price, currency: 'USD' }, weight_oz: p.weight_oz },
      ...(n % 3 === 0 ? [{ sku: q.sku, name: q.name, quantity: 1, unit_price: { amount: q.price, currency: 'USD' }, weight_oz: q.weight_oz }] : []),
    ];
    const order = await call('POST', '/v1/orders', {
      external_id: `DEMO-${1001 + n}`,
      customer: { name: c.name, email: c.email },
      ship_to: opts.ship_to ?? { name: c.name, street1: c.street1, city: c.city, state: c.state, postal_code: c.postal_code, country: 'US' },
      ship_from: ORIGIN,
      line_items: lines,
      parcel: opts.parcel ?? { weight_oz: 8 + (n % 5) * 6, length_in: 10, width_in: 8, height_in: 4 },
      ...(opts.customs ? { customs: opts.customs } : {}),
      ...(opts.requested_service ? { requested_service: opts.requested_service } : {}),
      ...(opts.notes ? { notes: opts.notes } : {}),
    });
    return order.id as string;
  };
  const buy = async (orderId: string, serviceCode: string): Promise<Json> => call('POST', '/v1/shipments', { order_id: orderId, service_code: serviceCode });

  // Awaiting fulfillment: just in.
  for (let i = 0; i < 8; i++) await createOrder();
  // Processing: picked and packing (the admin move, as the dashboard's Process button).
  for (let i = 0; i < 4; i++) await call('POST', `/api/admin/orders/${await createOrder()}/process`, undefined, { admin: true });
  // Cancelled, one of them archived.
  const cancelled: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = await createOrder();
    await call('POST', `/api/admin/orders/${id}/cancel`, undefined, { admin: true });
    cancelled.push(id);
  }

  // 3. Labels of the four carriers. Fresh ones stay pre_transit until the carrier's pickup.
  const fresh = {
    usps: [await buy(await createOrder(), 'usps_ground_advantage'), await buy(await createOrder(), 'usps_priority_mail')],
    ups: [await buy(await createOrder(), 'ups_ground'), await buy(await createOrder(), 'ups_2nd_day_air')],
    fedex: [await buy(await createOrder(), 'fedex_home_delivery')],
  };
  // Labels bought "earlier" (backdated below) to show the later tracking stages.
  const journeys: { shipment: Json; target: TrackingStatus }[] = [
    { shipment: await buy(await createOrder(), 'fedex_home_delivery'), target: 'in_transit' },
    { shipment: await buy(await createOrder(), 'usps_priority_mail'), target: 'in_transit' },
    { shipment: await buy(await createOrder(), 'ups_ground'), target: 'out_for_delivery' },
    { shipment: await buy(await createOrder(), 'fedex_home_delivery'), target: 'delivered' },
    { shipment: await buy(await createOrder(), 'usps_ground_advantage'), target: 'delivered' },
    { shipment: await buy(await createOrder(), 'ups_ground'), target: 'delivered' },
    // The order note's SANDBOX:exception makes the simulated carrier fail the delivery.
    {
      shipment: await buy(await createOrder({ notes: 'Customer says the unit number is missing. SANDBOX:exception' }), 'fedex_home_delivery'),
      target: 'failure',
    },
  ];

  // 4. International: US → GB, two items, declared on the order; DHL Express issues the
  //    commercial invoice, listed under the shipment's documents.
  const londonOrder = await createOrder({
    parcel: { weight_oz: 40, length_in: 14, width_in: 10, height_in: 6 },
    ship_to: {
      name: 'Ada Byron',
      street1: '10 Downing St',
      city: 'London',
      postal_code: 'SW1A 2AA',
      country: 'GB',
      phone: '+44 20 7946 0000',
      email: 'ada.byron@example.com',
    },
    lines: [
      { sku: 'TEE-M', name: 'Cotton T-shirt, M', quantity: 2, unit_price: { amount: 2400, currency: 'USD' }, weight_oz: 6, hs_tariff_number: '6109.10' },
      { sku: 'HOOD-L', name: 'Hoodie, L', quantity: 1, unit_price: { amount: 5200, currency: 'USD' }, weight_oz: 22, hs_tariff_number: '6110.20' },
    ],
    customs: {
      contents_type: 'merchandise',
      non_delivery: 'return',
      incoterm: 'DDU',
      eel_pfc: 'NOEEI 30.37(a)',
      signer: 'Demo Store',
      items: [
        {
          description: 'Cotton T-shirt',
          quantity: 2,
          unit_value: { amount: 2400, currency: 'USD' },
          weight_oz: 6,
          hs_tariff_number: '6109.10',
          origin_country: 'US',
          sku: 'TEE-M',
        },
        {
          description: 'Cotton hoodie',
          quantity: 1,
          unit_value: { amount: 5200, currency: 'USD' },
          weight_oz: 22,
          hs_tariff_number: '6110.20',
          origin_country: 'PT',
          sku: 'HOOD-L',
        },
      ],
    },
  });
  await buy(londonOrder, 'dhl_express_worldwide');

  // 5. End of day: the USPS labels of today on a manifest (SCAN form), the UPS ones picked up.
  const manifest = await call('POST', '/v1/manifests', { carrier: 'usps', shipment_ids: fresh.usps.map((s) => s.id) });
  const pickup = await bookPickup(
    call,
    fresh.ups.map((s) => s.id as string),
  );

  // 6. A label bought by mistake and voided: its refund is submitted (decided by the carrier later).
  const voided = await buy(await createOrder(), 'ups_2nd_day_air');
  await call('POST', `/v1/shipments/${voided.id as string}/void`);

  // 7. A batch: three orders' labels bought in one go (finished by the batch workers).
  const batchOrders = [await createOrder(), await createOrder(), await createOrder()];
  const batch = await call('POST', '/v1/batches', { type: 'purchase_labels', order_ids: batchOrders });

  // 8. Time passes: the "earlier" labels are backdated (see backdateToStage), then tracked
  //    through the API, which moves delivered ones' orders to delivered.
  const now = new Date();
  for (const { shipment, target } of journeys) await backdateToStage(app, shipment, target, now);
  for (const { shipment } of journeys) await call('POST', `/v1/tracking/${shipment.id as string}/refresh`);

  // 9. A customer sends back the first delivered parcel: a pay-on-scan return label (FedEx
  //    Ground, since the store is a business address; Home Delivery serves homes only).
  const delivered = journeys.find((j) => j.target === 'delivered')!.shipment;
  await call('POST', `/v1/shipments/${delivered.id as string}/return`, {
    service_code: 'fedex_ground',
    charge: 'on_scan',
    rma_number: 'RMA-1001',
    reason: 'Wrong size',
  });

  // Archived: an old cancelled order tidied away.
  await call('POST', `/api/admin/orders/${cancelled[0]}/archive`, undefined, { admin: true });

  // 10. Deliveries to the refusing endpoint fail and are retried for days before they are
  //     dead-lettered; the oldest is shown as that final state now (SQL: days cannot pass here).
  await deadLetterOldest(app, webhook.id as string);

  return {
    orders: orderCount,
    batchId: batch.id as string,
    manifestId: manifest.id as string,
    pickupId: pickup ? (pickup.id as string) : null,
    webhookId: webhook.id as string,
  };
}

type Call = (method: 'GET' | 'POST', url: string, payload?: unknown, opts?: { admin?: boolean; ok?: number[] }) => Promise<Json>;

/**
 * The endpoint points at 127.0.0.1:9 (discard: nothing listens, so deliveries are refused and
 * never leave the machine). Where private targets are allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS,
 * never in production) the API takes that URL. Otherwise the API refuses it, so the endpoint is
 * registered through the API with a placeholder URL (its signing secret sealed by the product)
 * and only its `url` column is set in SQL; the transport still refuses the private address,
 * so its deliveries fail without any traffic. No event exists between the two steps.
 */
async function createWebhook(app: FastifyInstance, call: Call): Promise<Json> {
  const target = 'http://127.0.0.1:9/demo-webhooks';
  const body = { description: 'Demo endpoint (nothing listens here, so deliveries fail and are retried)', events: ['*'] };
  if (app.deps.config.webhookAllowPrivateTargets) return call('POST', '/v1/webhooks', { ...body, url: target });
  const created = await call('POST', '/v1/webhooks', { ...body, url: 'https://webhooks.example.com/demo' });
  await app.deps.db
    .updateTable('webhook_endpoints')
    .set({ url: target })
    .where('id', '=', created.id as string)
    .execute();
  return { ...created, url: target };
}

/**
 * A pickup for the UPS labels in the first window the carrier accepts: 13:00–17:00 UTC on one
 * of the next days (Sundays, holidays and past windows are refused with pickup_unavailable).
 */
async function bookPickup(call: Call, shipmentIds: string[]): Promise<Json | undefined> {
  for (let day = 1; day <= 9; day++) {
    const date = new Date(Date.now() + day * 86_400_000).toISOString().slice(0, 10);
    try {
      return await call('POST', '/v1/pickups', {
        carrier: 'ups',
        window: { start: `${date}T13:00:00Z`, end: `${date}T17:00:00Z` },
        shipment_ids: shipmentIds,
        instructions: 'Ring the loading dock bell',
      });
    } catch (err) {
      if (!(err instanceof Error) || !err.message.includes('pickup_unavailable')) throw err;
    }
  }
  return undefined;
}

const HOUR_MS = 3_600_000;
const SCALES = [1, 2, 4, 8, 16, 32];

export interface StageJourney {
  purchased_at: string;
  estimated_delivery_date: string;
  ship_from: Address;
  ship_to: Address;
  sandbox: SandboxOptions;
}

/**
 * When the label must have been bought (and under which sandbox time scale) for the simulated
 * carrier to read `target` at `now`: the carrier's own schedule searched from a few hours back
 * to twelve days, real time first; the promised date moves with the purchase, as the rate
 * would have said then. A scale is needed only where the real clock cannot land in the stage's
 * window (out for delivery lasts 08:00–14:00 UTC of the delivery day).
 */
export function purchaseForStage(
  journey: StageJourney,
  target: TrackingStatus,
  now: Date,
): { purchased_at: string; estimated_delivery_date: string; time_scale: number } | undefined {
  const boughtMs = new Date(journey.purchased_at).getTime();
  const promisedMs = new Date(`${journey.estimated_delivery_date}T00:00:00Z`).getTime();
  for (const scale of SCALES) {
    // A scaled journey's stages are shorter by the scale (out for delivery: 6 h / scale), so the
    // purchase times tried are that much closer together, or a short window falls between them.
    const stepMs = (2 * HOUR_MS) / scale;
    for (let backMs = 6 * HOUR_MS; backMs <= 24 * 12 * HOUR_MS; backMs += stepMs) {
      const purchasedAt = new Date(now.getTime() - backMs);
      const estimated = new Date(promisedMs - (boughtMs - purchasedAt.getTime())).toISOString().slice(0, 10);
      const result = trackAt(
        {
          carrier_name: 'Demo',
          purchased_at: purchasedAt.toISOString(),
          estimated_delivery_date: estimated,
          ship_from: journey.ship_from,
          ship_to: journey.ship_to,
          sandbox: { ...journey.sandbox, time_scale: scale },
        },
        now.toISOString(),
      );
      if (result.status === target) return { purchased_at: purchasedAt.toISOString(), estimated_delivery_date: estimated, time_scale: scale };
    }
  }
  return undefined;
}

/**
 * Time must have passed for tracking to move, so this shipment is made to have been bought
 * earlier (SQL: purchased_at, label_created_at, the rate's ship and promised dates, its
 * label_created scan dropped to be read again, and where needed the sandbox time scale the
 * `sandbox.tracking_time_scale` setting would have given it), found by purchaseForStage so the
 * next tracking refresh (through the API) reads `target`.
 */
async function backdateToStage(app: FastifyInstance, shipment: Json, target: TrackingStatus, now: Date): Promise<void> {
  const row = await app.deps.db
    .selectFrom('shipments')
    .selectAll()
    .where('id', '=', shipment.id as string)
    .executeTakeFirstOrThrow();
  const sandbox: SandboxOptions = row.sandbox ?? { time_scale: 1, scenario: 'normal' };
  const address = (a: typeof row.ship_to): Address => ({ ...a, postal_code: a.postal_code ?? '' });
  const found = purchaseForStage(
    {
      purchased_at: new Date(row.purchased_at).toISOString(),
      estimated_delivery_date: row.rate.delivery.estimated_delivery_date,
      ship_from: address(row.ship_from),
      ship_to: address(row.ship_to),
      sandbox,
    },
    target,
    now,
  );
  if (!found) {
    app.log.warn({ shipment_id: row.id, target }, 'demo seed: no purchase time gives that tracking stage now; left as bought');
    return;
  }
  const { purchased_at: purchasedAt, estimated_delivery_date: estimated, time_scale: scale } = found;
  await app.deps.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('tracking_events').where('shipment_id', '=', row.id).execute();
    await trx
      .updateTable('shipments')
      .set({
        purchased_at: purchasedAt,
        label_created_at: purchasedAt,
        rate: JSON.stringify({ ...row.rate, ship_date: purchasedAt.slice(0, 10), delivery: { ...row.rate.delivery, estimated_delivery_date: estimated } }),
        estimated_delivery_date: estimated,
        sandbox: JSON.stringify({ ...sandbox, time_scale: scale }),
        next_check_at: now.toISOString(),
      })
      .where('id', '=', row.id)
      .execute();
    // The order came in shortly before its label was bought.
    await trx
      .updateTable('orders')
      .set({ created_at: new Date(new Date(purchasedAt).getTime() - 2 * HOUR_MS).toISOString() })
      .where('id', '=', row.order_id)
      .execute();
  });
}

/**
 * SQL: the oldest delivery as it ends after its last retry, days from now (a dead letter needs
 * days of refused attempts that cannot pass here). Taken under a row lock and only while no
 * dispatcher holds it, so a send in flight cannot write over it.
 */
async function deadLetterOldest(app: FastifyInstance, endpointId: string): Promise<void> {
  await app.deps.db.transaction().execute(async (trx) => {
    const oldest = await trx
      .selectFrom('webhook_deliveries')
      .select(['id', 'attempt_count'])
      .where('endpoint_id', '=', endpointId)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', new Date())]))
      .orderBy('created_at')
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!oldest) return;
    const at = new Date().toISOString();
    const error = 'connect ECONNREFUSED 127.0.0.1:9';
    const number = oldest.attempt_count + 1;
    await trx
      .updateTable('webhook_deliveries')
      .set({ status: 'dead', attempt_count: number, next_attempt_at: null, last_attempt_at: at, last_status_code: null, last_error: error, updated_at: at })
      .where('id', '=', oldest.id)
      .execute();
    await trx
      .insertInto('webhook_delivery_attempts')
      .values({ delivery_id: oldest.id, number, attempted_at: at, status_code: null, latency_ms: 1, response_body: null, error })
      .execute();
  });
}
