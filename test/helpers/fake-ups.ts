import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeCarrierSetup } from './carrier-api.js';
import { startFakeCarrierServer, type FakeReply, type FakeRequest } from './fake-carrier.js';
import { loadUpsSpecs, type UpsOperation, type UpsSpecs } from './ups-spec.js';

/**
 * A fake UPS on 127.0.0.1 (a double of UPS, not of our code). Every request is checked against
 * the operation's request description in UPS's published OpenAPI documents (path, parameters,
 * headers, body; violations are recorded and answered 400 in UPS's error shape), every answer
 * it gives is checked against the response schema, and it answers from recorded fixtures
 * (src/carriers/ups/api/fixtures). When ../shared/carrier-specs/ups is absent, `specChecked` is
 * false and requests are answered unchecked.
 *
 * Scenarios are queued per operation (`queue('rates', {status: 503, ...})`); with nothing
 * queued, an operation succeeds. OAuth is real enough: wrong client credentials get 401,
 * bearer tokens are checked, `expireTokens()` makes every issued token stale (UPS answers 401).
 */

export const UPS_FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/carriers/ups/api/fixtures');

const fixtureTexts = new Map<string, string>();

/** A fresh copy of a recorded fixture (callers change it); the file is read once (the bench's fake answers thousands). */
export function upsFixture(name: string): any {
  let text = fixtureTexts.get(name);
  if (text === undefined) {
    text = readFileSync(resolve(UPS_FIXTURES_DIR, `${name}.json`), 'utf8');
    fixtureTexts.set(name, text);
  }
  return JSON.parse(text);
}

export type FakeUpsOperation = 'token' | 'rates' | 'ship' | 'void' | 'track' | 'xav' | 'pickup' | 'pickup_cancel';

const OPERATION_IDS: Record<string, FakeUpsOperation> = {
  CreateToken: 'token',
  Rate: 'rates',
  Shipment: 'ship',
  VoidShipment: 'void',
  getSingleTrackResponseUsingGET: 'track',
  AddressValidation: 'xav',
  'Pickup Creation': 'pickup',
  'Pickup Cancel': 'pickup_cancel',
};

export type { FakeReply } from './fake-carrier.js';

export type FakeUpsRequest = FakeRequest<FakeUpsOperation>;

/** Label images the fake issues, per requested LabelImageFormat (tiny but real files). */
export const FAKE_LABELS: Record<string, Buffer> = {
  GIF: Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64'),
  PNG: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
  ZPL: Buffer.from('^XA^FO50,50^A0N,40,40^FDUPS GROUND^FS^FO50,120^BCN,100,Y,N,N^FD1ZFAKE^FS^XZ\n'),
};

/** The international forms PDF the fake prints when a shipment asks for InternationalForms (fixture ship-international). */
export const FAKE_FORM_PDF = Buffer.from('%PDF-1.4\n% fake UPS commercial invoice\n%%EOF\n');

export interface FakeUpsOptions {
  clientId?: string;
  clientSecret?: string;
  tokenLifetimeS?: number;
  /** Reuse already-loaded specs (loading UPS's documents takes a few seconds). */
  specs?: UpsSpecs | null;
  /** Milliseconds each answer to an operation waits before it is sent (a carrier's latency: the bench's 50 ms UPS). */
  delayMs?: Partial<Record<FakeUpsOperation, number>>;
  /** Operations never answered, every time (a carrier that hangs: the bench's deadline row). */
  hang?: readonly FakeUpsOperation[];
}

export async function startFakeUps(options: FakeUpsOptions = {}) {
  const specs = options.specs === undefined ? loadUpsSpecs() : options.specs;
  const clientId = options.clientId ?? 'fake-client-id';
  const clientSecret = options.clientSecret ?? 'fake-client-secret';
  let tokenLifetimeS = options.tokenLifetimeS ?? 14399;
  const validTokens = new Set<string>();
  const shipments = new Map<string, { voided: boolean; trackingNumbers: string[]; voidedPackages: Set<string> }>();
  let seq = 0;
  const hung = new Set(options.hang ?? []);

  const trackingNumber = () => `1ZFAKE${String(++seq).padStart(12, '0')}`;

  function defaultReply(op: FakeUpsOperation, url: URL, body: any): FakeReply {
    switch (op) {
      case 'token': {
        const token = `tok_${randomBytes(12).toString('hex')}`;
        validTokens.add(token);
        return { body: { ...upsFixture('token'), access_token: token, client_id: clientId, expires_in: String(tokenLifetimeS) } };
      }
      case 'rates': {
        const shipment = body?.RateRequest?.Shipment ?? {};
        const packages = shipment.Package ?? [];
        const reply = upsFixture(packages.length > 1 ? 'rate-shop-multi' : 'rate-shop');
        priceLetters(reply.RateResponse, packages, 'PackagingType');
        for (const rated of [reply.RateResponse.RatedShipment].flat()) priceOptions(rated, rated, rated.NegotiatedRateCharges, shipment);
        return { body: reply };
      }
      case 'ship': {
        const shipment = body?.ShipmentRequest?.Shipment ?? {};
        const format: string = body?.ShipmentRequest?.LabelSpecification?.LabelImageFormat?.Code ?? 'GIF';
        const packages: any[] = [shipment.Package ?? []].flat();
        if (isLetter(packages, 'Packaging') && !FAKE_UPS_LETTER_RATES[shipment.Service?.Code]) {
          return {
            status: 400,
            body: { response: { errors: [{ code: '111500', message: 'The selected service is not available for the UPS Letter packaging type.' }] } },
          };
        }
        const numbers = packages.map(() => trackingNumber());
        // International forms asked for (a commercial invoice): UPS prints them beside the labels (Form).
        const international = !!shipment.ShipmentServiceOptions?.InternationalForms;
        const reply = upsFixture(international ? 'ship-international' : 'ship');
        const results = reply.ShipmentResponse.ShipmentResults;
        results.ShipmentIdentificationNumber = numbers[0];
        results.PackageResults = numbers.map((n) => ({
          TrackingNumber: n,
          ShippingLabel: { ImageFormat: { Code: format, Description: format }, GraphicImage: (FAKE_LABELS[format] ?? FAKE_LABELS.GIF).toString('base64') },
        }));
        if (isLetter(packages, 'Packaging')) {
          const cents = FAKE_UPS_LETTER_RATES[shipment.Service.Code]! * packages.length;
          results.ShipmentCharges = { ...results.ShipmentCharges, TransportationCharges: usd(cents), ItemizedCharges: [], TotalCharges: usd(cents) };
          if (results.NegotiatedRateCharges) results.NegotiatedRateCharges.TotalCharge = usd(cents);
        }
        priceOptions(results.ShipmentCharges, results.ShipmentCharges, results.NegotiatedRateCharges, shipment);
        shipments.set(numbers[0], { voided: false, trackingNumbers: numbers, voidedPackages: new Set() });
        return { body: reply };
      }
      case 'void': {
        const id = decodeURIComponent(url.pathname.split('/').pop() ?? '');
        const s = shipments.get(id);
        if (!s)
          return { status: 400, body: { response: { errors: [{ code: '190101', message: 'No shipment found for the shipment identification number.' }] } } };
        if (s.voided) return { status: 400, body: upsFixture('error-void') };
        // `trackingnumber` (Shipping.yaml): the packages to void, one number or a bracketed list
        // of up to 20; absent, the whole shipment. A shipment is void once every package is.
        const listed = url.searchParams.get('trackingnumber');
        let numbers: string[] = s.trackingNumbers;
        if (listed !== null) {
          try {
            numbers = listed.trim().startsWith('[') ? (JSON.parse(listed) as string[]) : [listed];
          } catch {
            return { status: 400, body: { response: { errors: [{ code: '190102', message: 'Invalid tracking number list.' }] } } };
          }
          const unknown = numbers.filter((n) => !s.trackingNumbers.includes(n));
          if (unknown.length || numbers.length > 20)
            return {
              status: 400,
              body: { response: { errors: [{ code: '190103', message: `Tracking number ${unknown[0] ?? ''} does not belong to the shipment.` }] } },
            };
        }
        for (const n of numbers) s.voidedPackages.add(n);
        s.voided = s.trackingNumbers.every((n) => s.voidedPackages.has(n));
        return { body: upsFixture('void') };
      }
      case 'track': {
        const n = decodeURIComponent(url.pathname.split('/').pop() ?? '');
        const reply = upsFixture('track-delivered');
        reply.trackResponse.shipment[0].inquiryNumber = n;
        reply.trackResponse.shipment[0].package[0].trackingNumber = n;
        return { body: reply };
      }
      case 'xav':
        return { body: upsFixture('xav-valid') };
      case 'pickup':
        return { body: upsFixture('pickup-create') };
      case 'pickup_cancel':
        return { body: upsFixture('pickup-cancel') };
    }
  }

  const core = await startFakeCarrierServer<FakeUpsOperation, UpsOperation>({
    host: 'fake-ups',
    specs,
    operationOf: (op, method, url) => (op ? (OPERATION_IDS[op.operationId] ?? null) : guessOperation(method, url.pathname)),
    reply({ name, url, headers, body, problems, queued }) {
      if (!name) return { status: 404, body: { response: { errors: [{ code: '404', message: 'Not found' }] } } };
      if (problems.length) return { status: 400, body: { response: { errors: problems.slice(0, 5).map((p) => ({ code: 'SCHEMA', message: p })) } } };
      // Authentication first, as UPS does.
      if (name === 'token') {
        const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
        if (headers.authorization !== expected) return { status: 401, body: upsFixture('error-auth') };
      } else {
        const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
        if (!bearer || !validTokens.has(bearer)) return { status: 401, body: upsFixture('error-auth') };
      }
      const next = queued();
      if (next?.hang || hung.has(name)) return { hang: true };
      let parsed: unknown;
      try {
        parsed = body ? JSON.parse(body) : null;
      } catch {
        parsed = null;
      }
      return next ?? defaultReply(name, url, parsed);
    },
    checkAnswer(op, status, reply) {
      if (!specs || reply.raw !== undefined || reply.body === undefined) return [];
      const problems = specs.checkResponse(op, status, reply.body);
      // UPS documents no body for 500/503 on most operations: an undocumented status is fine to play.
      return problems.length && problems[0].includes('documents no') ? [] : problems;
    },
    delayMs: options.delayMs,
  });

  return {
    ...core,
    shipments,
    /** Every token issued so far becomes stale: UPS answers 401 until a new one is fetched. */
    expireTokens() {
      validTokens.clear();
    },
    setTokenLifetime(seconds: number) {
      tokenLifetimeS = seconds;
    },
  };
}

export type FakeUps = Awaited<ReturnType<typeof startFakeUps>>;

/** The driver tests' set-up of the fake UPS and its account (test/helpers/carrier-api.ts). */
export const FAKE_UPS_SETUP: FakeCarrierSetup<UpsSpecs, FakeUps> = {
  name: 'UPS',
  folder: 'ups',
  loadSpecs: loadUpsSpecs,
  startFake: (specs) => startFakeUps({ specs }),
  account: { account_number: 'A1B2C3', credentials: { client_id: 'fake-client-id', client_secret: 'fake-client-secret' } },
};

/**
 * What the fake charges for the options a request carries, per package, as UPS itemises them
 * (accessorial codes 120 delivery confirmation, 199 hazmat, 200 dry ice, 300 Saturday delivery);
 * a declared value is charged in ServiceOptionsCharges only, without an itemised line.
 */
export const FAKE_UPS_OPTION_CHARGES = {
  signature: 715,
  adult_signature: 855,
  saturday_delivery: 1700,
  hazmat: 4150,
  dry_ice: 700,
  declared_value: 485,
} as const;

function priceOptions(charges: any, itemized: any, negotiated: any, shipment: any) {
  if (!charges) return;
  const lines: { Code: string; Description: string; cents: number }[] = [];
  let unitemized = 0;
  for (const p of [shipment.Package ?? []].flat()) {
    const o = p?.PackageServiceOptions ?? {};
    const dcis = o.DeliveryConfirmation?.DCISType;
    if (dcis === '2') lines.push({ Code: '120', Description: 'Delivery Confirmation Signature', cents: FAKE_UPS_OPTION_CHARGES.signature });
    if (dcis === '3') lines.push({ Code: '120', Description: 'Delivery Confirmation Adult Signature', cents: FAKE_UPS_OPTION_CHARGES.adult_signature });
    if (o.HazMat) lines.push({ Code: '199', Description: 'Hazardous Materials', cents: FAKE_UPS_OPTION_CHARGES.hazmat });
    if (o.DryIce) lines.push({ Code: '200', Description: 'Dry Ice', cents: FAKE_UPS_OPTION_CHARGES.dry_ice });
    if (o.DeclaredValue) unitemized += FAKE_UPS_OPTION_CHARGES.declared_value;
  }
  if (shipment.ShipmentServiceOptions?.SaturdayDeliveryIndicator !== undefined)
    lines.push({ Code: '300', Description: 'Saturday Delivery', cents: FAKE_UPS_OPTION_CHARGES.saturday_delivery });
  const added = lines.reduce((s, l) => s + l.cents, 0) + unitemized;
  if (added === 0) return;
  const bump = (m: any) => {
    if (m?.MonetaryValue !== undefined) m.MonetaryValue = ((Math.round(Number(m.MonetaryValue) * 100) + added) / 100).toFixed(2);
  };
  itemized.ItemizedCharges = [
    ...[itemized.ItemizedCharges ?? []].flat(),
    ...lines.map((l) => ({ Code: l.Code, Description: l.Description, CurrencyCode: 'USD', MonetaryValue: (l.cents / 100).toFixed(2) })),
  ];
  bump(charges.ServiceOptionsCharges);
  bump(charges.TotalCharges);
  bump(negotiated?.TotalCharge);
}

/**
 * What the fake charges a package in UPS Letter packaging (`PackagingType`/`Packaging` Code 01)
 * per air service, in cents: a letter rate, not rated by weight. Ground (03) and 3 Day Select
 * (12) carry no letters: Shop leaves them out, Ship refuses them.
 */
export const FAKE_UPS_LETTER_RATES: Record<string, number> = { '01': 3350, '02': 2275, '13': 3010, '14': 6420, '59': 2610 };

const usd = (cents: number) => ({ CurrencyCode: 'USD', MonetaryValue: (cents / 100).toFixed(2) });

function isLetter(packages: any[], key: 'PackagingType' | 'Packaging'): boolean {
  return packages.length > 0 && packages.every((p) => p?.[key]?.Code === '01');
}

/** Shop with letters: the letter rate per package for air services, the others not offered. */
function priceLetters(response: any, packages: any, key: 'PackagingType' | 'Packaging') {
  const list = [packages].flat();
  if (!isLetter(list, key)) return;
  response.RatedShipment = [response.RatedShipment].flat().filter((r: any) => FAKE_UPS_LETTER_RATES[r.Service.Code] !== undefined);
  for (const rated of response.RatedShipment) {
    const cents = FAKE_UPS_LETTER_RATES[rated.Service.Code]! * list.length;
    rated.TransportationCharges = usd(cents);
    rated.TotalCharges = usd(cents);
    delete rated.ItemizedCharges;
    if (rated.NegotiatedRateCharges) rated.NegotiatedRateCharges = { TotalCharge: usd(cents) };
  }
}

/** Without UPS's documents, route by path alone. */
function guessOperation(method: string, path: string): FakeUpsOperation | null {
  if (path === '/security/v1/oauth/token') return 'token';
  if (/^\/api\/rating\//.test(path)) return 'rates';
  if (/^\/api\/shipments\/[^/]+\/ship$/.test(path)) return 'ship';
  if (/^\/api\/shipments\/[^/]+\/void\/cancel\//.test(path)) return 'void';
  if (/^\/api\/track\/v1\/details\//.test(path)) return 'track';
  if (/^\/api\/addressvalidation\//.test(path)) return 'xav';
  if (/^\/api\/pickupcreation\//.test(path)) return 'pickup';
  if (method === 'DELETE' && /^\/api\/shipments\/[^/]+\/pickup\//.test(path)) return 'pickup_cancel';
  return null;
}
