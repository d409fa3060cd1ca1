import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDhlSpecs, type DhlOperation, type DhlSpecs } from './dhl-spec.js';
import type { FakeCarrierSetup } from './carrier-api.js';
import { startFakeCarrierServer, type FakeReply, type FakeRequest } from './fake-carrier.js';

/**
 * A fake DHL Express (MyDHL API) on 127.0.0.1 (a double of DHL, not of our code). Every request
 * is checked against the operation in DHL's published OpenAPI description (route, basic auth,
 * path/query/header parameters, body; violations are recorded and answered 400 in DHL's problem
 * shape), every answer it gives is checked against the response schema, and it answers from
 * recorded fixtures (src/carriers/dhl_express/api/fixtures). When the description is absent,
 * `specChecked` is false and requests are answered unchecked.
 *
 * Scenarios are queued per operation (`queue('rates', {status: 503, ...})`); with nothing queued
 * an operation succeeds. Authentication is HTTP basic on every call (MyDHL has no token): a wrong
 * key or secret gets 401.
 */

export const DHL_FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/carriers/dhl_express/api/fixtures');

export function dhlFixture(name: string): any {
  return JSON.parse(readFileSync(resolve(DHL_FIXTURES_DIR, `${name}.json`), 'utf8'));
}

export type FakeDhlOperation = 'rates' | 'shipments' | 'track' | 'address_validate' | 'pickup' | 'pickup_cancel' | 'products';

const OPERATION_IDS: Record<string, FakeDhlOperation> = {
  'exp-api-rates-many': 'rates',
  'exp-api-products': 'products',
  'exp-api-shipments': 'shipments',
  'exp-api-shipments-tracking': 'track',
  'exp-api-address-validate': 'address_validate',
  'exp-api-pickups': 'pickup',
  'exp-api-pickups-cancel': 'pickup_cancel',
};

export type { FakeReply } from './fake-carrier.js';

export type FakeDhlRequest = FakeRequest<FakeDhlOperation>;

/** Label documents the fake issues, per requested encodingFormat (tiny but real files). */
export const FAKE_DHL_LABELS: Record<'PDF' | 'ZPL', Buffer> = {
  PDF: Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 288 576]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  ),
  ZPL: Buffer.from('^XA^FO40,40^A0N,40,40^FDDHL EXPRESS WORLDWIDE^FS^FO40,120^BCN,120,Y,N,N^FDJD014600000000000001^FS^XZ\n'),
};

/** The documents of fixture shipment-international, by MyDHL typeCode (what a dutiable shipment gets beside its labels). */
export function fakeDhlDocument(typeCode: string): Buffer {
  const doc = (dhlFixture('shipment-international').documents as any[]).find((d) => d.typeCode === typeCode);
  return Buffer.from(doc.content, 'base64');
}

export interface FakeDhlOptions {
  apiKey?: string;
  apiSecret?: string;
  /** Reuse already-loaded specs (parsing DHL's 1.2 MB description takes about half a second). */
  specs?: DhlSpecs | null;
  /** Milliseconds each answer to an operation waits before it is sent (a carrier's latency). */
  delayMs?: Partial<Record<FakeDhlOperation, number>>;
}

function problem(instance: string, status: number, title: string, detail: string) {
  return { instance, detail, title, message: title, status: String(status) };
}

export async function startFakeDhl(options: FakeDhlOptions = {}) {
  const specs = options.specs === undefined ? loadDhlSpecs() : options.specs;
  const apiKey = options.apiKey ?? 'fake-api-key';
  const apiSecret = options.apiSecret ?? 'fake-api-secret';
  const shipments = new Map<string, { pieces: string[]; pickup: string | null }>();
  const pickups = new Map<string, { cancelled: boolean }>();
  let seq = 0;

  function defaultReply(op: FakeDhlOperation, url: URL, body: any): FakeReply {
    switch (op) {
      case 'rates': {
        const reply = dhlFixture((body?.packages ?? []).length > 1 ? 'rates-multi' : 'rates');
        const lines = dhlOptionLines(body?.valueAddedServices);
        for (const product of lines.length ? reply.products : []) {
          for (const block of product.detailedPriceBreakdown ?? []) {
            if (block.currencyType === 'BILLC')
              block.breakdown.push(
                ...lines.map((l) => ({
                  name: l.name,
                  serviceCode: l.code,
                  localServiceCode: l.code,
                  serviceTypeCode: 'XCH',
                  price: l.price,
                  isCustomerAgreement: false,
                  isMarketedService: true,
                })),
              );
          }
          for (const t of product.totalPrice ?? []) if (t.priceCurrency === 'USD') t.price = roundCents(t.price + lines.reduce((s, l) => s + l.price, 0));
        }
        return { body: reply };
      }
      case 'shipments': {
        const awb = String(1_100_000_000 + ++seq);
        const packages: any[] = body?.content?.packages ?? [];
        const format = body?.outputImageProperties?.encodingFormat === 'zpl' ? 'ZPL' : 'PDF';
        const linked = (body?.getAdditionalInformation ?? []).some((i: any) => i.typeCode === 'linkLabelsByPieces' && i.isRequested);
        // A dutiable shipment: DHL prints the waybill document and a receipt beside the labels, and
        // the commercial invoice when imageOptions asks for it (fixture shipment-international).
        const dutiable = !!body?.content?.exportDeclaration;
        const invoiceAsked = (body?.outputImageProperties?.imageOptions ?? []).some((o: any) => o.typeCode === 'invoice' && o.isRequested !== false);
        const reply = dhlFixture(dutiable ? 'shipment-international' : 'shipment');
        const extraDocuments = (reply.documents as any[]).filter((d) => d.typeCode !== 'label' && (d.typeCode !== 'invoice' || invoiceAsked));
        reply.shipmentTrackingNumber = awb;
        reply.trackingUrl = `https://express.api.dhl.com/mydhlapi/test/shipments/${awb}/tracking`;
        const pieces = packages.map((_p, i) => `JD0146${awb}${String(i + 1).padStart(4, '0')}`);
        reply.packages = packages.map((p, i) => ({ referenceNumber: p.referenceNumber ?? i + 1, trackingNumber: pieces[i] }));
        reply.documents = packages.map((p, i) => ({
          imageFormat: format,
          content: FAKE_DHL_LABELS[format].toString('base64'),
          typeCode: 'label',
          ...(linked ? { packageReferenceNumber: p.referenceNumber ?? i + 1 } : {}),
        }));
        reply.documents.push(...extraDocuments);
        let pickup: string | null = null;
        if (body?.pickup?.isRequested) {
          pickup = `PRG26030${String(++seq).padStart(7, '0')}`;
          pickups.set(pickup, { cancelled: false });
          reply.dispatchConfirmationNumber = pickup;
        }
        const lines = dhlOptionLines(body?.valueAddedServices);
        for (const charge of lines.length ? (reply.shipmentCharges ?? []) : []) {
          if (charge.currencyType === 'BILLC')
            charge.serviceBreakdown = [...(charge.serviceBreakdown ?? []), ...lines.map((l) => ({ name: l.name, price: l.price, typeCode: l.code }))];
          if (charge.priceCurrency === 'USD') charge.price = roundCents(charge.price + lines.reduce((s, l) => s + l.price, 0));
        }
        shipments.set(awb, { pieces, pickup });
        return { status: 201, body: reply };
      }
      case 'track': {
        const n = decodeURIComponent(url.pathname.split('/')[2] ?? '');
        const reply = dhlFixture('track-delivered');
        reply.shipments[0].shipmentTrackingNumber = n;
        return { body: reply };
      }
      case 'address_validate':
        return { body: dhlFixture('address-validate') };
      case 'products':
        return { body: dhlFixture('products') };
      case 'pickup': {
        const n = `PRG26030${String(++seq).padStart(7, '0')}`;
        pickups.set(n, { cancelled: false });
        return { status: 201, body: { ...dhlFixture('pickup-create'), dispatchConfirmationNumbers: [n] } };
      }
      case 'pickup_cancel': {
        const n = decodeURIComponent(url.pathname.split('/').pop() ?? '');
        const p = pickups.get(n);
        if (!p) return { status: 404, body: { ...dhlFixture('pickup-not-found'), instance: `/expressapi${url.pathname}${url.search}` } };
        if (p.cancelled) return { status: 400, body: { ...dhlFixture('pickup-already-cancelled'), instance: `/expressapi${url.pathname}` } };
        p.cancelled = true;
        return { status: 200 };
      }
    }
  }

  const expectedAuth = `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString('base64')}`;
  const core = await startFakeCarrierServer<FakeDhlOperation, DhlOperation>({
    host: 'fake-dhl',
    specs,
    operationOf: (op, method, url) => (op ? (OPERATION_IDS[op.operationId] ?? null) : guessOperation(method, url.pathname)),
    reply({ name, url, headers, body, problems, queued }) {
      // Authentication first, as DHL's gateway does.
      if (headers.authorization !== expectedAuth) return { status: 401, body: { ...dhlFixture('error-auth'), instance: `/expressapi${url.pathname}` } };
      if (!name) return { status: 404, body: problem(`/expressapi${url.pathname}`, 404, 'Not found', 'No such operation') };
      if (problems.length) return { status: 400, body: problem(`/expressapi${url.pathname}`, 400, 'Bad request', problems.slice(0, 5).join('; ')) };
      return queued() ?? defaultReply(name, url, parseOrNull(body));
    },
    checkAnswer(op, status, reply) {
      if (!specs || reply.raw !== undefined) return [];
      const problems = specs.checkResponse(op, status, reply.body);
      // DHL documents no 401/429/503 answers: an undocumented status is fine to play.
      return problems.length && problems[0].includes('documents no ' + status) ? [] : problems;
    },
    contentType: (status) => (status >= 400 ? 'application/problem+json' : 'application/json'),
    delayMs: options.delayMs,
  });

  return { ...core, shipments, pickups };
}

export type FakeDhl = Awaited<ReturnType<typeof startFakeDhl>>;

/** The driver tests' set-up of the fake DHL Express and its account (test/helpers/carrier-api.ts). */
export const FAKE_DHL_SETUP: FakeCarrierSetup<DhlSpecs, FakeDhl> = {
  name: 'DHL Express',
  folder: 'dhl_express',
  loadSpecs: loadDhlSpecs,
  startFake: (specs) => startFakeDhl({ specs }),
  account: { account_number: '123456789', credentials: { api_key: 'fake-api-key', api_secret: 'fake-api-secret' } },
};

function parseOrNull(body: string): unknown {
  try {
    return body ? JSON.parse(body) : null;
  } catch {
    return null;
  }
}

/** Without DHL's description, route by path alone. */
function guessOperation(method: string, path: string): FakeDhlOperation | null {
  if (method === 'GET' && path === '/products') return 'products';
  if (method === 'POST' && path === '/rates') return 'rates';
  if (method === 'POST' && path === '/shipments') return 'shipments';
  if (method === 'GET' && /^\/shipments\/[^/]+\/tracking$/.test(path)) return 'track';
  if (method === 'GET' && path === '/address-validate') return 'address_validate';
  if (method === 'POST' && path === '/pickups') return 'pickup';
  if (method === 'DELETE' && /^\/pickups\/[^/]+$/.test(path)) return 'pickup_cancel';
  return null;
}

/** What the fake charges (USD) for each option service a request names, under DHL's service codes. */
export const FAKE_DHL_OPTION_CHARGES: Readonly<Record<string, { name: string; price: number }>> = {
  II: { name: 'SHIPMENT INSURANCE', price: 17.5 },
  AA: { name: 'SATURDAY DELIVERY', price: 25 },
  SF: { name: 'DIRECT SIGNATURE', price: 8 },
  SD: { name: 'ADULT SIGNATURE', price: 9 },
  HC: { name: 'DRY ICE UN1845', price: 10 },
  HV: { name: 'LITHIUM ION PI967-SECTION II', price: 0.5 },
  HW: { name: 'LITHIUM METAL PI970-SECTION II', price: 0.5 },
  HD: { name: 'LITHIUM ION PI966-SECTION II', price: 0.5 },
};

function dhlOptionLines(services: unknown): { code: string; name: string; price: number }[] {
  if (!Array.isArray(services)) return [];
  return services.flatMap((v: any) => {
    const charge = FAKE_DHL_OPTION_CHARGES[v?.serviceCode];
    return charge ? [{ code: v.serviceCode as string, ...charge }] : [];
  });
}

const roundCents = (n: number) => Math.round(n * 100) / 100;
