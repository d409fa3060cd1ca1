import { beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, onboardClient, useBuiltService, type BuiltClient, type BuiltService, type HttpResult } from '../helpers/built-service.js';
import { startFakeDhl } from '../helpers/fake-dhl.js';
import { fedexFixture, startFakeFedex } from '../helpers/fake-fedex.js';
import { startFakeUps } from '../helpers/fake-ups.js';
import { startFakeUsps } from '../helpers/fake-usps.js';
import { loadDhlSpecs } from '../helpers/dhl-spec.js';
import { loadFedexSpecs } from '../helpers/fedex-spec.js';
import { loadUpsSpecs } from '../helpers/ups-spec.js';
import { loadUspsSpecs } from '../helpers/usps-spec.js';

// Real-protocol carrier accounts end to end on the bundled tree (npm start): for USPS, FedEx and DHL Express, an `api`
// carrier account pointed at the carrier's fake (a real HTTP server on 127.0.0.1 checking every
// request against the carrier's published description) rates, buys, prints in every format,
// tracks to delivered and voids; then the four carriers' `api` accounts answer one rate query
// together, one of them failing. UPS's own flow is in built-tree.test.ts. The service accepts a
// `base_url` only with CARRIER_ALLOW_BASE_URL_OVERRIDE=1.
const service = useBuiltService({ env: { CARRIER_ALLOW_BASE_URL_OVERRIDE: '1' } });
let svc: BuiltService;
let c: BuiltClient;

// The carriers' published descriptions, loaded once for every fake of this file.
const specs = { ups: loadUpsSpecs(), usps: loadUspsSpecs(), fedex: loadFedexSpecs(), dhl: loadDhlSpecs() };

beforeAll(async () => {
  svc = service();
  c = await onboardClient(svc, { name: 'Carrier Drivers Client' });
}, 60_000);

const parcel = { weight_oz: 24, length_in: 10, width_in: 8, height_in: 4 };
const sanFrancisco = {
  name: 'Warehouse',
  company: 'Acme',
  street1: '1 Market St',
  city: 'San Francisco',
  state: 'CA',
  postal_code: '94105',
  country: 'US',
  phone: '4155550100',
};
const newYork = { name: 'Ada Buyer', street1: '350 5th Ave', city: 'New York', state: 'NY', postal_code: '10118', country: 'US', phone: '2125550100' };
const london = { name: 'Prime Minister', street1: '10 Downing Street', city: 'London', postal_code: 'SW1A 2AA', country: 'GB', phone: '+442079250918' };

type LabelFormat = 'pdf_4x6' | 'pdf_letter' | 'png_4x6' | 'zpl_4x6';
type Issued = 'PDF' | 'PNG' | 'ZPL';
const LABEL_FORMATS: readonly LabelFormat[] = ['pdf_4x6', 'pdf_letter', 'png_4x6', 'zpl_4x6'];

/**
 * What each issued image can be served as: as is (the first), or a lossless
 * conversion (an image or a PDF page placed on a PDF page); any other format is 422
 * `label_format_unavailable`, which points to the first.
 */
const SERVABLE: Record<Issued, readonly LabelFormat[]> = {
  PDF: ['pdf_4x6', 'pdf_letter'],
  ZPL: ['zpl_4x6'],
  PNG: ['png_4x6', 'pdf_4x6', 'pdf_letter'],
};

/** Content type and the magic a served label starts with (read as text: PNG's 0x89 is skipped). */
const SERVED: Record<LabelFormat, [type: string, magic: string]> = {
  pdf_4x6: ['application/pdf', '%PDF'],
  pdf_letter: ['application/pdf', '%PDF'],
  png_4x6: ['image/png', 'PNG'],
  zpl_4x6: ['application/x-zpl', '^XA'],
};

/** What the tests need of any of the fakes. */
interface FakeCarrier {
  url: string;
  specChecked: boolean;
  violations: string[];
  requests: { operation: string | null; method: string; path: string; headers: Record<string, unknown>; body: string }[];
  count(op: string): number;
  close(): Promise<void>;
}

interface CarrierCase {
  carrier: 'usps' | 'fedex' | 'dhl_express';
  start(): Promise<FakeCarrier>;
  /** The write-only credentials, which must never show. */
  secrets: string[];
  account: Record<string, unknown>;
  shipTo: typeof newYork | typeof london;
  service: string;
  tracking: RegExp;
  /** The first purchase's format, and the image the driver asks the carrier for (its `labelImage`). */
  buyAs: LabelFormat;
  issued: Issued;
  /** Where the carrier's request says which image it wants, and what it says. */
  labelOp: string;
  askedImage(body: any): unknown;
  asked: string;
  trackOp: string;
  /** The carrier call a void makes; null when the void is local (MyDHL has no cancel). */
  voidOp: string | null;
}

const USPS_SECRET = 'built-usps-client-secret-4d1e';
const USPS_PAYMENT_ACCOUNT = '7730019428';
const FEDEX_SECRET = 'built-fedex-secret-key-8b2c';
const DHL_SECRET = 'built-dhl-api-secret-c05a';

const CASES: CarrierCase[] = [
  {
    carrier: 'usps',
    start: () => startFakeUsps({ clientSecret: USPS_SECRET, specs: specs.usps }),
    secrets: [USPS_SECRET, USPS_PAYMENT_ACCOUNT],
    account: {
      credentials: {
        client_id: 'fake-client-id',
        client_secret: USPS_SECRET,
        crid: '56982563',
        mid: '904128936',
        manifest_mid: '904128937',
        payment_account_number: USPS_PAYMENT_ACCOUNT,
        payment_account_type: 'EPS',
      },
    },
    shipTo: newYork,
    service: 'usps_ground_advantage',
    tracking: /^92001909999\d{11}$/,
    // USPS issues PNG itself (uspsLabelImage: png_4x6 → PNG, imageType PNG).
    buyAs: 'png_4x6',
    issued: 'PNG',
    labelOp: 'label',
    askedImage: (b) => b.imageInfo?.imageType,
    asked: 'PNG',
    trackOp: 'track',
    voidOp: 'cancel',
  },
  {
    carrier: 'fedex',
    start: () => startFakeFedex({ secretKey: FEDEX_SECRET, specs: specs.fedex }),
    secrets: [FEDEX_SECRET],
    account: { account_number: '740561073', credentials: { api_key: 'fake-api-key', secret_key: FEDEX_SECRET } },
    shipTo: newYork,
    // The recorded quote is residential: FedEx's ground service to a home is Home Delivery.
    service: 'fedex_home_delivery',
    tracking: /^7949\d{8}$/,
    // fedexLabelImage: zpl_4x6 → ZPL, sent as imageType ZPLII on thermal stock.
    buyAs: 'zpl_4x6',
    issued: 'ZPL',
    labelOp: 'ship',
    askedImage: (b) => b.requestedShipment?.labelSpecification?.imageType,
    asked: 'ZPLII',
    trackOp: 'track',
    voidOp: 'cancel',
  },
  {
    carrier: 'dhl_express',
    start: () => startFakeDhl({ apiSecret: DHL_SECRET, specs: specs.dhl }),
    secrets: [DHL_SECRET, Buffer.from(`fake-api-key:${DHL_SECRET}`).toString('base64')],
    account: { account_number: '123456789', credentials: { api_key: 'fake-api-key', api_secret: DHL_SECRET } },
    // DHL Express is international-only.
    shipTo: london,
    service: 'dhl_express_worldwide',
    tracking: /^\d{10}$/,
    // dhlLabelImage: MyDHL issues no raster image, so png_4x6 gets DHL's PDF (encodingFormat pdf):
    // the very format bought is then 422, the label is kept and served as pdf_4x6.
    buyAs: 'png_4x6',
    issued: 'PDF',
    labelOp: 'shipments',
    askedImage: (b) => b.outputImageProperties?.encodingFormat,
    asked: 'pdf',
    trackOp: 'track',
    voidOp: null,
  },
];

function expectCommonError(res: HttpResult, status: number, code: string) {
  expect(res.status, res.text.slice(0, 300)).toBe(status);
  expect(res.body).toMatchObject({ code, message: expect.any(String), request_id: res.headers.get('x-request-id') });
}

/** The parsed JSON body of the last request of an operation a fake received. */
function lastBody(fake: FakeCarrier, op: string): any {
  const r = [...fake.requests].reverse().find((q) => q.operation === op);
  return r ? JSON.parse(r.body) : undefined;
}

/** Every bearer, basic or payment token the service sent a fake (none may show anywhere). */
function tokensSent(fake: FakeCarrier): string[] {
  const tokens = new Set<string>();
  for (const r of fake.requests) {
    const auth = /^(?:Bearer|Basic) (.+)$/.exec(String(r.headers.authorization ?? ''))?.[1];
    if (auth) tokens.add(auth);
    const payment = r.headers['x-payment-authorization-token'];
    if (typeof payment === 'string' && payment) tokens.add(payment);
  }
  return [...tokens];
}

/** An `api` account on a fake, connection-tested at create (health ok); answers the create. */
async function createApiAccount(carrier: string, url: string, account: Record<string, unknown>, description: string): Promise<HttpResult> {
  const made = await svc.request('POST', '/v1/carrier-accounts', { headers: c.v1, json: { carrier, driver: 'api', base_url: url, description, ...account } });
  expectStatus(svc, made, 201, `api ${carrier} account`);
  expect(made.body).toMatchObject({ carrier, driver: 'api', base_url: url, health: { status: 'ok' } });
  return made;
}

describe('the built tree with api accounts of USPS, FedEx and DHL Express', () => {
  for (const k of CASES) {
    it(`${k.carrier}: rates, buys, prints every format, tracks to delivered and voids through an api account on its fake`, { timeout: 120_000 }, async () => {
      const fake = await k.start();
      if (!fake.specChecked) console.warn(`../shared/carrier-specs for ${k.carrier} is absent: its fake skipped the schema check (the rest still runs)`);
      try {
        const type = (await svc.request('GET', '/v1/carrier-types', { headers: c.v1 })).body.data.find((t: { carrier: string }) => t.carrier === k.carrier);
        expect(type.drivers).toContain('api');
        const made = await createApiAccount(k.carrier, fake.url, k.account, `Our ${k.carrier}`);
        for (const secret of k.secrets) expect(made.text).not.toContain(secret);
        const account: string = made.body.id;

        const rates = await svc.request('POST', '/v1/rates/query', {
          headers: c.v1,
          json: { ship_from: sanFrancisco, ship_to: k.shipTo, parcel, carrier_accounts: [account] },
        });
        expectStatus(svc, rates, 200, `${k.carrier} rates`);
        expect(rates.body.messages).toEqual([]);
        expect(rates.body.data.length).toBeGreaterThan(0);
        for (const o of rates.body.data) expect(o).toMatchObject({ carrier: k.carrier, carrier_account_id: account });
        expect(rates.body.data.map((o: { service_code: string }) => o.service_code)).toContain(k.service);
        expect(fake.count('rates')).toBeGreaterThan(0);

        const buy = async (format: LabelFormat) => {
          const order = await svc.request('POST', '/v1/orders', {
            headers: c.v1,
            json: {
              ship_from: sanFrancisco,
              ship_to: k.shipTo,
              line_items: [{ sku: 'MUG', name: 'Ceramic mug', quantity: 1, weight_oz: 12, unit_price: { amount: 1250, currency: 'USD' } }],
              parcel,
            },
          });
          expectStatus(svc, order, 201, `order for ${k.carrier}`);
          const bought = await svc.request('POST', '/v1/shipments', {
            headers: { ...c.v1, 'idempotency-key': `built-${k.carrier}-${order.body.id}` },
            json: { order_id: order.body.id, service_code: k.service, carrier_account_id: account, label_format: format },
          });
          expectStatus(svc, bought, 201, `${k.carrier} label purchase as ${format}`);
          expect(bought.body).toMatchObject({ carrier: k.carrier, carrier_account_id: account, service_code: k.service, status: 'label_purchased' });
          expect(bought.body.tracking_number).toMatch(k.tracking);
          return bought.body as { id: string; tracking_number: string };
        };

        const shipment = await buy(k.buyAs);
        expect(k.askedImage(lastBody(fake, k.labelOp)), 'the image asked of the carrier').toBe(k.asked);
        if (k.carrier === 'dhl_express') {
          // The documents MyDHL issues beside the label (waybill, invoice, …) are kept and served
          // beside ours, as received.
          const docs = await svc.request('GET', `/v1/shipments/${shipment.id}/documents`, { headers: c.v1 });
          expectStatus(svc, docs, 200, 'DHL shipment documents');
          const fromDhl = (docs.body.data as Array<{ type: string; source: string; url: string }>).filter((d) => d.source === 'carrier');
          expect(fromDhl.length, JSON.stringify(docs.body)).toBeGreaterThan(0);
          for (const doc of fromDhl) {
            const file = await svc.request('GET', new URL(doc.url).pathname, { headers: c.v1 });
            expectStatus(svc, file, 200, `DHL document ${doc.type}`);
            expect(file.headers.get('content-type'), doc.type).toContain('application/pdf');
          }
        }
        for (const format of LABEL_FORMATS) {
          const label = await svc.request('GET', `/v1/shipments/${shipment.id}/label?format=${format}`, { headers: c.v1 });
          if (SERVABLE[k.issued].includes(format)) {
            expectStatus(svc, label, 200, `${k.carrier} label (issued ${k.issued}) as ${format}`);
            const [type, magic] = SERVED[format];
            expect(label.headers.get('content-type'), format).toContain(type);
            expect(label.text.slice(0, 8), format).toContain(magic);
          } else {
            expectCommonError(label, 422, 'label_format_unavailable');
            expect(label.body.details).toEqual([{ field: 'format', message: expect.stringContaining(`ask for ${SERVABLE[k.issued][0]}`) }]);
          }
        }

        const tracksBefore = fake.count(k.trackOp);
        const refreshed = await svc.request('POST', `/v1/tracking/${shipment.tracking_number}/refresh`, { headers: c.v1 });
        expectStatus(svc, refreshed, 200, `${k.carrier} tracking refresh`);
        expect(refreshed.body.status).toBe('delivered');
        expect(fake.count(k.trackOp)).toBe(tracksBefore + 1);

        // A second label, bought as letter-size PDF (each of these carriers issues a 4×6 PDF for it,
        // placed on a letter page), is served in its own format and then voided.
        const other = await buy('pdf_letter');
        const pdf = await svc.request('GET', `/v1/shipments/${other.id}/label`, { headers: c.v1 });
        expectStatus(svc, pdf, 200, `${k.carrier} letter PDF label`);
        expect(pdf.headers.get('content-type')).toContain('application/pdf');
        expect(pdf.text.slice(0, 8)).toContain('%PDF');
        const voidsBefore = k.voidOp ? fake.count(k.voidOp) : 0;
        const requestsBefore = fake.requests.length;
        const voided = await svc.request('POST', `/v1/shipments/${other.id}/void`, { headers: c.v1 });
        expectStatus(svc, voided, 200, `${k.carrier} void`);
        expect(voided.body.status).toBe('voided');
        if (k.voidOp) expect(fake.count(k.voidOp)).toBe(voidsBefore + 1);
        else expect(fake.requests.length, 'a DHL void with no pickup is local').toBe(requestsBefore);
        expectCommonError(await svc.request('POST', `/v1/shipments/${other.id}/void`, { headers: c.v1 }), 409, 'invalid_state');

        // The exchanges are written off the request path: wait for the last one (the second purchase's, or the void's).
        const exchanges = fake.requests.length;
        let logs = await svc.request('GET', `/v1/carrier-accounts/${account}/logs`, { headers: c.v1 });
        for (let i = 0; i < 50 && logs.status === 200 && logs.body.data.length < exchanges; i++) {
          await new Promise((r) => setTimeout(r, 100));
          logs = await svc.request('GET', `/v1/carrier-accounts/${account}/logs`, { headers: c.v1 });
        }
        expectStatus(svc, logs, 200, `${k.carrier} account logs`);
        expect(logs.body.data.length, 'every exchange with the carrier is logged').toBe(exchanges);
        const hidden = [...k.secrets, ...tokensSent(fake)];
        expect(hidden.length).toBeGreaterThan(k.secrets.length);
        for (const secret of hidden) {
          expect(logs.text, 'logs endpoint').not.toContain(secret);
          expect(svc.output(), 'service output').not.toContain(secret);
        }
        expect(fake.violations).toEqual([]);
      } finally {
        await fake.close();
      }
    });
  }

  it(
    "asks the four carriers' api accounts in one rate query: every good account's options, one message for the failing one",
    { timeout: 120_000 },
    async () => {
      // Different latencies; FedEx fails every attempt (503, then 500s: the first try and both
      // retries). A domestic lane: UPS and USPS quote it; DHL Express, international-only inside
      // the US as the simulation is, lists its services unavailable without being asked.
      const ups = await startFakeUps({ clientSecret: 'multi-ups-secret-01', specs: specs.ups, delayMs: { rates: 40 } });
      const usps = await startFakeUsps({ clientSecret: USPS_SECRET, specs: specs.usps, delayMs: { rates: 250 } });
      const fedex = await startFakeFedex({ secretKey: FEDEX_SECRET, specs: specs.fedex, delayMs: { rates: 120 } });
      const dhl = await startFakeDhl({ apiSecret: DHL_SECRET, specs: specs.dhl, delayMs: { rates: 60 } });
      const fakes = [ups, usps, fedex, dhl] as FakeCarrier[];
      try {
        const ids = {
          ups: (
            await createApiAccount(
              'ups',
              ups.url,
              { account_number: 'A1B2C3', credentials: { client_id: 'fake-client-id', client_secret: 'multi-ups-secret-01' } },
              'UPS (multi)',
            )
          ).body.id as string,
          usps: (await createApiAccount('usps', usps.url, CASES[0].account, 'USPS (multi)')).body.id as string,
          fedex: (await createApiAccount('fedex', fedex.url, CASES[1].account, 'FedEx (multi)')).body.id as string,
          dhl_express: (await createApiAccount('dhl_express', dhl.url, CASES[2].account, 'DHL (multi)')).body.id as string,
        };
        fedex.queue('rates', { status: 503 }, { status: 500, body: fedexFixture('error-internal') }, { status: 500, body: fedexFixture('error-internal') });
        const fedexRatesBefore = fedex.count('rates');
        const dhlRatesBefore = dhl.count('rates');

        const rates = await svc.request('POST', '/v1/rates/query', {
          headers: c.v1,
          json: { ship_from: sanFrancisco, ship_to: newYork, parcel, carrier_accounts: Object.values(ids) },
        });
        expectStatus(svc, rates, 200, 'rates from four api accounts');
        const byAccount = new Map<string, string[]>();
        for (const o of rates.body.data as { carrier: string; carrier_account_id: string; service_code: string }[]) {
          byAccount.set(o.carrier_account_id, [...(byAccount.get(o.carrier_account_id) ?? []), o.service_code]);
        }
        // Only the named accounts answered (no simulated default), each with its carrier's services.
        expect(new Set(byAccount.keys())).toEqual(new Set([ids.ups, ids.usps]));
        expect(byAccount.get(ids.ups)).toContain('ups_ground');
        expect(byAccount.get(ids.usps)).toContain('usps_ground_advantage');
        for (const o of rates.body.data) expect(o.carrier_account_id === ids.ups ? 'ups' : 'usps').toBe(o.carrier);
        expect(rates.body.messages).toEqual([{ carrier_account_id: ids.fedex, carrier: 'fedex', code: 'carrier_unavailable', message: expect.any(String) }]);
        expect(fedex.count('rates') - fedexRatesBefore, 'FedEx asked once and retried twice').toBe(3);
        expect(dhl.count('rates') - dhlRatesBefore, 'DHL not asked US-to-US').toBe(0);
        expect(rates.body.unavailable).toContainEqual({
          carrier: 'dhl_express',
          service_code: 'dhl_express_worldwide',
          reason: 'DHL Express offers no US-to-US service',
        });
        for (const [name, fake] of Object.entries({ ups, usps })) expect(fake.count('rates'), name).toBeGreaterThan(0);
        for (const fake of fakes) expect(fake.violations).toEqual([]);
        // No failure of one account is an error of the service, and no secret is printed.
        expect(svc.output()).not.toMatch(/"level":50/);
        for (const secret of ['multi-ups-secret-01', USPS_SECRET, USPS_PAYMENT_ACCOUNT, FEDEX_SECRET, DHL_SECRET, ...fakes.flatMap(tokensSent)])
          expect(svc.output()).not.toContain(secret);
      } finally {
        await Promise.all(fakes.map((f) => f.close()));
      }
    },
  );
});
