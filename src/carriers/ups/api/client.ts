/**
 * The UPS `api` driver: the only file of this folder that performs HTTP, through the shared
 * carrier client (deadline, retries for idempotent calls, breaker, token cache, exchange log).
 * Everything it sends and reads is built and parsed by the pure modules beside it.
 */
import { randomUUID } from 'node:crypto';
import type { ApiCallContext, ApiPurchaseRequest, ApiRateRequest, CarrierApiDriver, ApiTrackResult, DriverResult } from '../../driver.js';
import { parseJson, type CarrierHttpClient, type CarrierHttpResponse, type HttpMethod } from '../../http/client.js';
import { CredentialsRefused, errorBody, malformedAnswer, refused, rejected, sortAnswer, testByFetchingToken } from '../../http/driver-results.js';
import type { Address } from '../../types.js';
import { buildAddressValidationRequest, parseAddressValidationResponse, XAV_REQUEST_OPTION } from './addresses.js';
import { buildTokenRequest, parseTokenResponse, UPS_TOKEN_PATH } from './auth.js';
import { readUpsCredentials, upsCredentialsSchema, upsHost, UPS_HOSTS, UPS_VERSIONS } from './credentials.js';
import { parseUpsErrors } from './errors.js';
import { buildPickupRequest, parsePickupCancelResponse, parsePickupResponse, pickupCancelPath } from './pickups.js';
import { buildRateRequest, parseRateResponse, RATE_REQUEST_OPTION } from './rates.js';
import { buildShipRequest, parseShipResponse, parseVoidResponse, serviceForPurchase, voidPath } from './shipments.js';
import { parseTrackResponse, trackPath } from './tracking.js';
import { upsLabelImage } from './units.js';

const SLUG = 'ups';
/** UPS's `transactionSrc` header: who is calling. */
const TRANSACTION_SRC = 'shipping-service';

const malformed = (operation: string, res: CarrierHttpResponse, idempotent: boolean) => malformedAnswer(SLUG, 'UPS', operation, res, idempotent);

interface Call {
  operation: string;
  method: HttpMethod;
  path: string;
  json?: unknown;
  idempotent: boolean;
  headers?: Record<string, string>;
}

export class UpsApiDriver implements CarrierApiDriver {
  readonly carrier = SLUG;
  readonly credentialsSchema = upsCredentialsSchema as unknown as Record<string, unknown>;
  readonly hosts = UPS_HOSTS;

  labelImage(labelFormat: string) {
    return upsLabelImage(labelFormat);
  }

  constructor(private readonly http: CarrierHttpClient) {}

  private host(ctx: ApiCallContext): string {
    return upsHost(ctx.account.mode, ctx.account.base_url);
  }

  private tokenKey(ctx: ApiCallContext): string {
    const creds = readUpsCredentials(ctx.account.credentials);
    return `${SLUG}:${ctx.account.id}:${this.host(ctx)}:${creds?.client_id ?? ''}`;
  }

  /** `POST /security/v1/oauth/token` with HTTP basic auth; idempotent, so retried on 429/5xx. */
  private async fetchToken(ctx: ApiCallContext) {
    const creds = readUpsCredentials(ctx.account.credentials);
    if (!creds) {
      throw new CredentialsRefused('UPS', [
        { code: 'carrier_account_invalid', carrier_code: 'missing_credentials', message: 'client_id and client_secret are required' },
      ]);
    }
    const { headers, form } = buildTokenRequest(creds, ctx.account.account_number);
    const res = await this.http.request({
      carrier: SLUG,
      accountId: ctx.account.id,
      operation: 'token',
      method: 'POST',
      url: `${this.host(ctx)}${UPS_TOKEN_PATH}`,
      headers,
      form,
      idempotent: true,
      timeoutMs: ctx.timeoutMs,
      requestId: ctx.requestId,
    });
    if (res.status >= 400) {
      const errors = parseUpsErrors(res.status, errorBody(res));
      // 400/401/403 from the token endpoint: the credentials (or the merchant) are refused.
      throw new CredentialsRefused(
        'UPS',
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
      headers: { transId: randomUUID().replace(/-/g, ''), transactionSrc: TRANSACTION_SRC, ...call.headers },
      json: call.json,
      idempotent: call.idempotent,
      timeoutMs: ctx.timeoutMs,
      requestId: ctx.requestId,
      oauth: { key: this.tokenKey(ctx), fetchToken: () => this.fetchToken(ctx) },
    });
  }

  /** Sends a call and sorts the answer (http/driver-results.ts `sortAnswer`) with UPS's error reader. */
  private run<T>(ctx: ApiCallContext, call: Call, parse: (body: unknown, res: CarrierHttpResponse) => DriverResult<T>): Promise<DriverResult<T>> {
    return sortAnswer(() => this.send(ctx, call), {
      slug: SLUG,
      carrierName: 'UPS',
      operation: call.operation,
      idempotent: call.idempotent,
      parse,
      readErrors: parseUpsErrors,
    });
  }

  private needsAccountNumber<T>(ctx: ApiCallContext): DriverResult<T> | null {
    return ctx.account.account_number
      ? null
      : refused([
          { code: 'carrier_account_invalid', carrier_code: 'missing_account_number', message: 'The account has no UPS shipper number (account_number)' },
        ]);
  }

  rates(ctx: ApiCallContext, request: ApiRateRequest) {
    return this.run(
      ctx,
      {
        operation: 'rates',
        method: 'POST',
        path: `/api/rating/${UPS_VERSIONS.rating}/${RATE_REQUEST_OPTION}`,
        json: buildRateRequest(request, ctx.account.account_number),
        idempotent: true,
      },
      (body, res) => {
        const parsed = parseRateResponse(body, request.service_codes, request.options);
        if (!parsed) throw malformed('rates', res, true);
        return { ok: true, value: parsed };
      },
    );
  }

  async purchase(ctx: ApiCallContext, request: ApiPurchaseRequest) {
    const missing = this.needsAccountNumber<never>(ctx);
    if (missing) return missing;
    const service = serviceForPurchase(request.service_code);
    if (!service) {
      return rejected<never>([
        { code: 'carrier_rejected', carrier_code: 'unknown_service', message: `UPS has no service ${request.service_code}`, field: 'service_code' },
      ]);
    }
    return this.run(
      ctx,
      {
        operation: 'purchase',
        method: 'POST',
        path: `/api/shipments/${UPS_VERSIONS.shipping}/ship`,
        json: buildShipRequest(request, ctx.account.account_number!, service),
        // A label purchase is never sent twice: a lost answer may hide an issued label.
        idempotent: false,
      },
      (body, res) => {
        const parsed = parseShipResponse(body, request, service);
        if (!parsed) throw malformed('purchase', res, false);
        return { ok: true, value: parsed };
      },
    );
  }

  void(ctx: ApiCallContext, request: { carrier_shipment_id: string; tracking_numbers?: readonly string[] }) {
    return this.run(
      ctx,
      {
        operation: 'void',
        method: 'DELETE',
        path: voidPath(UPS_VERSIONS.shipping, request.carrier_shipment_id, request.tracking_numbers),
        // Voiding twice is harmless (the second says "already voided"), so it may retry.
        idempotent: true,
      },
      (body, res): DriverResult<{ voided: true }> => {
        const parsed = parseVoidResponse(body);
        if (!parsed) throw malformed('void', res, true);
        return parsed.voided
          ? { ok: true, value: { voided: true } }
          : rejected([{ code: 'carrier_rejected', carrier_code: 'void_failed', message: parsed.description ?? 'UPS did not void the shipment' }]);
      },
    );
  }

  track(ctx: ApiCallContext, request: { tracking_number: string }) {
    return this.run<ApiTrackResult>(ctx, { operation: 'tracking', method: 'GET', path: trackPath(request.tracking_number), idempotent: true }, (body, res) => {
      const parsed = parseTrackResponse(body);
      if (!parsed) throw malformed('tracking', res, true);
      return parsed.ok ? { ok: true, value: parsed.value } : rejected(parsed.messages);
    });
  }

  validateAddress(ctx: ApiCallContext, address: Address) {
    return this.run(
      ctx,
      {
        operation: 'address_validation',
        method: 'POST',
        path: `/api/addressvalidation/${UPS_VERSIONS.addressValidation}/${XAV_REQUEST_OPTION}?maximumcandidatelistsize=5`,
        json: buildAddressValidationRequest(address),
        idempotent: true,
      },
      (body, res) => {
        const parsed = parseAddressValidationResponse(body, address);
        if (!parsed) throw malformed('address_validation', res, true);
        return { ok: true, value: parsed };
      },
    );
  }

  async schedulePickup(ctx: ApiCallContext, request: Parameters<CarrierApiDriver['schedulePickup']>[1]) {
    const missing = this.needsAccountNumber<never>(ctx);
    if (missing) return missing;
    const json = buildPickupRequest(request, ctx.account.account_number!);
    if (!json) {
      return rejected<never>([
        { code: 'carrier_rejected', carrier_code: 'unknown_service', message: 'A piece names a service UPS does not have', field: 'pieces' },
      ]);
    }
    return this.run(
      ctx,
      // Booking twice would book two pickups: not retried.
      { operation: 'pickup', method: 'POST', path: `/api/pickupcreation/${UPS_VERSIONS.pickup}/pickup`, json, idempotent: false },
      (body, res) => {
        const parsed = parsePickupResponse(body);
        if (!parsed) throw malformed('pickup', res, false);
        return { ok: true, value: parsed };
      },
    );
  }

  cancelPickup(ctx: ApiCallContext, request: { confirmation: string }) {
    return this.run(
      ctx,
      { operation: 'pickup_cancel', method: 'DELETE', path: pickupCancelPath(UPS_VERSIONS.pickup), headers: { Prn: request.confirmation }, idempotent: true },
      (body, res): DriverResult<{ cancelled: true }> => {
        if (!parsePickupCancelResponse(body)) throw malformed('pickup_cancel', res, true);
        return { ok: true, value: { cancelled: true } };
      },
    );
  }

  /** Obtains a fresh token: the cheapest authenticated exchange UPS has. */
  testCredentials(ctx: ApiCallContext): Promise<DriverResult<{ latency_ms: number }>> {
    return testByFetchingToken(() => this.fetchToken(ctx));
  }
}

export function createUpsApiDriver(http: CarrierHttpClient): CarrierApiDriver {
  return new UpsApiDriver(http);
}
