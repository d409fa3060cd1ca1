/**
 * The USPS `api` driver: the only file of this folder that performs HTTP, through the shared
 * carrier client (deadline, retries for idempotent calls, breaker, token cache, exchange log).
 * Everything it sends and reads is built and parsed by the pure modules beside it.
 */
import { createHash } from 'node:crypto';
import type {
  ApiCallContext,
  ApiManifestRequest,
  ApiManifestResult,
  ApiPickupRequest,
  ApiPurchaseRequest,
  ApiPurchaseResult,
  ApiRateRequest,
  ApiRateResponse,
  ApiTrackResult,
  ApiVoidRequest,
  CarrierApiDriver,
  DriverResult,
} from '../../driver.js';
import { parseJson, type CarrierHttpClient, type CarrierHttpResponse, type HttpMethod } from '../../http/client.js';
import { errorBody } from '../../http/driver-results.js';
import { CarrierTransportError, type CarrierMessage } from '../../http/errors.js';
import type { AccessToken } from '../../http/token-cache.js';
import type { Address } from '../../types.js';
import { addressPath, parseAddressResponse } from './addresses.js';
import { buildTokenRequest, parseTokenResponse, USPS_TOKEN_PATH } from './auth.js';
import { readUspsCredentials, uspsCredentialsSchema, uspsHost, USPS_HOSTS, type UspsCredentials } from './credentials.js';
import { parseUspsErrors } from './errors.js';
import {
  buildInternationalLabelRequest,
  internationalCancelPath,
  INTERNATIONAL_ID_PREFIX,
  INTERNATIONAL_LABEL_PATH,
  type CustomsFormBuilder,
} from './international-labels.js';
import { customsFormFromRequest, uspsCustomsProblem } from './customs.js';
import {
  buildDomesticLabelRequest,
  buildReturnLabelRequest,
  combinePackages,
  DOMESTIC_LABEL_PATH,
  domesticCancelPath,
  parseCancelResponse,
  parseLabelResponse,
  RETURN_LABEL_PATH,
  type PackageCount,
} from './labels.js';
import {
  buildPaymentAuthorizationRequest,
  missingPaymentFields,
  parsePaymentAuthorizationResponse,
  PAYMENT_AUTHORIZATION_PATH,
  type PaymentCredentials,
} from './payments.js';
import { buildPickupRequest, parsePickupResponse, PICKUP_PATH, pickupPath } from './pickups.js';
import { buildRateRequest, parseRateResponse, TOTAL_RATES_PATH } from './rates.js';
import { buildScanFormRequest, manifestTrackingNumbers, parseScanFormResponse, SCAN_FORM_PATH } from './scan-forms.js';
import { parseTrackResponse, trackPath } from './tracking.js';
import { USPS_RETURN_MAIL_CLASSES, USPS_SERVICES, uspsMailClass, uspsLabelImage } from './units.js';

const SLUG = 'usps';

/** Thrown inside the driver when USPS refuses the account (OAuth or payment); becomes `invalid_credentials`. */
class CredentialsRefused extends Error {
  constructor(readonly messages: CarrierMessage[]) {
    super('USPS refused the credentials');
  }
}

const rejected = <T>(messages: CarrierMessage[]): DriverResult<T> => ({ ok: false, kind: 'rejected', messages });
const refused = <T>(messages: CarrierMessage[]): DriverResult<T> => ({ ok: false, kind: 'invalid_credentials', messages });
const reject = <T>(carrierCode: string, message: string, field?: string): DriverResult<T> =>
  rejected([{ code: 'carrier_rejected', carrier_code: carrierCode, message, ...(field ? { field } : {}) }]);

function malformed(operation: string, res: CarrierHttpResponse, idempotent: boolean): CarrierTransportError {
  return new CarrierTransportError(SLUG, 'malformed_response', `USPS answered ${operation} with a body we cannot read`, {
    retryable: idempotent,
    status: res.status,
  });
}

/**
 * USPS's `X-Idempotency-Key` (a UUID) derived from our reference: a purchase sent again for the
 * same shipment is recognised by USPS instead of buying a second label.
 */
export function idempotencyKey(reference: string): string {
  const h = createHash('sha256').update(`usps-label:${reference}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

interface Call {
  operation: string;
  method: HttpMethod;
  path: string;
  json?: unknown;
  idempotent: boolean;
  headers?: Record<string, string>;
  /** Our field a refusal points at when USPS names none (e.g. the tracking number of a 404). */
  field?: string;
}

export interface UspsDriverOptions {
  /**
   * Fills an international label's `customsForm` instead of the default (the purchase's own
   * `customs`, customs.ts); a purchase neither fills is refused before any call.
   */
  customsForm?: CustomsFormBuilder;
}

export class UspsApiDriver implements CarrierApiDriver {
  readonly carrier = SLUG;
  readonly credentialsSchema = uspsCredentialsSchema as unknown as Record<string, unknown>;
  readonly hosts = USPS_HOSTS;

  labelImage(labelFormat: string) {
    return uspsLabelImage(labelFormat);
  }

  constructor(
    private readonly http: CarrierHttpClient,
    private readonly options: UspsDriverOptions = {},
  ) {}

  private host(ctx: ApiCallContext): string {
    return uspsHost(ctx.account.mode, ctx.account.base_url);
  }

  private creds(ctx: ApiCallContext): UspsCredentials {
    const creds = readUspsCredentials(ctx.account.credentials);
    if (!creds)
      throw new CredentialsRefused([
        { code: 'carrier_account_invalid', carrier_code: 'missing_credentials', message: 'client_id and client_secret are required' },
      ]);
    return creds;
  }

  private tokenKey(ctx: ApiCallContext): string {
    return `${SLUG}:${ctx.account.id}:${this.host(ctx)}:${readUspsCredentials(ctx.account.credentials)?.client_id ?? ''}`;
  }

  /** The payment token depends on every payment field: a credentials change never reuses an old one. */
  private paymentKey(ctx: ApiCallContext, c: UspsCredentials): string {
    const fields = [c.crid, c.mid, c.manifest_mid, c.payment_account_type, c.payment_account_number, c.permit_zip].join('|');
    return `${SLUG}:payment:${ctx.account.id}:${this.host(ctx)}:${createHash('sha256').update(fields).digest('hex').slice(0, 16)}`;
  }

  /** `POST /oauth2/v3/token` (JSON body); idempotent, so retried on 429/5xx. Any 4xx is a refusal of the credentials. */
  private async fetchToken(ctx: ApiCallContext): Promise<AccessToken> {
    const res = await this.http.request({
      carrier: SLUG,
      accountId: ctx.account.id,
      operation: 'token',
      method: 'POST',
      url: `${this.host(ctx)}${USPS_TOKEN_PATH}`,
      json: buildTokenRequest(this.creds(ctx)),
      idempotent: true,
      timeoutMs: ctx.timeoutMs,
      requestId: ctx.requestId,
    });
    if (res.status >= 400) {
      const errors = parseUspsErrors(res.status, errorBody(res));
      throw new CredentialsRefused(errors.messages.map((m) => ({ ...m, code: 'carrier_account_invalid' })));
    }
    const token = parseTokenResponse(parseJson(SLUG, res, true));
    if (!token) throw malformed('token', res, true);
    return token;
  }

  private send(ctx: ApiCallContext, call: Call): Promise<CarrierHttpResponse> {
    return this.http.request({
      carrier: SLUG,
      accountId: ctx.account.id,
      operation: call.operation,
      method: call.method,
      url: `${this.host(ctx)}${call.path}`,
      headers: call.headers,
      json: call.json,
      idempotent: call.idempotent,
      timeoutMs: ctx.timeoutMs,
      requestId: ctx.requestId,
      oauth: { key: this.tokenKey(ctx), fetchToken: () => this.fetchToken(ctx) },
    });
  }

  /** `POST /payments/v3/payment-authorization`: every 4xx is the account's payment setup refused. */
  private async fetchPaymentToken(ctx: ApiCallContext, c: PaymentCredentials): Promise<AccessToken> {
    const res = await this.send(ctx, {
      operation: 'payment_authorization',
      method: 'POST',
      path: PAYMENT_AUTHORIZATION_PATH,
      json: buildPaymentAuthorizationRequest(c),
      // Asking for a token twice only issues two tokens.
      idempotent: true,
    });
    if (res.status >= 400) {
      const errors = parseUspsErrors(res.status, errorBody(res));
      throw new CredentialsRefused(errors.messages.map((m) => ({ ...m, code: 'carrier_account_invalid' })));
    }
    const token = parsePaymentAuthorizationResponse(parseJson(SLUG, res, true));
    if (!token) throw malformed('payment_authorization', res, true);
    return token;
  }

  private paymentCredentials(ctx: ApiCallContext): PaymentCredentials {
    const c = this.creds(ctx);
    const missing = missingPaymentFields(c);
    if (missing.length) {
      throw new CredentialsRefused([
        { code: 'carrier_account_invalid', carrier_code: 'missing_payment_account', message: `USPS labels need the account's ${missing.join(', ')}` },
      ]);
    }
    return c as PaymentCredentials;
  }

  /** The account's payment authorization token, cached like the OAuth token (8 hours). */
  private paymentToken(ctx: ApiCallContext): Promise<string> {
    const c = this.paymentCredentials(ctx);
    return this.http.tokens.get(this.paymentKey(ctx, c), () => this.fetchPaymentToken(ctx, c), ctx.account.id);
  }

  /**
   * Sends a call and sorts the answer: 2xx → `parse`; 401/403 → invalid_credentials; other 4xx
   * → rejected with USPS's messages (`onRefused` runs first, e.g. to drop a payment token).
   */
  private async run<T>(
    ctx: ApiCallContext,
    call: Call | (() => Promise<Call>),
    parse: (res: CarrierHttpResponse) => DriverResult<T>,
    onRefused?: (status: number) => void,
  ): Promise<DriverResult<T>> {
    try {
      const c = typeof call === 'function' ? await call() : call;
      const res = await this.send(ctx, c);
      if (res.status >= 200 && res.status < 300) return parse(res);
      onRefused?.(res.status);
      const body = errorBody(res);
      if (body === null && res.body.trim() !== '') throw malformed(c.operation, res, c.idempotent);
      const errors = parseUspsErrors(res.status, body);
      if (errors.credentialsRefused) return refused(errors.messages);
      return rejected(c.field ? errors.messages.map((m) => ({ ...m, field: m.field ?? c.field })) : errors.messages);
    } catch (err) {
      if (err instanceof CredentialsRefused) return refused(err.messages);
      throw err;
    }
  }

  /**
   * A label call (purchase, void) with the account's payment token. USPS refusing it with 401
   * after the shared client already refetched the OAuth token means the payment token is the
   * stale one (USPS says they last 8 hours, but may revoke them sooner): it is dropped and the
   * call sent once more with a fresh one. That re-send is safe even for a purchase: USPS
   * refused before doing anything, and the purchase carries its idempotency key.
   */
  private async withPaymentToken<T>(
    ctx: ApiCallContext,
    build: (token: string) => Call,
    parse: (res: CarrierHttpResponse) => DriverResult<T>,
  ): Promise<DriverResult<T>> {
    for (let attempt = 1; ; attempt++) {
      let token = '';
      let refusedWith = 0;
      const result = await this.run(
        ctx,
        async () => {
          token = await this.paymentToken(ctx);
          return build(token);
        },
        parse,
        (status) => {
          refusedWith = status;
        },
      );
      if (refusedWith === 401 || refusedWith === 403) {
        const c = readUspsCredentials(ctx.account.credentials);
        if (c) this.http.tokens.invalidate(this.paymentKey(ctx, c), token);
        if (refusedWith === 401 && attempt === 1) continue;
      }
      return result;
    }
  }

  rates(ctx: ApiCallContext, request: ApiRateRequest): Promise<DriverResult<ApiRateResponse>> {
    const json = buildRateRequest(request, readUspsCredentials(ctx.account.credentials));
    if (!json) {
      // Not a US domestic lane, or no domestic service asked for: nothing to ask USPS.
      const codes = request.service_codes ?? USPS_SERVICES.filter((s) => s.domestic).map((s) => s.ours);
      return Promise.resolve({
        ok: true,
        value: { rates: [], unavailable: codes.map((service_code) => ({ service_code, reason: 'not_offered_by_carrier' })) },
      });
    }
    return this.run(ctx, { operation: 'rates', method: 'POST', path: TOTAL_RATES_PATH, json, idempotent: true }, (res) => {
      const parsed = parseRateResponse(parseJson(SLUG, res, true), request);
      if (!parsed) throw malformed('rates', res, true);
      return { ok: true, value: parsed };
    });
  }

  /**
   * USPS issues one label per package: several parcels are bought one after the other (each
   * with its own idempotency key, `<reference>#<n>`), and when one fails the labels already
   * issued are voided before the failure is answered (a transport failure is rethrown after
   * that compensation), so no half-bought shipment is left at USPS.
   */
  async purchase(ctx: ApiCallContext, request: ApiPurchaseRequest): Promise<DriverResult<ApiPurchaseResult>> {
    const mailClass = uspsMailClass(request.service_code);
    if (!mailClass) return reject('unknown_service', `USPS has no service ${request.service_code}`, 'service_code');
    const international = request.ship_to.country.toUpperCase() !== 'US';
    if (request.is_return) {
      if (international || request.ship_from.country.toUpperCase() !== 'US')
        return reject('return_not_domestic', 'USPS return labels are for domestic returns only', 'ship_from.country');
      if (!USPS_RETURN_MAIL_CLASSES[mailClass]) return reject('no_return_service', `USPS has no return service for ${request.service_code}`, 'service_code');
    }
    if (international && !this.options.customsForm && !request.customs?.items.length)
      return reject('customs_required', 'USPS international labels need customs data (customsForm)', 'customs');
    const problem = request.customs?.items.length ? uspsCustomsProblem(request.customs) : null;
    if (problem) return reject(problem.carrier_code, problem.message, problem.field);
    const parcels = request.parcels?.length ? request.parcels : [request.parcel];
    if (parcels.length === 1) return this.buyLabel(ctx, { ...request, parcel: parcels[0], parcels: undefined }, mailClass, international);
    const bought: ApiPurchaseResult[] = [];
    for (const [i, parcel] of parcels.entries()) {
      let result: DriverResult<ApiPurchaseResult>;
      try {
        result = await this.buyLabel(ctx, { ...request, parcel, parcels: undefined, reference: `${request.reference}#${i + 1}` }, mailClass, international, {
          packageNumber: i + 1,
          totalPackages: parcels.length,
        });
      } catch (err) {
        await this.compensate(ctx, bought);
        throw err;
      }
      if (!result.ok) {
        await this.compensate(ctx, bought);
        return result;
      }
      bought.push(result.value);
    }
    return { ok: true, value: combinePackages(bought) };
  }

  /** Best effort: a label we could not void is still the lead's to void later (its tracking number is in the failure's log). */
  private async compensate(ctx: ApiCallContext, bought: readonly ApiPurchaseResult[]): Promise<void> {
    for (const b of bought) await this.void(ctx, { carrier_shipment_id: b.carrier_shipment_id }).catch(() => undefined);
  }

  private buyLabel(
    ctx: ApiCallContext,
    request: ApiPurchaseRequest,
    mailClass: string,
    international: boolean,
    piece?: PackageCount,
  ): Promise<DriverResult<ApiPurchaseResult>> {
    const returnClass = request.is_return ? USPS_RETURN_MAIL_CLASSES[mailClass] : undefined;
    const json = international
      ? buildInternationalLabelRequest(request, mailClass, this.options.customsForm ?? customsFormFromRequest)
      : returnClass
        ? buildReturnLabelRequest(request, returnClass)
        : buildDomesticLabelRequest(request, mailClass, piece);
    if (!json) return Promise.resolve(reject('customs_required', 'USPS international labels need customs data (customsForm)', 'customs'));
    return this.withPaymentToken(
      ctx,
      (token) => ({
        operation: 'purchase',
        method: 'POST',
        path: international ? INTERNATIONAL_LABEL_PATH : returnClass ? RETURN_LABEL_PATH : DOMESTIC_LABEL_PATH,
        json,
        // A label purchase is never sent twice blindly: a lost answer may hide an issued label.
        idempotent: false,
        headers: {
          'X-Payment-Authorization-Token': token,
          'X-Idempotency-Key': idempotencyKey(request.reference),
          // The label is the multipart answer; JSON metadata inside it.
          accept: 'multipart/form-data, application/json',
        },
      }),
      (res) => {
        const parsed = parseLabelResponse(res.body, res.headers['content-type'], request, mailClass, international ? INTERNATIONAL_ID_PREFIX : '');
        if (!parsed) throw malformed('purchase', res, false);
        return { ok: true, value: parsed };
      },
    );
  }

  /** Voids every label named (`tracking_numbers`, else those of `carrier_shipment_id`); the first refusal is answered after trying all. */
  async void(ctx: ApiCallContext, request: ApiVoidRequest): Promise<DriverResult<{ voided: true }>> {
    const international = request.carrier_shipment_id.startsWith(INTERNATIONAL_ID_PREFIX);
    const own = international ? request.carrier_shipment_id.slice(INTERNATIONAL_ID_PREFIX.length) : request.carrier_shipment_id;
    // A multi-package shipment's id lists its labels (`combinePackages`).
    const numbers = request.tracking_numbers?.length ? [...request.tracking_numbers] : own.split(',').filter(Boolean);
    let firstFailure: DriverResult<{ voided: true }> | null = null;
    for (const tracking of numbers) {
      const result = await this.voidLabel(ctx, tracking, international);
      if (!result.ok) firstFailure ??= result;
    }
    return firstFailure ?? { ok: true, value: { voided: true } };
  }

  private voidLabel(ctx: ApiCallContext, tracking: string, international: boolean): Promise<DriverResult<{ voided: true }>> {
    return this.withPaymentToken(
      ctx,
      (token) => ({
        operation: 'void',
        method: 'DELETE',
        path: international ? internationalCancelPath(tracking) : domesticCancelPath(tracking),
        // Cancelling twice is harmless (USPS answers the label's state), so it may retry.
        idempotent: true,
        headers: { 'X-Payment-Authorization-Token': token },
        field: 'tracking_number',
      }),
      (res): DriverResult<{ voided: true }> => {
        const parsed = parseCancelResponse(parseJson(SLUG, res, true));
        if (!parsed) throw malformed('void', res, true);
        return parsed.status === 'CANCELED'
          ? { ok: true, value: { voided: true } }
          : reject('label_' + parsed.status.toLowerCase(), `USPS did not cancel the label ${tracking} (${parsed.status})`, 'tracking_number');
      },
    );
  }

  track(ctx: ApiCallContext, request: { tracking_number: string }) {
    return this.run<ApiTrackResult>(
      ctx,
      { operation: 'tracking', method: 'GET', path: trackPath(request.tracking_number), idempotent: true, field: 'tracking_number' },
      (res) => {
        const parsed = parseTrackResponse(parseJson(SLUG, res, true));
        if (!parsed) throw malformed('tracking', res, true);
        return { ok: true, value: parsed };
      },
    );
  }

  async validateAddress(ctx: ApiCallContext, address: Address) {
    const path = addressPath(address);
    if (!path) {
      // USPS standardises US addresses only, and needs a street and a state.
      return {
        ok: true as const,
        value: {
          status: 'unverified' as const,
          residential: 'unknown' as const,
          normalized: null,
          candidates: [],
          messages: [{ code: 'address_not_checked', message: 'USPS checks US addresses with a street and a state only' }],
        },
      };
    }
    const res = await this.run(ctx, { operation: 'address_validation', method: 'GET', path, idempotent: true }, (r) => {
      const parsed = parseAddressResponse(parseJson(SLUG, r, true), address);
      if (!parsed) throw malformed('address_validation', r, true);
      return { ok: true, value: parsed };
    });
    // "Address Not Found" and its kin (400/404 on a well-formed query) are a verdict, not a failure.
    if (!res.ok && res.kind === 'rejected') {
      return {
        ok: true as const,
        value: {
          status: 'invalid' as const,
          residential: 'unknown' as const,
          normalized: null,
          candidates: [],
          messages: res.messages.map((m) => ({ code: `usps_${m.carrier_code}`, message: m.message, ...(m.field ? { field: m.field } : {}) })),
        },
      };
    }
    return res;
  }

  /**
   * A SCAN form (PS Form 5630) for the day's labels. Not retried: a second form for the same
   * labels would be refused or duplicate the first. Labels USPS leaves off come back in `rejected`.
   */
  async manifest(ctx: ApiCallContext, request: ApiManifestRequest): Promise<DriverResult<ApiManifestResult>> {
    if (request.shipments.length === 0) return reject('no_shipments', 'A SCAN form needs at least one label', 'shipments');
    const json = buildScanFormRequest(request);
    if (!json) return reject('invalid_entry_zip', 'A SCAN form needs the 5-digit ZIP Code of the entry facility (the origin address)', 'address.postal_code');
    return this.run(ctx, { operation: 'manifest', method: 'POST', path: SCAN_FORM_PATH, json, idempotent: false }, (res) => {
      const parsed = parseScanFormResponse(res.body, res.headers['content-type'], manifestTrackingNumbers(request));
      if (!parsed) throw malformed('manifest', res, false);
      return { ok: true, value: parsed };
    });
  }

  schedulePickup(ctx: ApiCallContext, request: ApiPickupRequest) {
    const built = buildPickupRequest(request);
    if (!built.ok) return Promise.resolve(reject<never>('invalid_pickup', built.message, built.field));
    return this.run(
      ctx,
      // Booking twice would book two pickups: not retried.
      { operation: 'pickup', method: 'POST', path: PICKUP_PATH, json: built.body, idempotent: false },
      (res) => {
        const parsed = parsePickupResponse(parseJson(SLUG, res, false));
        if (!parsed) throw malformed('pickup', res, false);
        return { ok: true, value: parsed };
      },
    );
  }

  /** Reads the pickup's ETag, then cancels with `If-Match` (the DELETE requires it). */
  async cancelPickup(ctx: ApiCallContext, request: { confirmation: string }): Promise<DriverResult<{ cancelled: true }>> {
    let etag: string | null = null;
    const read = await this.run<null>(
      ctx,
      { operation: 'pickup_read', method: 'GET', path: pickupPath(request.confirmation), idempotent: true, field: 'confirmation' },
      (res) => {
        etag = res.headers.etag ?? null;
        if (!etag) throw malformed('pickup_read', res, true);
        return { ok: true, value: null };
      },
    );
    if (!read.ok) return read;
    return this.run(
      ctx,
      {
        operation: 'pickup_cancel',
        method: 'DELETE',
        path: pickupPath(request.confirmation),
        idempotent: true,
        headers: { 'If-Match': etag! },
        field: 'confirmation',
      },
      () => ({ ok: true, value: { cancelled: true } }),
    );
  }

  /**
   * Obtains a fresh OAuth token, and when the account has its payment fields, a payment
   * authorization too: that checks the CRID, MIDs and payment account USPS labels will use.
   */
  async testCredentials(ctx: ApiCallContext): Promise<DriverResult<{ latency_ms: number }>> {
    const started = Date.now();
    try {
      const key = this.tokenKey(ctx);
      this.http.tokens.clear(key);
      await this.http.tokens.get(key, () => this.fetchToken(ctx), ctx.account.id);
      const c = this.creds(ctx);
      if (missingPaymentFields(c).length === 0) {
        const token = await this.fetchPaymentToken(ctx, c as PaymentCredentials);
        // A fresh, valid token: keep it for the next label.
        this.http.tokens.clear(this.paymentKey(ctx, c));
        await this.http.tokens.get(this.paymentKey(ctx, c), () => Promise.resolve(token), ctx.account.id);
      }
      return { ok: true, value: { latency_ms: Date.now() - started } };
    } catch (err) {
      if (err instanceof CredentialsRefused) return refused(err.messages);
      throw err;
    }
  }
}

export function createUspsApiDriver(http: CarrierHttpClient, options?: UspsDriverOptions): CarrierApiDriver {
  return new UspsApiDriver(http, options);
}
