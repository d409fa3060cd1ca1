import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createTenant, expectV1AuthMatrix, type Tenant } from '../../../test/helpers/app.js';
import { eventually, startReceiver, type Receiver } from '../../../test/helpers/webhook-receiver.js';
import { registerWebhookJobs } from '../webhooks/index.js';
import { registerBatchJobs } from '../batches/index.js';
import { registerManifestJobs } from './index.js';

// A fake clock: Monday 2 March 2026, 15:00 UTC (10:00 in New York, the origin's zone).
const clock = Date.parse('2026-03-02T15:00:00.000Z');
const TODAY = '2026-03-02';

let app: FastifyInstance;
let receiver: Receiver;

beforeAll(async () => {
  app = await buildTestApp({ now: () => new Date(clock), config: { webhookAllowPrivateTargets: true } });
  await registerManifestJobs(app.deps, app.services.manifests);
  await registerBatchJobs(app.deps, app.services.batches);
  await registerWebhookJobs(app.deps);
  await app.deps.jobs.start();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

const shipFrom = { name: 'Warehouse', company: 'Acme', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US' };
const shipTo = { name: 'Ada Lovelace', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' };
const orderBody = () => ({
  customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
  ship_to: shipTo,
  ship_from: shipFrom,
  line_items: [{ sku: 'MUG-1', name: 'Mug', quantity: 1, weight_oz: 12 }],
  parcel: { weight_oz: 20, length_in: 10, width_in: 8, height_in: 4 },
});

async function createOrder(t: Tenant): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/v1/orders', headers: t.headers, payload: orderBody() });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id;
}

async function buy(
  t: Tenant,
  service = 'usps_ground_advantage',
): Promise<{ id: string; tracking_number: string; carrier_account_id: string; manifest_id: string | null }> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/shipments',
    headers: t.headers,
    payload: { order_id: await createOrder(t), service_code: service },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const post = (t: Tenant, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/v1/manifests', headers: { ...t.headers, ...headers }, payload });
const get = (t: Tenant, url: string) => app.inject({ method: 'GET', url, headers: t.headers });

async function ready(t: Tenant, id: string) {
  return eventually(async () => {
    const m = (await get(t, `/v1/manifests/${id}`)).json();
    return m.status !== 'pending' ? m : undefined;
  }, `manifest ${id} made`);
}

describe('POST /v1/manifests', () => {
  it('without a list: every live label of the account and ship date on no manifest yet; ready with a SCAN form; each label gets manifest_id', async () => {
    const t = await createTenant(app);
    const a = await buy(t);
    const b = await buy(t);
    const voided = await buy(t);
    expect((await app.inject({ method: 'POST', url: `/v1/shipments/${voided.id}/void`, headers: t.headers })).statusCode).toBe(200);
    await buy(t, 'ups_ground');
    expect(a.manifest_id).toBeNull();

    const res = await post(t, { carrier: 'usps' });
    expect(res.statusCode, res.body).toBe(202);
    const created = res.json();
    expect(created).toMatchObject({
      carrier: 'usps',
      carrier_account_id: a.carrier_account_id,
      ship_date: TODAY,
      status: 'pending',
      rejected: [],
      documents: [],
    });
    expect(created.id).toMatch(/^man_[0-9a-z]{26}$/);
    expect(new Set(created.shipment_ids)).toEqual(new Set([a.id, b.id]));

    const done = await ready(t, created.id);
    expect(done).toMatchObject({
      status: 'ready',
      documents: [{ type: 'scan_form', url: `${app.deps.config.publicBaseUrl}/v1/manifests/${created.id}/document` }],
      error: null,
    });
    expect(done.form_number).toMatch(/^92\d{20}$/);
    for (const s of [a, b]) expect((await get(t, `/v1/shipments/${s.id}`)).json().manifest_id).toBe(created.id);
    expect((await get(t, `/v1/shipments/${voided.id}`)).json().manifest_id).toBeNull();

    // Nothing left for the day: 422, saying so.
    const again = await post(t, { carrier: 'usps' });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toMatchObject({ code: 'no_eligible_shipments', details: [{ field: 'ship_date' }] });
    // Another date has no labels either.
    expect((await post(t, { carrier: 'usps', ship_date: '2026-03-03' })).json().code).toBe('no_eligible_shipments');
  });

  it("with a list: a voided label, another workspace's, another carrier's and one already manifested are rejected, the rest listed", async () => {
    const t = await createTenant(app);
    const other = await createTenant(app);
    const ok = await buy(t);
    const voided = await buy(t);
    await app.inject({ method: 'POST', url: `/v1/shipments/${voided.id}/void`, headers: t.headers });
    const foreign = await buy(other);
    const ups = await buy(t, 'ups_ground');
    const first = await buy(t);
    const m1 = (await post(t, { carrier: 'usps', shipment_ids: [first.id] })).json();
    expect(m1.shipment_ids).toEqual([first.id]);

    const res = await post(t, { carrier: 'usps', shipment_ids: [ok.id, voided.id, foreign.id, ups.id, first.id, ok.id] });
    expect(res.statusCode, res.body).toBe(202);
    const m = res.json();
    expect(m.shipment_ids).toEqual([ok.id]);
    expect(m.rejected).toEqual([
      { shipment_id: voided.id, code: 'voided', message: expect.any(String) },
      { shipment_id: foreign.id, code: 'not_found', message: expect.any(String) },
      { shipment_id: ups.id, code: 'carrier_mismatch', message: expect.any(String) },
      { shipment_id: first.id, code: 'already_manifested', message: expect.stringContaining(m1.id) },
    ]);
    // The other workspace's label is untouched.
    expect((await get(other, `/v1/shipments/${foreign.id}`)).json().manifest_id).toBeNull();
    expect((await ready(t, m.id)).rejected).toHaveLength(4);
  });

  it('none eligible: 422 no_eligible_shipments with a detail per label (ship_date_mismatch, not_found)', async () => {
    const t = await createTenant(app);
    const s = await buy(t);
    const res = await post(t, { carrier: 'usps', ship_date: '2026-03-04', shipment_ids: [s.id, 'shp_nope'] });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'no_eligible_shipments',
      details: [
        { field: 'shipment_ids[0]', shipment_id: s.id, code: 'ship_date_mismatch' },
        { field: 'shipment_ids[1]', shipment_id: 'shp_nope', code: 'not_found' },
      ],
    });
    // Nothing was claimed: the label is still free.
    expect((await get(t, `/v1/shipments/${s.id}`)).json().manifest_id).toBeNull();
    expect((await get(t, '/v1/manifests')).json().data).toEqual([]);
  });

  it("from a batch: the batch's labels", async () => {
    const t = await createTenant(app);
    const loose = await buy(t);
    const orderIds = [await createOrder(t), await createOrder(t)];
    const batch = (
      await app.inject({
        method: 'POST',
        url: '/v1/batches',
        headers: t.headers,
        payload: { type: 'purchase_labels', order_ids: orderIds, service_code: 'usps_ground_advantage' },
      })
    ).json();
    const finished = await eventually(async () => {
      const b = (await get(t, `/v1/batches/${batch.id}`)).json();
      return b.status === 'completed' ? b : undefined;
    }, 'batch completed');
    expect(finished.counts.succeeded).toBe(2);
    const res = await post(t, { carrier: 'usps', batch_id: batch.id });
    expect(res.statusCode, res.body).toBe(202);
    const m = res.json();
    expect(m.batch_id).toBe(batch.id);
    expect(m.shipment_ids).toHaveLength(2);
    expect(m.shipment_ids).not.toContain(loose.id);
    const items = (await get(t, `/v1/batches/${batch.id}/items`)).json().data.map((i: { result: { shipment: { id: string } } }) => i.result.shipment.id);
    expect(new Set(m.shipment_ids)).toEqual(new Set(items));
    // Another workspace's batch is not one of this workspace's.
    const other = await createTenant(app);
    const foreign = await post(other, { carrier: 'usps', batch_id: batch.id });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().details[0].field).toBe('batch_id');
    expect((await post(t, { carrier: 'usps', batch_id: batch.id, shipment_ids: [loose.id] })).statusCode).toBe(400);
  });

  it('a manifested label cannot be voided (409 invalid_state naming the manifest)', async () => {
    const t = await createTenant(app);
    const s = await buy(t);
    const m = (await post(t, { carrier: 'usps' })).json();
    const res = await app.inject({ method: 'POST', url: `/v1/shipments/${s.id}/void`, headers: t.headers });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'invalid_state', details: [{ field: 'status', current_state: 'label_purchased', manifest_id: m.id }] });
    expect(res.json().details[0].allowed_moves).not.toContain('void');
    expect((await get(t, `/v1/shipments/${s.id}`)).json().status).toBe('label_purchased');
  });

  it("manifest.ready is delivered to the workspace's webhook endpoint", async () => {
    const t = await createTenant(app);
    const hook = await app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: t.headers,
      payload: { url: receiver.url(`/eod-${t.workspaceId}`), events: ['manifest.ready'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const s = await buy(t);
    const m = (await post(t, { carrier: 'usps' })).json();
    const delivery = await eventually(async () => receiver.at(`/eod-${t.workspaceId}`)[0], 'manifest.ready delivered');
    const body = JSON.parse(delivery.body);
    expect(delivery.headers['x-service-event-type']).toBe('manifest.ready');
    expect(body).toMatchObject({
      type: 'manifest.ready',
      workspace_id: t.workspaceId,
      environment: 'test',
      data: { manifest: { id: m.id, status: 'ready', shipment_ids: [s.id], documents: [{ type: 'scan_form' }] } },
    });
    expect(String(delivery.headers['x-service-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('validation: unknown carrier, bad date, unknown account; Idempotency-Key replays the same manifest', async () => {
    const t = await createTenant(app);
    expect((await post(t, { carrier: 'nope' })).statusCode).toBe(400);
    expect((await post(t, { carrier: 'usps', ship_date: '2026-02-30' })).statusCode).toBe(400);
    expect((await post(t, { carrier: 'usps', carrier_account_id: 'ca_nope' })).statusCode).toBe(400);
    expect((await post(t, { carrier: 'usps', extra: 1 })).statusCode).toBe(400);
    await buy(t);
    const first = await post(t, { carrier: 'usps' }, { 'idempotency-key': 'eod-1' });
    const replay = await post(t, { carrier: 'usps' }, { 'idempotency-key': 'eod-1' });
    expect(first.statusCode).toBe(202);
    expect(replay.statusCode).toBe(202);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().id).toBe(first.json().id);
  });
});

describe('GET /v1/manifests', () => {
  it('lists newest first with ?status= and ?carrier=, pages by cursor; 404 across workspaces; the auth matrix', async () => {
    const t = await createTenant(app);
    await buy(t);
    const usps = (await post(t, { carrier: 'usps' })).json();
    await buy(t, 'ups_ground');
    const ups = (await post(t, { carrier: 'ups' })).json();
    await ready(t, usps.id);
    await ready(t, ups.id);
    expect((await get(t, '/v1/manifests')).json().data.map((m: { id: string }) => m.id)).toEqual([ups.id, usps.id]);
    expect((await get(t, '/v1/manifests?carrier=usps')).json().data.map((m: { id: string }) => m.id)).toEqual([usps.id]);
    expect((await get(t, '/v1/manifests?status=pending')).json().data).toEqual([]);
    const page = (await get(t, '/v1/manifests?limit=1')).json();
    expect(page).toMatchObject({ has_more: true, data: [{ id: ups.id }] });
    expect((await get(t, `/v1/manifests?limit=1&cursor=${page.next_cursor}`)).json()).toMatchObject({ has_more: false, data: [{ id: usps.id }] });
    expect((await get(t, '/v1/manifests?status=bogus')).statusCode).toBe(400);

    const other = await createTenant(app);
    for (const url of [`/v1/manifests/${usps.id}`, `/v1/manifests/${usps.id}/document`]) {
      const res = await get(other, url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
    expect((await get(other, '/v1/manifests')).json().data).toEqual([]);
    expect((await app.inject({ method: 'GET', url: `/v1/manifests/${usps.id}`, headers: t.liveHeaders })).statusCode).toBe(404);
    await expectV1AuthMatrix(app, { method: 'GET', url: `/v1/manifests/${usps.id}` }, { owner: t, otherWorkspaceResource: true });
    await expectV1AuthMatrix(app, { method: 'POST', url: '/v1/manifests', payload: { carrier: 'usps' } }, { owner: t });
  });
});

// Poppler prints the PDF (pdftoppm as a driver's scanner would see it, pdftotext as text; both from
// poppler-utils, which .ci/run installs); zbarimg reads the barcode.
const poppler = spawnSync('pdftotext', ['-v']).status === 0 && spawnSync('pdftoppm', ['-v']).status === 0;
const pdfText = (file: string) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
const zbar = spawnSync('zbarimg', ['--version']).status === 0;

describe('GET /v1/manifests/:id/document', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'manifests-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('409 while pending; then the PDF', async () => {
    const t = await createTenant(app);
    await buy(t);
    const m = (await post(t, { carrier: 'usps' })).json();
    const early = await get(t, `/v1/manifests/${m.id}/document`);
    // The job may already have made it; when not, the answer is 409 invalid_state.
    if (early.statusCode !== 200) expect(early.json()).toMatchObject({ code: 'invalid_state', details: [{ field: 'status', current_state: 'pending' }] });
    await ready(t, m.id);
    const res = await get(t, `/v1/manifests/${m.id}/document`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it.runIf(poppler && zbar)('USPS SCAN form: a scanner reads the form number; the text has the piece count and every tracking number', async () => {
    const t = await createTenant(app);
    const labels = [await buy(t), await buy(t), await buy(t)];
    const m = await ready(t, (await post(t, { carrier: 'usps' })).json().id);
    const pdf = (await get(t, `/v1/manifests/${m.id}/document`)).rawPayload;
    const file = path.join(dir, `${m.id}.pdf`);
    writeFileSync(file, pdf);
    execFileSync('pdftoppm', ['-r', '150', '-gray', '-png', '-f', '1', '-l', '1', '-singlefile', file, path.join(dir, `${m.id}-1`)]);
    const scanned = execFileSync('zbarimg', ['--quiet', '--raw', '-Sdisable', '-Scode128.enable', path.join(dir, `${m.id}-1.png`)], {
      encoding: 'latin1',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    expect(scanned).toBe(m.form_number);
    const text = pdfText(file);
    expect(text).toContain('PS Form 5630');
    expect(text).toMatch(/TOTAL PIECES\s+3/);
    for (const s of labels) expect(text).toContain(s.tracking_number);
    expect(text).toContain('350 5th Ave');
    expect(text).toContain(TODAY);
  });

  it.runIf(poppler)('others: a close report with carrier, account, date, pieces, and each tracking number with service and weight', async () => {
    const t = await createTenant(app);
    const labels = [await buy(t, 'ups_ground'), await buy(t, 'ups_ground')];
    const m = await ready(t, (await post(t, { carrier: 'ups' })).json().id);
    expect(m.documents).toEqual([{ type: 'close_report', url: expect.stringContaining(`/v1/manifests/${m.id}/document`) }]);
    const file = path.join(dir, `${m.id}.pdf`);
    writeFileSync(file, (await get(t, `/v1/manifests/${m.id}/document`)).rawPayload);
    const text = pdfText(file);
    expect(text).toContain('UPS CLOSE REPORT');
    expect(text).toContain(m.carrier_account_id);
    expect(text).toMatch(/TOTAL PIECES\s+2/);
    for (const s of labels) expect(text).toMatch(new RegExp(`${s.tracking_number}\\s+UPS Ground\\s+1 LB 4 OZ`));
  });
});
