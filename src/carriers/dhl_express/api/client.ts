/**
 * The DHL Express (MyDHL API) `api` driver: the only file of this folder that performs HTTP,
 * through the shared carrier client (deadline, retries for idempotent calls, breaker, exchange
 * log). Every call carries HTTP basic auth (no token, so no token cache and no 401 refetch).
 * Everything it sends and reads is built and parsed by the pure modules beside it.
 */
import { randomUUID } from 'node:crypto';
import type {
  ApiCallContext,
  ApiPickupRequest,
  ApiPurchaseRequest,
  ApiRateRequest,
  ApiTrackResult,
  ApiVoidRequest,
  CarrierApiDriver,
  DriverResult,
} from '../../driver.js';
import type { CarrierHttpClient, CarrierHttpResponse, HttpMethod } from '../../http/client.js';
import { CarrierTransportError, type CarrierMessage } from '../../http/errors.js';
import type { Address } from '../../types.js';
import { addressValidatePath, parseAddressValidateResponse } from './addresses.js';
import { basicAuthorization, dhlCredentialsSchema, dhlHost, DHL_API_VERSION, DHL_HOSTS, readDhlCredentials } from './credentials.js';
import { parseDhlErrors } from './errors.js';
import { buildPickupRequest, parsePickupResponse, pickupCancelPath } from './pickups.js';
import { buildRateRequest, parseRateResponse } from './rates.js';
import { buildShipmentRequest, parseShipmentResponse } from './shipments.js';
import { parseTrackResponse, trackPath } from './tracking.js';
import { DHL_PRODUCTS, dhlProductCode, dhlLabelImage, dhlServiceName } from './units.js';
import { parseProductsResponse, productsPath } from './products.js';
import { missingFields, type RequiredAddressField } from './wire.js';

const SLUG = 'dhl_express';

/**
 * The cheapest authenticated call MyDHL offers: one service-area lookup (a GET with three query
 * parameters, nothing booked or priced). Any answer but 401/403 means the key and secret work.
 */
const CREDENTIALS_PROBE: Address = { country: 'DE', postal_code: '53113', city: 'Bonn' };

/** Refused before calling DHL: fields its schemas require that the request lacks. */
function incomplete<T>(parties: Record<string, Address>, fields: readonly RequiredAddressField[]): DriverResult<T> | null {
  const missing = missingFields(parties, fields);
  return missing.length ? rejected(missing.map((m) => ({ code: 'carrier_rejected' as const, carrier_code: 'required_field', ...m }))) : null;
}

const rejected = <T>(messages: CarrierMessage[]): DriverResult<T> => ({ ok: false, kind: 'rejected', messages });
const refused = <T>(messages: CarrierMessage[]): DriverResult<T> => ({ ok: false, kind: 'invalid_credentials', messages });

function malformed(operation: string, res: CarrierHttpResponse, idempotent: boolean, cause?: unknown): CarrierTransportError {
  return new CarrierTransportError(SLUG, 'malformed_response', `DHL Express answered ${operation} with a body we cannot read`, {
    retryable: idempotent,
    status: res.status,
    cause,
  });
}

interface Call {
  operation: string;
  method: HttpMethod;
  path: string;
  json?: unknown;
  idempotent: boolean;
}

export class DhlExpressApiDriver implements CarrierApiDriver {
  readonly carrier = SLUG;
  readonly credentialsSchema = dhlCredentialsSchema as unknown as Record<string, unknown>;
  readonly hosts = DHL_HOSTS;

  labelImage(labelFormat: string) {
    return dhlLabelImage(labelFormat);
  }

  constructor(private readonly http: CarrierHttpClient) {}

  private async send(ctx: ApiCallContext, call: Call, authorization: string): Promise<CarrierHttpResponse> {
    return this.http.request({
      carrier: SLUG,
      accountId: ctx.account.id,
      operation: call.operation,
      method: call.method,
      url: `${dhlHost(ctx.account.mode, ctx.account.base_url)}${call.path}`,
      headers: { authorization, 'x-version': DHL_API_VERSION, 'message-reference': randomUUID() },
      json: call.json,
      idempotent: call.idempotent,
      timeoutMs: ctx.timeoutMs,
      requestId: ctx.requestId,
    });
  }

  /**
   * Sends a call and sorts the answer: 2xx → `parse(body)` (null for an empty body);
   * 401/403 → invalid_credentials; other 4xx → rejected with DHL's messages. Transport failures
   * (5xx, 429, network, deadline) are thrown by the HTTP client.
   */
  private async run<T>(
    ctx: ApiCallContext,
    call: Call,
    parse: (body: unknown, res: CarrierHttpResponse) => DriverResult<T>,
    onRejected?: (m: CarrierMessage[], status: number) => CarrierMessage[],
  ): Promise<DriverResult<T>> {
    const creds = readDhlCredentials(ctx.account.credentials);
    if (!creds) return refused([{ code: 'carrier_account_invalid', carrier_code: 'missing_credentials', message: 'api_key and api_secret are required' }]);
    const res = await this.send(ctx, call, basicAuthorization(creds));
    let body: unknown = null;
    if (res.body.trim() !== '') {
      try {
        body = res.json ? res.json.value : JSON.parse(res.body);
      } catch (err) {
        // An unreadable success is no success; an unreadable refusal is still read by its status.
        if (res.status < 400) throw malformed(call.operation, res, call.idempotent, err);
      }
    }
    if (res.status >= 200 && res.status < 300) return parse(body, res);
    const errors = parseDhlErrors(res.status, body);
    if (errors.credentialsRefused) return refused(errors.messages);
    return rejected(onRejected ? onRejected(errors.messages, res.status) : errors.messages);
  }

  private needsAccountNumber<T>(ctx: ApiCallContext): DriverResult<T> | null {
    return ctx.account.account_number
      ? null
      : refused([
          {
            code: 'carrier_account_invalid',
            carrier_code: 'missing_account_number',
            message: 'The account has no DHL Express account number (account_number)',
          },
        ]);
  }

  async rates(ctx: ApiCallContext, request: ApiRateRequest) {
    // DHL Express stays international-only inside the US, as the simulated carrier is:
    // no call, every service unavailable.
    if (usDomestic(request)) {
      const codes = request.service_codes ?? DHL_PRODUCTS.map((p) => p.ours);
      return { ok: true as const, value: { rates: [], unavailable: codes.map((service_code) => ({ service_code, reason: US_DOMESTIC })) } };
    }
    const missing = incomplete<never>({ ship_from: request.ship_from, ship_to: request.ship_to }, ['city']);
    if (missing) return missing;
    return this.run(
      ctx,
      { operation: 'rates', method: 'POST', path: '/rates', json: buildRateRequest(request, ctx.account.account_number, new Date()), idempotent: true },
      (body, res) => {
        const parsed = parseRateResponse(body, request.service_codes);
        if (!parsed) throw malformed('rates', res, true);
        return { ok: true, value: parsed };
      },
    );
  }

  async purchase(ctx: ApiCallContext, request: ApiPurchaseRequest) {
    if (usDomestic(request))
      return rejected<never>([{ code: 'carrier_rejected', carrier_code: 'us_domestic', message: US_DOMESTIC, field: 'ship_to.country' }]);
    const missing = this.needsAccountNumber<never>(ctx);
    if (missing) return missing;
    const productCode = dhlProductCode(request.service_code);
    if (!productCode) {
      return rejected<never>([
        { code: 'carrier_rejected', carrier_code: 'unknown_service', message: `DHL Express has no service ${request.service_code}`, field: 'service_code' },
      ]);
    }
    const incompleteParties = incomplete<never>({ ship_from: request.ship_from, ship_to: request.ship_to }, ['street1', 'city', 'phone']);
    if (incompleteParties) return incompleteParties;
    if ((request.parcels?.length ?? 1) === 1) {
      const offered = await this.productsOffered(ctx, request);
      if (!offered.ok) return offered;
      if (!offered.value.includes(productCode)) {
        return rejected<never>([
          {
            code: 'carrier_rejected',
            carrier_code: 'product_unavailable',
            message: `DHL Express does not offer ${dhlServiceName(productCode)} (${productCode}) for this parcel on this lane and date`,
            field: 'service_code',
          },
        ]);
      }
    }
    return this.run(
      ctx,
      {
        operation: 'purchase',
        method: 'POST',
        path: '/shipments',
        json: buildShipmentRequest(request, ctx.account.account_number!, productCode),
        // A label purchase is never sent twice: a lost answer may hide an issued label.
        idempotent: false,
      },
      (body, res) => {
        const parsed = parseShipmentResponse(body, request, productCode);
        if (!parsed) throw malformed('purchase', res, false);
        return { ok: true, value: parsed };
      },
    );
  }

  /** The product/capability check: the products DHL can deliver for this one piece (idempotent, retried). */
  private productsOffered(ctx: ApiCallContext, request: ApiPurchaseRequest) {
    return this.run<string[]>(
      ctx,
      { operation: 'products', method: 'GET', path: productsPath(request, ctx.account.account_number!), idempotent: true },
      (body, res) => {
        const codes = parseProductsResponse(body);
        if (!codes) throw malformed('products', res, true);
        return { ok: true, value: codes };
      },
    );
  }

  /**
   * MyDHL has no void: an unused waybill is never billed, so voiding is ours alone and asks
   * nothing of DHL. A pickup booked for this shipment alone is cancelled, so no courier comes.
   */
  async void(ctx: ApiCallContext, request: ApiVoidRequest): Promise<DriverResult<{ voided: true }>> {
    if (!request.pickup_confirmation) return { ok: true, value: { voided: true } };
    const cancelled = await this.cancelPickup(ctx, { confirmation: request.pickup_confirmation });
    return cancelled.ok ? { ok: true, value: { voided: true } } : cancelled;
  }

  track(ctx: ApiCallContext, request: { tracking_number: string }) {
    return this.run<ApiTrackResult>(
      ctx,
      { operation: 'tracking', method: 'GET', path: trackPath(request.tracking_number), idempotent: true },
      (body, res) => {
        const parsed = parseTrackResponse(body);
        if (!parsed) throw malformed('tracking', res, true);
        return { ok: true, value: parsed };
      },
      // 404 "No data found" (and a 400 on the number) are about the tracking number.
      (messages) => messages.map((m) => ({ ...m, field: m.field ?? 'tracking_number' })),
    );
  }

  validateAddress(ctx: ApiCallContext, address: Address) {
    return this.run(ctx, { operation: 'address_validation', method: 'GET', path: addressValidatePath(address), idempotent: true }, (body, res) => {
      const parsed = parseAddressValidateResponse(body, address);
      if (!parsed) throw malformed('address_validation', res, true);
      return { ok: true, value: parsed };
    });
  }

  async schedulePickup(ctx: ApiCallContext, request: ApiPickupRequest) {
    const missing = this.needsAccountNumber<never>(ctx);
    if (missing) return missing;
    const json = buildPickupRequest(request, ctx.account.account_number!);
    if (!json) {
      return rejected<never>([
        { code: 'carrier_rejected', carrier_code: 'unknown_service', message: 'A piece names a service DHL Express does not have', field: 'pieces' },
      ]);
    }
    const incompleteAddress = incomplete<never>({ address: request.address }, ['street1', 'city', 'phone']);
    if (incompleteAddress) return incompleteAddress;
    return this.run(
      ctx,
      // Booking twice would book two pickups: not retried.
      { operation: 'pickup', method: 'POST', path: '/pickups', json, idempotent: false },
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
      // Cancelling twice only says "already cancelled": safe to retry.
      { operation: 'pickup_cancel', method: 'DELETE', path: pickupCancelPath(request.confirmation), idempotent: true },
      (): DriverResult<{ cancelled: true }> => ({ ok: true, value: { cancelled: true } }),
    );
  }

  /** One service-area lookup: ok unless DHL refuses the key and secret. */
  async testCredentials(ctx: ApiCallContext): Promise<DriverResult<{ latency_ms: number }>> {
    const started = Date.now();
    const res = await this.run(
      ctx,
      { operation: 'credentials_test', method: 'GET', path: addressValidatePath(CREDENTIALS_PROBE, 'pickup'), idempotent: true },
      (): DriverResult<true> => ({ ok: true, value: true }),
    );
    if (!res.ok && res.kind === 'invalid_credentials') return res;
    // A 4xx other than 401/403 was still an authenticated answer.
    return { ok: true, value: { latency_ms: Date.now() - started } };
  }
}

export function createDhlExpressApiDriver(http: CarrierHttpClient): CarrierApiDriver {
  return new DhlExpressApiDriver(http);
}

const US_DOMESTIC = 'DHL Express offers no US-to-US service';

function usDomestic(request: { ship_from: { country: string }; ship_to: { country: string } }): boolean {
  return request.ship_from.country.toUpperCase() === 'US' && request.ship_to.country.toUpperCase() === 'US';
}
