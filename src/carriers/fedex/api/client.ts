/**
 * The FedEx `api` driver: the only file of this folder that performs HTTP, through the shared
 * carrier client (deadline, retries for idempotent calls, breaker, token cache, exchange log).
 * Everything it sends and reads is built and parsed by the pure modules beside it.
 */
import { randomUUID } from 'node:crypto';
import type {
  ApiCallContext,
  ApiManifestRequest,
  ApiManifestResult,
  ApiPurchaseRequest,
  ApiRateRequest,
  ApiTrackResult,
  CarrierApiDriver,
  DriverResult,
} from '../../driver.js';
import { parseJson, type CarrierHttpClient, type CarrierHttpResponse, type HttpMethod } from '../../http/client.js';
import { CredentialsRefused, errorBody, malformedAnswer, refused, rejected, sortAnswer, testByFetchingToken } from '../../http/driver-results.js';
import type { CarrierMessage } from '../../http/errors.js';
import type { Address } from '../../types.js';
import { buildResolveRequest, parseResolveResponse, RESOLVE_PATH, verdictForRejection } from './addresses.js';
import { buildTokenRequest, FEDEX_TOKEN_PATH, parseTokenResponse } from './auth.js';
import { buildCloseRequest, CLOSE_PATH, parseCloseResponse, splitForClose } from './close.js';
import { FEDEX_HOSTS, fedexCredentialsSchema, fedexHost, readFedexCredentials } from './credentials.js';
import { parseFedexErrors } from './errors.js';
import {
  buildPickupCancelRequest,
  buildPickupRequest,
  parseConfirmation,
  parsePickupCancelResponse,
  parsePickupResponse,
  PICKUP_CANCEL_PATH,
  PICKUP_PATH,
  pickupCarrier,
} from './pickups.js';
import { fedexPackaging } from './packaging.js';
import { buildRateRequest, parcelsOf, parseRateResponse, RATE_PATH } from './rates.js';
import {
  buildCancelRequest,
  buildShipRequest,
  CANCEL_PATH,
  isGroundService,
  parseCancelResponse,
  parseShipResponse,
  SHIP_PATH,
  shipPhones,
} from './shipments.js';
import { buildTrackRequest, parseTrackResponse, TRACK_PATH } from './tracking.js';
import { fedexServiceType, fedexLabelImage } from './units.js';

const SLUG = 'fedex';
const NAME = 'FedEx';

const malformed = (operation: string, res: CarrierHttpResponse, idempotent: boolean) => malformedAnswer(SLUG, NAME, operation, res, idempotent);

interface Call {
  operation: string;
  method: HttpMethod;
  path: string;
  json: unknown;
  idempotent: boolean;
}

export class FedexApiDriver implements CarrierApiDriver {
  readonly carrier = SLUG;
  readonly credentialsSchema = fedexCredentialsSchema as unknown as Record<string, unknown>;
  readonly hosts = FEDEX_HOSTS;

  labelImage(labelFormat: string) {
    return fedexLabelImage(labelFormat);
  }

  constructor(private readonly http: CarrierHttpClient) {}

  private host(ctx: ApiCallContext): string {
    return fedexHost(ctx.account.mode, ctx.account.base_url);
  }

  private tokenKey(ctx: ApiCallContext): string {
    const creds = readFedexCredentials(ctx.account.credentials);
    return `${SLUG}:${ctx.account.id}:${this.host(ctx)}:${creds?.api_key ?? ''}`;
  }

  /** `POST /oauth/token`, form-encoded client credentials; idempotent, so retried on 429/5xx. */
  private async fetchToken(ctx: ApiCallContext) {
    const creds = readFedexCredentials(ctx.account.credentials);
    if (!creds) {
      throw new CredentialsRefused(NAME, [
        { code: 'carrier_account_invalid', carrier_code: 'missing_credentials', message: 'api_key and secret_key are required' },
      ]);
    }
    const res = await this.http.request({
      carrier: SLUG,
      accountId: ctx.account.id,
      operation: 'token',
      method: 'POST',
      url: `${this.host(ctx)}${FEDEX_TOKEN_PATH}`,
      form: buildTokenRequest(creds),
      idempotent: true,
      timeoutMs: ctx.timeoutMs,
      requestId: ctx.requestId,
    });
    if (res.status >= 400) {
      // 400/401/403 from the token endpoint: the keys are refused.
      const errors = parseFedexErrors(res.status, errorBody(res));
      throw new CredentialsRefused(
        NAME,
        errors.messages.map((m) => ({ ...m, code: 'carrier_account_invalid' })),
      );
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
      // FedEx echoes x-customer-transaction-id in its answer: ours ties the two logs together.
      headers: { 'x-customer-transaction-id': ctx.requestId ?? randomUUID(), 'x-locale': 'en_US' },
      json: call.json,
      idempotent: call.idempotent,
      timeoutMs: ctx.timeoutMs,
      requestId: ctx.requestId,
      oauth: { key: this.tokenKey(ctx), fetchToken: () => this.fetchToken(ctx) },
    });
  }

  /** Sends a call and sorts the answer (http/driver-results.ts `sortAnswer`) with FedEx's error reader. */
  private run<T>(
    ctx: ApiCallContext,
    call: Call,
    parse: (body: unknown, res: CarrierHttpResponse) => DriverResult<T>,
    onRejected?: (messages: CarrierMessage[]) => DriverResult<T> | null,
  ): Promise<DriverResult<T>> {
    return sortAnswer(() => this.send(ctx, call), {
      slug: SLUG,
      carrierName: NAME,
      operation: call.operation,
      idempotent: call.idempotent,
      parse,
      readErrors: parseFedexErrors,
      onRejected,
    });
  }

  /** Rates, ship, cancel and pickup all name the FedEx account: without one nothing is sent. */
  private accountNumber(ctx: ApiCallContext): string | null {
    return ctx.account.account_number?.trim() || null;
  }

  private missingAccountNumber<T>(): DriverResult<T> {
    return refused([
      {
        code: 'carrier_account_invalid',
        carrier_code: 'missing_account_number',
        message: 'The account has no FedEx account number (account_number)',
        field: 'account_number',
      },
    ]);
  }

  async rates(ctx: ApiCallContext, request: ApiRateRequest) {
    const account = this.accountNumber(ctx);
    if (!account) return this.missingAccountNumber<never>();
    // One Ground service asked for (serviceType sent) travels as YOUR_PACKAGING, as its label would.
    const only = request.service_codes?.length === 1 ? fedexServiceType(request.service_codes[0]) : null;
    const packaging = fedexPackaging(parcelsOf(request), only ? isGroundService(only) : undefined);
    if (!packaging.ok) return rejected<never>([{ code: 'carrier_rejected', carrier_code: 'mixed_packaging', message: packaging.message, field: 'parcels' }]);
    return this.run(
      ctx,
      { operation: 'rates', method: 'POST', path: RATE_PATH, json: buildRateRequest(request, account, packaging), idempotent: true },
      (body, res) => {
        const parsed = parseRateResponse(body, request.ship_date, request.service_codes, request.options);
        if (!parsed) throw malformed('rates', res, true);
        return { ok: true, value: parsed };
      },
    );
  }

  async purchase(ctx: ApiCallContext, request: ApiPurchaseRequest) {
    const account = this.accountNumber(ctx);
    if (!account) return this.missingAccountNumber<never>();
    const serviceType = fedexServiceType(request.service_code);
    if (!serviceType) {
      return rejected<never>([
        { code: 'carrier_rejected', carrier_code: 'unknown_service', message: `FedEx has no service ${request.service_code}`, field: 'service_code' },
      ]);
    }
    const phones = shipPhones(request);
    if (!phones) {
      return rejected<never>([
        { code: 'carrier_rejected', carrier_code: 'missing_phone', message: 'FedEx requires a phone number for the shipper', field: 'ship_from.phone' },
      ]);
    }
    const packaging = fedexPackaging(parcelsOf(request), isGroundService(serviceType));
    if (!packaging.ok) return rejected<never>([{ code: 'carrier_rejected', carrier_code: 'mixed_packaging', message: packaging.message, field: 'parcels' }]);
    return this.run(
      ctx,
      // A label purchase is never sent twice: a lost answer may hide an issued label.
      { operation: 'purchase', method: 'POST', path: SHIP_PATH, json: buildShipRequest(request, account, serviceType, phones, packaging), idempotent: false },
      (body, res) => {
        const parsed = parseShipResponse(body, request, serviceType);
        if (!parsed) throw malformed('purchase', res, false);
        return { ok: true, value: parsed };
      },
    );
  }

  async void(ctx: ApiCallContext, request: { carrier_shipment_id: string; tracking_numbers?: readonly string[] }) {
    const account = this.accountNumber(ctx);
    if (!account) return this.missingAccountNumber<never>();
    return this.run(
      ctx,
      // Cancelling twice is harmless (the second is refused), so it may retry.
      { operation: 'void', method: 'PUT', path: CANCEL_PATH, json: buildCancelRequest(account, request.carrier_shipment_id), idempotent: true },
      (body, res): DriverResult<{ voided: true }> => {
        const parsed = parseCancelResponse(body);
        if (!parsed) throw malformed('void', res, true);
        return parsed.cancelled
          ? { ok: true, value: { voided: true } }
          : rejected([{ code: 'carrier_rejected', carrier_code: 'cancel_refused', message: parsed.message ?? 'FedEx did not cancel the shipment' }]);
      },
    );
  }

  track(ctx: ApiCallContext, request: { tracking_number: string }) {
    return this.run<ApiTrackResult>(
      ctx,
      { operation: 'tracking', method: 'POST', path: TRACK_PATH, json: buildTrackRequest(request.tracking_number), idempotent: true },
      (body, res) => {
        const parsed = parseTrackResponse(body);
        if (!parsed) throw malformed('tracking', res, true);
        return parsed.ok ? { ok: true, value: parsed.value } : rejected(parsed.messages);
      },
    );
  }

  validateAddress(ctx: ApiCallContext, address: Address) {
    return this.run(
      ctx,
      { operation: 'address_validation', method: 'POST', path: RESOLVE_PATH, json: buildResolveRequest(address), idempotent: true },
      (body, res) => {
        const parsed = parseResolveResponse(body, address);
        if (!parsed) throw malformed('address_validation', res, true);
        return { ok: true, value: parsed };
      },
      (messages) => {
        const verdict = verdictForRejection(messages);
        return verdict ? { ok: true, value: verdict } : null;
      },
    );
  }

  /**
   * FedEx Ground End-of-Day Close for the manifest's ship date. FedEx closes every open Ground
   * shipment of the account for that date; Express shipments in the list need no close and come
   * back in `rejected`. Not retried: a second close of the same day is refused or empty.
   */
  async manifest(ctx: ApiCallContext, request: ApiManifestRequest): Promise<DriverResult<ApiManifestResult>> {
    const account = this.accountNumber(ctx);
    if (!account) return this.missingAccountNumber<never>();
    const { ground, rejected: notGround } = splitForClose(request);
    if (ground.length === 0) {
      return rejected<never>([
        {
          code: 'carrier_rejected',
          carrier_code: 'no_ground_shipments',
          message: 'FedEx closes FedEx Ground shipments only; none was given',
          field: 'shipments',
        },
      ]);
    }
    return this.run(
      ctx,
      { operation: 'manifest', method: 'PUT', path: CLOSE_PATH, json: buildCloseRequest(account, request.ship_date), idempotent: false },
      (body, res) => {
        const parsed = parseCloseResponse(body, notGround);
        if (!parsed) throw malformed('manifest', res, false);
        return { ok: true, value: parsed };
      },
    );
  }

  async schedulePickup(ctx: ApiCallContext, request: Parameters<CarrierApiDriver['schedulePickup']>[1]) {
    const account = this.accountNumber(ctx);
    if (!account) return this.missingAccountNumber<never>();
    const carrier = pickupCarrier(request);
    if ('problem' in carrier)
      return rejected<never>([{ code: 'carrier_rejected', carrier_code: 'pickup_services', message: carrier.problem, field: 'pieces' }]);
    return this.run(
      ctx,
      // Booking twice would book two pickups: not retried.
      { operation: 'pickup', method: 'POST', path: PICKUP_PATH, json: buildPickupRequest(request, account, carrier.carrier), idempotent: false },
      (body, res) => {
        const parsed = parsePickupResponse(body, request, carrier.carrier);
        if (!parsed) throw malformed('pickup', res, false);
        return { ok: true, value: parsed };
      },
    );
  }

  async cancelPickup(ctx: ApiCallContext, request: { confirmation: string }) {
    const account = this.accountNumber(ctx);
    if (!account) return this.missingAccountNumber<never>();
    const confirmation = parseConfirmation(request.confirmation);
    if (!confirmation) {
      return rejected<never>([
        {
          code: 'carrier_rejected',
          carrier_code: 'unknown_confirmation',
          message: 'Not a FedEx pickup confirmation issued by this driver (code~date~carrier)',
          field: 'confirmation',
        },
      ]);
    }
    return this.run(
      ctx,
      { operation: 'pickup_cancel', method: 'PUT', path: PICKUP_CANCEL_PATH, json: buildPickupCancelRequest(account, confirmation), idempotent: true },
      (body, res): DriverResult<{ cancelled: true }> => {
        if (!parsePickupCancelResponse(body)) throw malformed('pickup_cancel', res, true);
        return { ok: true, value: { cancelled: true } };
      },
    );
  }

  /** Obtains a fresh token: the cheapest authenticated exchange FedEx has. */
  testCredentials(ctx: ApiCallContext): Promise<DriverResult<{ latency_ms: number }>> {
    return testByFetchingToken(() => this.fetchToken(ctx));
  }
}

export function createFedexApiDriver(http: CarrierHttpClient): CarrierApiDriver {
  return new FedexApiDriver(http);
}
