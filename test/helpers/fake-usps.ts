import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FakeCarrierSetup } from './carrier-api.js';
import { startFakeCarrierServer, type FakeReply as CarrierReply, type FakeRequest } from './fake-carrier.js';
import { loadUspsSpecs, type UspsOperation, type UspsSpecs } from './usps-spec.js';

/**
 * A fake USPS v3 on 127.0.0.1 (a double of USPS, not of our code). Every request is checked
 * against the operation's description in USPS's published OpenAPI documents (path, query and
 * header parameters, bearer token, body; violations are recorded and answered 400 in USPS's
 * `ErrorMessage` shape), every answer it gives is checked against the response schema, and it
 * answers from recorded fixtures (src/carriers/usps/api/fixtures). Labels come back as USPS
 * sends them: multipart/form-data, a JSON `labelMetadata` part and a Base64 `labelImage` part.
 * When ../shared/carrier-specs/usps is absent, `specChecked` is false and requests are
 * answered unchecked.
 *
 * Scenarios are queued per operation (`queue('rates', {status: 503, ...})`); with nothing
 * queued, an operation succeeds. OAuth is real enough: wrong client credentials get 401, bearer
 * tokens are checked, `expireTokens()` makes every issued token stale (USPS answers 401); the
 * payment authorization checks the account's CRID and its token is checked on label calls.
 */

export const USPS_FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/carriers/usps/api/fixtures');

export function uspsFixture(name: string): any {
  return JSON.parse(readFileSync(resolve(USPS_FIXTURES_DIR, `${name}.json`), 'utf8'));
}

export type FakeUspsOperation =
  | 'token'
  | 'payment'
  | 'rates'
  | 'label'
  | 'intl_label'
  | 'return_label'
  | 'cancel'
  | 'intl_cancel'
  | 'track'
  | 'address'
  | 'pickup'
  | 'pickup_read'
  | 'pickup_cancel'
  | 'scan_form';

const OPERATIONS: Record<string, FakeUspsOperation> = {
  'README oauth-token': 'token',
  'payments post-payments-payment-authorization': 'payment',
  'domestic-prices post-total-rates-search': 'rates',
  'domestic-labels post-label': 'label',
  'international-labels post-international-label': 'intl_label',
  'domestic-labels post-return-label': 'return_label',
  'domestic-labels delete-label-by-tracking': 'cancel',
  'international-labels delete-international-label-by-tracking': 'intl_cancel',
  'tracking get-package-tracking': 'track',
  'addresses get-address': 'address',
  'carrier-pickup post-carrier-pickup': 'pickup',
  'carrier-pickup get-carrier-pickup-confirmation-number': 'pickup_read',
  'carrier-pickup delete-carrier-pickup-confirmation-number': 'pickup_cancel',
  'scan-forms post-scan-form': 'scan_form',
};

export interface FakeReply extends CarrierReply {
  /** Answer as usual (to let earlier calls through before a queued failure). */
  pass?: boolean;
}

export type FakeUspsRequest = FakeRequest<FakeUspsOperation>;

/** Label images the fake issues, per USPS imageType (tiny but real files). */
export const FAKE_LABELS: Record<string, { bytes: Buffer; mime: string; ext: string }> = {
  PDF: {
    bytes: Buffer.from(
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 288 432]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    ),
    mime: 'application/pdf',
    ext: 'pdf',
  },
  GIF: { bytes: Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64'), mime: 'image/gif', ext: 'gif' },
  PNG: {
    bytes: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
    mime: 'image/png',
    ext: 'png',
  },
  ZPL203DPI: { bytes: Buffer.from('^XA^FO50,50^A0N,40,40^FDUSPS GROUND ADVANTAGE^FS^XZ\n'), mime: 'application/zpl', ext: 'zpl' },
};

/** The SCAN form image the fake issues (a tiny but real PDF). */
export const FAKE_SCAN_FORM = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n% PS Form 5630\n%%EOF\n',
);

export interface FakeUspsOptions {
  clientId?: string;
  clientSecret?: string;
  /** The CRID the payment authorization accepts. */
  crid?: string;
  tokenLifetimeS?: number;
  /** Reuse already-loaded specs. */
  specs?: UspsSpecs | null;
  /** Milliseconds each answer to an operation waits before it is sent (a carrier's latency). */
  delayMs?: Partial<Record<FakeUspsOperation, number>>;
}

const errorBody = (status: number, message: string, errors: unknown[] = []) => ({ apiVersion: 'v3', error: { code: String(status), message, errors } });

export async function startFakeUsps(options: FakeUspsOptions = {}) {
  const specs = options.specs === undefined ? loadUspsSpecs() : options.specs;
  const clientId = options.clientId ?? 'fake-client-id';
  const clientSecret = options.clientSecret ?? 'fake-client-secret';
  const crid = options.crid ?? '56982563';
  const tokenLifetimeS = options.tokenLifetimeS ?? 28799;
  const validTokens = new Set<string>();
  const paymentTokens = new Set<string>();
  const labels = new Map<string, { cancelled: boolean; idempotencyKey: string | null }>();
  const pickups = new Map<string, { etag: string; cancelled: boolean; body: any }>();
  /** Tracking numbers on a SCAN form already, and each form's numbers by manifest number. */
  const onForm = new Set<string>();
  const scanForms = new Map<string, string[]>();
  let seq = 0;

  const trackingNumber = () => `92001909999${String(++seq).padStart(11, '0')}`;

  function labelReply(body: any, international: boolean, idempotencyKey: string | null, isReturn = false): FakeReply {
    // A label already issued for this idempotency key is answered again, not bought twice.
    const known = idempotencyKey ? [...labels].find(([, l]) => l.idempotencyKey === idempotencyKey)?.[0] : undefined;
    const tn = known ?? trackingNumber();
    if (!known) labels.set(tn, { cancelled: false, idempotencyKey });
    const imageType: string = body?.imageInfo?.imageType ?? 'PDF';
    const image = FAKE_LABELS[imageType] ?? FAKE_LABELS.PDF;
    const metadata = uspsFixture('label-metadata');
    metadata.trackingNumber = tn;
    // A flat-rate rate indicator: USPS charges the flat price (or refuses a class that has none).
    const pkg = body?.packageDescription ?? {};
    if (FLAT_RATE_INDICATORS.has(pkg.rateIndicator)) {
      const flat = FAKE_USPS_FLAT_RATES[pkg.mailClass]?.[pkg.rateIndicator];
      if (flat === undefined) {
        labels.delete(tn);
        return {
          status: 400,
          body: errorBody(400, 'Invalid rate indicator for the mail class.', [
            {
              status: '400',
              code: 'LBL-RI',
              title: 'Invalid rate indicator',
              detail: `Rate indicator ${pkg.rateIndicator} is not available for ${pkg.mailClass}.`,
              source: { parameter: 'packageDescription.rateIndicator' },
            },
          ]),
        };
      }
      metadata.postage = flat / 100;
    }
    const extras = extraServiceLines(body?.packageDescription?.extraServices);
    if (extras.length) {
      metadata.extraServices = extras.map((e) => ({ name: e.name, price: e.price, SKU: e.sku }));
      metadata.postage = Math.round((metadata.postage + extras.reduce((sum, e) => sum + e.price, 0)) * 100) / 100;
    }
    metadata.links[0].href = `https://tools.usps.com/go/TrackConfirmAction_input?origTrackNum=${tn}`;
    if (isReturn) {
      // ReturnLabelMetadata: no construct code or commitment (a return's delivery is not promised).
      for (const k of ['constructCode', 'commitment']) delete metadata[k];
    }
    if (international) {
      // InternationalLabelMetadata has no domestic routing fields.
      for (const k of ['routingInformation', 'constructCode', 'commitment', 'serviceTypeCode', 'retailDistributionCode', 'bannerText']) delete metadata[k];
    }
    const boundary = `usps${randomBytes(8).toString('hex')}`;
    const b64 = image.bytes.toString('base64').replace(/(.{76})/g, '$1\r\n');
    const [metaName, imageName] = isReturn ? ['returnLabelMetadata', 'returnLabelImage'] : ['labelMetadata', 'labelImage'];
    const raw = [
      `--${boundary}`,
      `Content-Disposition: form-data; name="${metaName}"`,
      'Content-Type: application/json',
      '',
      JSON.stringify(metadata, null, 2),
      `--${boundary}`,
      `Content-Type: ${image.mime}`,
      `Content-Disposition: form-data; filename="${imageName}.${image.ext}"; name="${imageName}"`,
      // The label documents: "Ignore the Content-Transfer-Encoding header … always Base64".
      'Content-Transfer-Encoding: base64',
      '',
      b64,
      `--${boundary}--`,
      '',
    ].join('\r\n');
    return {
      raw,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: { [metaName]: metadata, [imageName]: image.bytes.toString('base64') },
    };
  }

  /**
   * A SCAN form as USPS sends it: multipart, a JSON `SCANFormMetaData` part and a Base64
   * `SCANFormImage` part. Labels the fake did not issue, cancelled ones and ones already on a
   * form are left off (`trackingNumbers` lists the others); none left → 400.
   */
  function scanFormReply(body: any): FakeReply {
    const asked: string[] = body?.shipment?.trackingNumbers ?? [];
    const eligible = asked.filter((n) => {
      const l = labels.get(n);
      return l && !l.cancelled && !onForm.has(n);
    });
    if (eligible.length === 0) {
      return {
        status: 400,
        body: errorBody(400, 'No eligible labels for the SCAN form.', [
          {
            status: '400',
            code: 'SCF-001',
            title: 'No eligible labels',
            detail: 'None of the tracking numbers can be added to a SCAN form.',
            source: { parameter: 'shipment.trackingNumbers' },
          },
        ]),
      };
    }
    for (const n of eligible) onForm.add(n);
    const manifestNumber = `9275090${String(++seq).padStart(19, '0')}`;
    const metadata = {
      imageInfo: body.imageInfo,
      mailingDate: body.mailingDate,
      overwriteMailingDate: body.overwriteMailingDate ?? false,
      entryFacilityZIPCode: body.entryFacilityZIPCode,
      destinationEntryFacilityType: body.destinationEntryFacilityType,
      shipment: { trackingNumbers: asked },
      manifestNumber,
      trackingNumbers: eligible,
      fromAddress: body.fromAddress,
    };
    scanForms.set(manifestNumber, eligible);
    const boundary = `usps${randomBytes(8).toString('hex')}`;
    const raw = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="SCANFormMetaData"',
      'Content-Type: application/json',
      '',
      JSON.stringify(metadata, null, 2),
      `--${boundary}`,
      'Content-Type: application/pdf',
      'Content-Disposition: form-data; filename="SCANForm.pdf"; name="SCANFormImage"',
      '',
      FAKE_SCAN_FORM.toString('base64').replace(/(.{76})/g, '$1\r\n'),
      `--${boundary}--`,
      '',
    ].join('\r\n');
    return {
      raw,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: { SCANFormMetaData: metadata, SCANFormImage: FAKE_SCAN_FORM.toString('base64') },
    };
  }

  function defaultReply(op: FakeUspsOperation, url: URL, body: any, headers: IncomingHttpHeaders): FakeReply {
    const last = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    switch (op) {
      case 'token': {
        const token = `tok_${randomBytes(12).toString('hex')}`;
        validTokens.add(token);
        return { body: { ...uspsFixture('token'), access_token: token, client_id: clientId, expires_in: String(tokenLifetimeS) } };
      }
      case 'payment': {
        const roles: any[] = body?.roles ?? [];
        if (!roles.every((r) => r.CRID === crid)) return { status: 400, body: uspsFixture('error-payment') };
        const token = `pay_${randomBytes(12).toString('hex')}`;
        paymentTokens.add(token);
        return { body: { paymentAuthorizationToken: token, roles } };
      }
      case 'rates':
        if (body?.destinationZIPCode === '00000') return { status: 400, body: uspsFixture('error-invalid-zip') };
        return { body: priceExtraServices(withFlatRates(uspsFixture('total-rates'), body), body) };
      case 'label':
      case 'intl_label': {
        const key = (headers['x-idempotency-key'] as string | undefined) ?? null;
        return labelReply(body, op === 'intl_label', key);
      }
      case 'return_label':
        return labelReply(body, false, (headers['x-idempotency-key'] as string | undefined) ?? null, true);
      case 'cancel':
      case 'intl_cancel': {
        const l = labels.get(last);
        if (!l)
          return {
            status: 400,
            body: errorBody(400, 'Label not found.', [
              {
                status: '400',
                code: 'LBL-404',
                title: 'Label not found',
                detail: `No label with tracking number ${last}.`,
                source: { parameter: 'trackingNumber' },
              },
            ]),
          };
        if (l.cancelled)
          return {
            status: 400,
            body: errorBody(400, 'Label already canceled.', [
              { status: '400', code: 'LBL-410', title: 'Already canceled', detail: `The label ${last} was already canceled.` },
            ]),
          };
        l.cancelled = true;
        return { body: { ...uspsFixture('cancel'), trackingNumber: last } };
      }
      case 'track':
        return { body: { ...uspsFixture('tracking-delivered'), trackingNumber: last } };
      case 'address':
        if (url.searchParams.get('streetAddress')?.startsWith('999')) return { status: 404, body: uspsFixture('error-address-not-found') };
        return { body: uspsFixture(url.searchParams.get('secondaryAddress') ? 'address-valid' : 'address-secondary-missing') };
      case 'pickup': {
        const reply = uspsFixture('pickup-create');
        const confirmation = `WTC${String(++seq).padStart(9, '0')}`;
        reply.confirmationNumber = confirmation;
        reply.pickupDate = body.pickupDate;
        reply.carrierPickupRequest = body;
        const etag = randomBytes(20).toString('hex');
        pickups.set(confirmation, { etag, cancelled: false, body: reply });
        return { body: reply, headers: { etag } };
      }
      case 'pickup_read': {
        const p = pickups.get(last);
        if (!p || p.cancelled) return { status: 404, body: errorBody(404, 'Carrier pickup not found.') };
        return { body: [p.body], headers: { etag: p.etag } };
      }
      case 'scan_form':
        return scanFormReply(body);
      case 'pickup_cancel': {
        const p = pickups.get(last);
        if (!p || p.cancelled) return { status: 404, body: errorBody(404, 'Carrier pickup not found.') };
        if (headers['if-match'] !== p.etag) return { status: 400, body: errorBody(400, 'The If-Match header does not match the pickup.') };
        p.cancelled = true;
        return { status: 200 };
      }
    }
  }

  const core = await startFakeCarrierServer<FakeUspsOperation, UspsOperation, FakeReply>({
    host: 'fake-usps',
    specs,
    operationOf: (op, method, url) => (op ? (OPERATIONS[`${op.file} ${op.operationId}`] ?? null) : guessOperation(method, url.pathname)),
    reply({ name, url, headers, body, problems, queued }) {
      if (!name) return { status: 404, body: errorBody(404, 'Not found') };
      if (problems.length) {
        return {
          status: 400,
          body: errorBody(
            400,
            'Request failed validation',
            problems.slice(0, 5).map((p) => ({ status: '400', code: 'SCHEMA', title: 'Invalid request', detail: p })),
          ),
        };
      }
      const parsed = readJson(body);
      // Authentication first, as USPS does.
      if (name === 'token') {
        if (parsed?.client_id !== clientId || parsed?.client_secret !== clientSecret) return { status: 401, body: uspsFixture('error-oauth') };
      } else {
        const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
        if (!bearer || !validTokens.has(bearer)) return { status: 401, body: uspsFixture('error-unauthorized') };
        if (
          ['label', 'intl_label', 'return_label', 'cancel', 'intl_cancel'].includes(name) &&
          !paymentTokens.has(String(headers['x-payment-authorization-token'] ?? ''))
        ) {
          return { status: 401, body: errorBody(401, 'The payment authorization token is missing or invalid.') };
        }
      }
      const next = queued();
      return next && !next.pass ? next : defaultReply(name, url, parsed, headers);
    },
    checkAnswer(op, status, reply) {
      const isMultipart = reply.raw !== undefined && /multipart/.test(reply.headers?.['content-type'] ?? '');
      if (!specs || reply.body === undefined || (reply.raw !== undefined && !isMultipart)) return [];
      return specs.checkResponse(op, status, reply.body, isMultipart ? 'multipart/form-data' : 'application/json');
    },
    delayMs: options.delayMs,
  });

  return {
    ...core,
    labels,
    pickups,
    scanForms,
    /** Every OAuth token issued so far becomes stale: USPS answers 401 until a new one is fetched. */
    expireTokens() {
      validTokens.clear();
    },
    /** Every payment authorization token issued so far is refused (401) on label calls. */
    expirePaymentTokens() {
      paymentTokens.clear();
    },
  };
}

export type FakeUsps = Awaited<ReturnType<typeof startFakeUsps>>;

/** The driver tests' set-up of the fake USPS and its account (test/helpers/carrier-api.ts). */
export const FAKE_USPS_SETUP: FakeCarrierSetup<UspsSpecs, FakeUsps> = {
  name: 'USPS',
  folder: 'usps',
  loadSpecs: loadUspsSpecs,
  startFake: (specs) => startFakeUsps({ specs }),
  account: {
    account_number: null,
    credentials: {
      client_id: 'fake-client-id',
      client_secret: 'fake-client-secret',
      crid: '56982563',
      mid: '904128936',
      manifest_mid: '904128937',
      payment_account_number: '1000405525',
      payment_account_type: 'EPS',
    },
  },
};

function readJson(body: string): any {
  try {
    return body ? JSON.parse(body) : null;
  } catch {
    return null;
  }
}

/** Without USPS's documents, route by path alone. */
function guessOperation(method: string, path: string): FakeUspsOperation | null {
  if (path === '/oauth2/v3/token') return 'token';
  if (path === '/payments/v3/payment-authorization') return 'payment';
  if (path === '/prices/v3/total-rates/search') return 'rates';
  if (path === '/labels/v3/label' && method === 'POST') return 'label';
  if (path === '/labels/v3/return-label' && method === 'POST') return 'return_label';
  if (path === '/international-labels/v3/international-label' && method === 'POST') return 'intl_label';
  if (/^\/labels\/v3\/label\/[^/]+$/.test(path) && method === 'DELETE') return 'cancel';
  if (/^\/international-labels\/v3\/international-label\/[^/]+$/.test(path) && method === 'DELETE') return 'intl_cancel';
  if (/^\/tracking\/v3\/tracking\/[^/]+$/.test(path)) return 'track';
  if (path === '/addresses/v3/address') return 'address';
  if (path === '/pickup/v3/carrier-pickup' && method === 'POST') return 'pickup';
  if (path === '/scan-forms/v3/scan-form' && method === 'POST') return 'scan_form';
  if (/^\/pickup\/v3\/carrier-pickup\/[^/]+$/.test(path)) return method === 'DELETE' ? 'pickup_cancel' : method === 'GET' ? 'pickup_read' : null;
  return null;
}

/** What the fake charges (USD) for the extra services it prices, by code, with USPS's names. */
export const FAKE_USPS_EXTRA_SERVICES: Readonly<Record<number, { name: string; price: number; sku: string }>> = {
  921: { name: 'Signature Confirmation', price: 4.4, sku: 'DXSU0EXPXCX0000' },
  922: { name: 'Adult Signature Required', price: 11.25, sku: 'DPXX0XXXXX07200' },
  930: { name: 'Insurance <= $500', price: 2.9, sku: 'DXIX0XXXXCX0100' },
  931: { name: 'Insurance > $500', price: 17.4, sku: 'DXIX0XXXXCX0600' },
  819: { name: 'HAZMAT Class 9 - Dry Ice Package', price: 0, sku: 'NA' },
  820: { name: 'HAZMAT Class 9 - Lithium batteries, unmarked package', price: 0, sku: 'NA' },
};

function extraServiceLines(codes: unknown): { code: number; name: string; price: number; sku: string }[] {
  return Array.isArray(codes) ? codes.flatMap((c) => (FAKE_USPS_EXTRA_SERVICES[c] ? [{ code: c as number, ...FAKE_USPS_EXTRA_SERVICES[c] }] : [])) : [];
}

/** A total-rates answer for a query naming extra services: each option lists them priced, and its totalPrice. */
/**
 * USPS flat-rate prices the fake answers (cents, commercial), per mail class and rate indicator
 * (FE envelope, FA legal envelope, FP padded envelope, FS small box, FB medium box, PL large box).
 */
export const FAKE_USPS_FLAT_RATES: Record<string, Record<string, number>> = {
  PRIORITY_MAIL: { FE: 915, FA: 945, FP: 995, FS: 990, FB: 1020, PL: 2290 },
  PRIORITY_MAIL_EXPRESS: { FE: 2895, FA: 2915, FP: 2965 },
};
const FLAT_RATE_INDICATORS = new Set(['FE', 'FA', 'FP', 'FS', 'FB', 'PL']);
const FLAT_NAMES: Record<string, string> = {
  FE: 'Flat Rate Envelope',
  FA: 'Legal Flat Rate Envelope',
  FP: 'Padded Flat Rate Envelope',
  FS: 'Flat Rate Box Small',
  FB: 'Flat Rate Box Medium',
  PL: 'Flat Rate Box Large',
};

/** Every flat-rate option of the mail classes asked for, as total-rates answers them (the fixture's medium box replaced). */
function withFlatRates(reply: any, query: any): any {
  const classes: string[] = query?.mailClasses ?? [];
  const template = reply.rateOptions.find((o: any) => o.rates?.[0]?.rateIndicator === 'FB');
  if (!template) return reply;
  reply.rateOptions = reply.rateOptions.filter((o: any) => !FLAT_RATE_INDICATORS.has(o.rates?.[0]?.rateIndicator));
  for (const mailClass of classes) {
    for (const [indicator, cents] of Object.entries(FAKE_USPS_FLAT_RATES[mailClass] ?? {})) {
      const envelope = indicator === 'FE' || indicator === 'FA' || indicator === 'FP';
      const product = mailClass === 'PRIORITY_MAIL' ? 'Priority Mail' : 'Priority Mail Express';
      reply.rateOptions.push({
        ...template,
        totalBasePrice: cents / 100,
        rates: [
          {
            ...template.rates[0],
            mailClass,
            rateIndicator: indicator,
            processingCategory: envelope ? 'FLATS' : 'MACHINABLE',
            price: cents / 100,
            description: `${product} ${FLAT_NAMES[indicator]}`,
            productName: `${product} Flat Rate`,
            productDefinition: envelope ? 'Flat Rate Envelope' : 'Flat Rate Box',
          },
        ],
      });
    }
  }
  return reply;
}

function priceExtraServices(reply: any, query: any): any {
  const extras = extraServiceLines(query?.extraServices);
  if (extras.length === 0) return reply;
  for (const o of reply.rateOptions ?? []) {
    const priceType = o.rates?.[0]?.priceType ?? 'COMMERCIAL';
    o.extraServices = extras.map((e) => ({ extraService: String(e.code), name: e.name, SKU: e.sku, priceType, price: e.price }));
    o.totalPrice = Math.round((o.totalBasePrice + extras.reduce((sum, e) => sum + e.price, 0)) * 100) / 100;
  }
  return reply;
}
