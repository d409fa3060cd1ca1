import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fedexCheckDigit } from '../../src/carriers/fedex/tracking-numbers.js';
import type { SpecOperation } from './carrier-openapi.js';
import type { FakeCarrierSetup } from './carrier-api.js';
import { startFakeCarrierServer, type FakeReply, type FakeRequest } from './fake-carrier.js';
import { loadFedexSpecs, type FedexSpecs } from './fedex-spec.js';

/**
 * A fake FedEx on 127.0.0.1 (a double of FedEx, not of our code). Every request is checked
 * against the operation's request description in FedEx's published OpenAPI documents (path,
 * header parameters, body; violations are recorded and answered 400 in FedEx's error shape),
 * every answer it gives is checked against the response schema, and it answers from recorded
 * fixtures (src/carriers/fedex/api/fixtures). When ../shared/carrier-specs/fedex is absent,
 * `specChecked` is false and requests are answered unchecked.
 *
 * Scenarios are queued per operation (`queue('rates', {status: 503, ...})`); with nothing
 * queued, an operation succeeds. OAuth is real enough: a wrong API key or secret key gets 401,
 * bearer tokens are checked, `expireTokens()` makes every issued token stale (FedEx answers 401).
 */

export const FEDEX_FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/carriers/fedex/api/fixtures');

export function fedexFixture(name: string): any {
  return JSON.parse(readFileSync(resolve(FEDEX_FIXTURES_DIR, `${name}.json`), 'utf8'));
}

export type FakeFedexOperation = 'token' | 'rates' | 'ship' | 'cancel' | 'track' | 'address' | 'pickup' | 'pickup_cancel' | 'close';

const OPERATION_IDS: Record<string, FakeFedexOperation> = {
  'API Authorization': 'token',
  'Rate and Transit times': 'rates',
  'Create Shipment': 'ship',
  'Cancel Shipment': 'cancel',
  'Track by Tracking Number': 'track',
  'Validate Address': 'address',
  'Create Pickup': 'pickup',
  'Cancel Pickup': 'pickup_cancel',
  groundPerformEndOfDayClose: 'close',
};

const PATHS: Record<string, FakeFedexOperation> = {
  'POST /oauth/token': 'token',
  'POST /rate/v1/rates/quotes': 'rates',
  'POST /ship/v1/shipments': 'ship',
  'PUT /ship/v1/shipments/cancel': 'cancel',
  'POST /track/v1/trackingnumbers': 'track',
  'POST /address/v1/addresses/resolve': 'address',
  'POST /pickup/v1/pickups': 'pickup',
  'PUT /pickup/v1/pickups/cancel': 'pickup_cancel',
  'PUT /ship/v1/endofday/': 'close',
};

export type { FakeReply } from './fake-carrier.js';

export type FakeFedexRequest = FakeRequest<FakeFedexOperation>;

/** Label images the fake issues, per requested imageType (tiny but real files). */
export const FAKE_FEDEX_LABELS: Record<string, Buffer> = {
  // One 4×6 page (a multi-piece label file is counted page by page).
  PDF: Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 288 432]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  ),
  PNG: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
  ZPLII: Buffer.from('^XA^FO50,50^A0N,40,40^FDFEDEX GROUND^FS^FO50,120^BCN,100,Y,N,N^FD794953535000^FS^XZ\n'),
};

/** The commercial invoice in fixture ship-international (what the fake returns when one is asked for). */
export const FAKE_FEDEX_INVOICE = Buffer.from('%PDF-1.4\n% fake FedEx commercial invoice\n%%EOF\n');

export interface FakeFedexOptions {
  apiKey?: string;
  secretKey?: string;
  tokenLifetimeS?: number;
  /** Reuse already-loaded specs (FedEx's documents are large: load them once per test file). */
  specs?: FedexSpecs | null;
  /** Milliseconds each answer to an operation waits before it is sent (a carrier's latency). */
  delayMs?: Partial<Record<FakeFedexOperation, number>>;
}

const fedexError = (code: string, message: string) => ({ transactionId: randomBytes(8).toString('hex'), errors: [{ code, message }] });

export async function startFakeFedex(options: FakeFedexOptions = {}) {
  const specs = options.specs === undefined ? loadFedexSpecs() : options.specs;
  const apiKey = options.apiKey ?? 'fake-api-key';
  const secretKey = options.secretKey ?? 'fake-secret-key';
  let tokenLifetimeS = options.tokenLifetimeS ?? 3599;
  const validTokens = new Set<string>();
  const shipments = new Map<string, { cancelled: boolean; trackingNumbers: string[]; serviceType?: string; shipDate?: string; closed?: boolean }>();
  let seq = 0;

  const trackingNumber = () => {
    const serial = `7949${String(++seq).padStart(7, '0')}`;
    return `${serial}${fedexCheckDigit(serial)}`;
  };

  function defaultReply(op: FakeFedexOperation, body: any): FakeReply {
    switch (op) {
      case 'token': {
        const token = `tok_${randomBytes(12).toString('hex')}`;
        validTokens.add(token);
        return { body: { ...fedexFixture('token'), access_token: token, expires_in: tokenLifetimeS } };
      }
      case 'rates': {
        const packages = body?.requestedShipment?.requestedPackageLineItems ?? [];
        const reply = fedexFixture(packages.length > 1 ? 'rate-quotes-multi' : 'rate-quotes');
        const refusal = checkPackaging(body?.requestedShipment);
        if (refusal) return refusal;
        for (const r of reply.output.rateReplyDetails) priceOneRate(r, r.ratedShipmentDetails ?? [], 'totalNetCharge', body?.requestedShipment);
        for (const r of reply.output.rateReplyDetails) {
          for (const d of r.ratedShipmentDetails ?? [])
            if (d.shipmentRateDetail) priceFedexOptions(d, d.shipmentRateDetail, 'surCharges', 'type', body?.requestedShipment);
        }
        return { body: reply };
      }
      case 'ship': {
        const shipment = body?.requestedShipment ?? {};
        const refusal = checkPackaging(shipment);
        if (refusal) return refusal;
        const imageType: string = shipment.labelSpecification?.imageType ?? 'PDF';
        const packages: unknown[] = shipment.requestedPackageLineItems ?? [];
        const numbers = packages.map(() => trackingNumber());
        // A commercial invoice asked for (shippingDocumentSpecification): FedEx returns it in shipmentDocuments.
        const invoice = (shipment.shippingDocumentSpecification?.shippingDocumentTypes ?? []).includes('COMMERCIAL_INVOICE');
        const reply = fedexFixture(invoice ? 'ship-international' : 'ship');
        const result = reply.output.transactionShipments[0];
        for (const d of result.shipmentDocuments ?? []) d.trackingNumber = numbers[0];
        const template = result.pieceResponses[0];
        result.serviceType = shipment.serviceType ?? result.serviceType;
        result.masterTrackingNumber = numbers[0];
        result.pieceResponses = numbers.map((n, i) => ({
          ...template,
          masterTrackingNumber: numbers[0],
          trackingNumber: n,
          acceptanceTrackingNumber: n,
          packageSequenceNumber: i + 1,
          packageDocuments: [
            {
              contentType: 'LABEL',
              copiesToPrint: 1,
              docType: imageType,
              trackingNumber: n,
              encodedLabel: (FAKE_FEDEX_LABELS[imageType] ?? FAKE_FEDEX_LABELS.PDF).toString('base64'),
            },
          ],
        }));
        priceOneRate(
          { serviceType: shipment.serviceType },
          result.completedShipmentDetail?.shipmentRating?.shipmentRateDetails ?? [],
          'totalNetCharge',
          shipment,
        );
        for (const d of result.completedShipmentDetail?.shipmentRating?.shipmentRateDetails ?? [])
          priceFedexOptions(d, d, 'surcharges', 'surchargeType', shipment);
        shipments.set(numbers[0], { cancelled: false, trackingNumbers: numbers, serviceType: shipment.serviceType, shipDate: shipment.shipDatestamp });
        return { body: reply };
      }
      case 'cancel': {
        const s = shipments.get(String(body?.trackingNumber ?? ''));
        if (!s)
          return {
            status: 400,
            body: fedexError('TRACKING.TRACKINGNUMBER.NOTFOUND', 'Tracking number cannot be found. Please correct the tracking number and try again.'),
          };
        if (s.cancelled) return { status: 400, body: fedexFixture('error-cancel') };
        s.cancelled = true;
        return { body: fedexFixture('cancel') };
      }
      case 'track': {
        const n = String(body?.trackingInfo?.[0]?.trackingNumberInfo?.trackingNumber ?? '');
        const reply = fedexFixture('track-delivered');
        const result = reply.output.completeTrackResults[0];
        result.trackingNumber = n;
        result.trackResults[0].trackingNumberInfo.trackingNumber = n;
        return { body: reply };
      }
      case 'address':
        return { body: fedexFixture('address-resolved') };
      case 'pickup':
        return { body: fedexFixture('pickup-create') };
      case 'pickup_cancel':
        return { body: fedexFixture('pickup-cancel') };
      case 'close': {
        // Every open Ground shipment of the close date is closed; none open → FedEx's refusal.
        const open = [...shipments.values()].filter((s) => !s.cancelled && !s.closed && /GROUND/.test(s.serviceType ?? '') && s.shipDate === body?.closeDate);
        if (open.length === 0)
          return { status: 400, body: fedexError('GROUNDEOD.NOSHIPMENTS.NOTFOUND', 'No FedEx Ground shipments were found to close for the close date.') };
        for (const s of open) s.closed = true;
        const reply = fedexFixture('close');
        reply.transactionId = randomBytes(16).toString('hex');
        return { body: reply };
      }
    }
  }

  const core = await startFakeCarrierServer<FakeFedexOperation, SpecOperation>({
    host: 'fake-fedex',
    specs,
    operationOf: (op, method, url) => (op ? (OPERATION_IDS[op.operationId] ?? null) : (PATHS[`${method} ${url.pathname}`] ?? null)),
    reply({ name, headers, body, problems, queued }) {
      if (!name) return { status: 404, body: fedexError('NOT.FOUND.ERROR', 'The resource you requested is no longer available.') };
      if (problems.length) return { status: 400, body: { transactionId: 'schema', errors: problems.slice(0, 5).map((p) => ({ code: 'SCHEMA', message: p })) } };
      const parsed = readBody(name, body);
      // Authentication first, as FedEx does.
      if (name === 'token') {
        if (parsed?.client_id !== apiKey || parsed?.client_secret !== secretKey) return { status: 401, body: fedexFixture('error-auth') };
      } else {
        const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
        if (!bearer || !validTokens.has(bearer)) return { status: 401, body: fedexFixture('error-token-expired') };
      }
      return queued() ?? defaultReply(name, parsed);
    },
    checkAnswer(op, status, reply) {
      if (!specs || reply.raw !== undefined || reply.body === undefined) return [];
      const problems = specs.checkResponse(op, status, reply.body);
      // FedEx documents no 429: an undocumented status is fine to play.
      return problems.length && problems[0].includes('documents no') ? [] : problems;
    },
    delayMs: options.delayMs,
  });

  return {
    ...core,
    shipments,
    /** Every token issued so far becomes stale: FedEx answers 401 until a new one is fetched. */
    expireTokens() {
      validTokens.clear();
    },
    setTokenLifetime(seconds: number) {
      tokenLifetimeS = seconds;
    },
  };
}

export type FakeFedex = Awaited<ReturnType<typeof startFakeFedex>>;

/** The driver tests' set-up of the fake FedEx and its account (test/helpers/carrier-api.ts). */
export const FAKE_FEDEX_SETUP: FakeCarrierSetup<FedexSpecs, FakeFedex> = {
  name: 'FedEx',
  folder: 'fedex',
  loadSpecs: loadFedexSpecs,
  startFake: (specs) => startFakeFedex({ specs }),
  account: { account_number: '740561073', credentials: { api_key: 'fake-api-key', secret_key: 'fake-secret-key' } },
};

/** The token form as fields, every other body as JSON (null when it is not). */
function readBody(op: FakeFedexOperation, body: string): any {
  if (op === 'token') return Object.fromEntries(new URLSearchParams(body));
  try {
    return body ? JSON.parse(body) : null;
  } catch {
    return null;
  }
}

/** What the fake charges for each option a request carries, per package, under FedEx's surcharge types. */
export const FAKE_FEDEX_OPTION_CHARGES = {
  SIGNATURE_OPTION: 6.75,
  ADULT_SIGNATURE: 7.9,
  SATURDAY_DELIVERY: 16,
  DANGEROUS_GOODS: 42,
  DRY_ICE: 6.5,
  INSURED_VALUE: 4.2,
} as const;

/**
 * FedEx One Rate as the fake prices it (cents, per package, list and account alike): a flat
 * price per FedEx packaging and Express service, fuel included, no other surcharge.
 */
export const FAKE_FEDEX_ONE_RATE: Record<string, Record<string, number>> = {
  FEDEX_ENVELOPE: { PRIORITY_OVERNIGHT: 7785, STANDARD_OVERNIGHT: 7065, FEDEX_2_DAY: 2740, FEDEX_EXPRESS_SAVER: 2295 },
  FEDEX_PAK: { PRIORITY_OVERNIGHT: 8295, STANDARD_OVERNIGHT: 7565, FEDEX_2_DAY: 2945, FEDEX_EXPRESS_SAVER: 2495 },
};
const FEDEX_PACKAGING_TYPES = [
  'YOUR_PACKAGING',
  'FEDEX_ENVELOPE',
  'FEDEX_PAK',
  'FEDEX_BOX',
  'FEDEX_SMALL_BOX',
  'FEDEX_MEDIUM_BOX',
  'FEDEX_LARGE_BOX',
  'FEDEX_EXTRA_LARGE_BOX',
  'FEDEX_10KG_BOX',
  'FEDEX_25KG_BOX',
  'FEDEX_TUBE',
];

/** FedEx's refusals of a packaging: a type it does not know, One Rate without a FedEx packaging, Ground in FedEx packaging. */
function checkPackaging(shipment: any): FakeReply | null {
  const packaging = shipment?.packagingType ?? 'YOUR_PACKAGING';
  const oneRate = (shipment?.shipmentSpecialServices?.specialServiceTypes ?? []).includes('FEDEX_ONE_RATE');
  if (!FEDEX_PACKAGING_TYPES.includes(packaging)) return { status: 400, body: fedexError('PACKAGINGTYPE.INVALID', `Packaging type ${packaging} is invalid.`) };
  if (oneRate && !FAKE_FEDEX_ONE_RATE[packaging])
    return { status: 400, body: fedexError('ONERATE.PACKAGING.INVALID', 'FedEx One Rate requires FedEx packaging.') };
  if (packaging !== 'YOUR_PACKAGING' && /GROUND/.test(shipment?.serviceType ?? ''))
    return { status: 400, body: fedexError('PACKAGING.SERVICE.INVALID', 'FedEx Ground takes only YOUR_PACKAGING.') };
  return null;
}

/** With FEDEX_ONE_RATE: each Express service's charge is the flat price per package (Ground is rated as your packaging). */
function priceOneRate(reply: any, details: any[], totalKey: string, shipment: any) {
  const packaging = shipment?.packagingType;
  if (!(shipment?.shipmentSpecialServices?.specialServiceTypes ?? []).includes('FEDEX_ONE_RATE')) return;
  const flat = FAKE_FEDEX_ONE_RATE[packaging]?.[reply.serviceType];
  if (flat === undefined) return;
  const cents = flat * (shipment.requestedPackageLineItems?.length ?? 1);
  reply.packagingType = packaging;
  for (const d of details) {
    d[totalKey] = cents / 100;
    if (typeof d.totalNetFedExCharge === 'number') d.totalNetFedExCharge = cents / 100;
    if (typeof d.totalBaseCharge === 'number') d.totalBaseCharge = cents / 100;
    if (d.shipmentRateDetail) d.shipmentRateDetail.surCharges = [];
    if (Array.isArray(d.surcharges)) d.surcharges = [];
    if (typeof d.totalSurcharges === 'number') d.totalSurcharges = 0;
    if (typeof d.shipmentRateDetail?.totalSurcharges === 'number') d.shipmentRateDetail.totalSurcharges = 0;
  }
}

function priceFedexOptions(totals: any, detail: any, listKey: 'surCharges' | 'surcharges', typeKey: 'type' | 'surchargeType', shipment: any) {
  const lines: { type: string; amount: number }[] = [];
  for (const p of shipment?.requestedPackageLineItems ?? []) {
    const special = p.packageSpecialServices ?? {};
    const types: string[] = special.specialServiceTypes ?? [];
    if (types.includes('SIGNATURE_OPTION'))
      lines.push({
        type: 'SIGNATURE_OPTION',
        amount: special.signatureOptionType === 'ADULT' ? FAKE_FEDEX_OPTION_CHARGES.ADULT_SIGNATURE : FAKE_FEDEX_OPTION_CHARGES.SIGNATURE_OPTION,
      });
    if (types.includes('DANGEROUS_GOODS')) lines.push({ type: 'DANGEROUS_GOODS', amount: FAKE_FEDEX_OPTION_CHARGES.DANGEROUS_GOODS });
    if (types.includes('DRY_ICE')) lines.push({ type: 'DRY_ICE', amount: FAKE_FEDEX_OPTION_CHARGES.DRY_ICE });
    if (p.declaredValue) lines.push({ type: 'INSURED_VALUE', amount: FAKE_FEDEX_OPTION_CHARGES.INSURED_VALUE });
  }
  if ((shipment?.shipmentSpecialServices?.specialServiceTypes ?? []).includes('SATURDAY_DELIVERY'))
    lines.push({ type: 'SATURDAY_DELIVERY', amount: FAKE_FEDEX_OPTION_CHARGES.SATURDAY_DELIVERY });
  if (lines.length === 0) return;
  const added = lines.reduce((s, l) => s + l.amount, 0);
  const round = (n: number) => Math.round(n * 100) / 100;
  detail[listKey] = [
    ...(detail[listKey] ?? []),
    ...lines.map((l) => ({ [typeKey]: l.type, description: l.type.replace(/_/g, ' ').toLowerCase(), amount: l.amount })),
  ];
  if (typeof detail.totalSurcharges === 'number') detail.totalSurcharges = round(detail.totalSurcharges + added);
  for (const k of ['totalNetCharge', 'totalNetFedExCharge', 'totalNetChargeWithDutiesAndTaxes'])
    if (typeof totals[k] === 'number') totals[k] = round(totals[k] + added);
}
