/**
 * The single catalogue of error codes (docs/api-conventions.md). Every error a client can see is one of
 * these; the handler in platform/http/error-handler.ts turns an AppError into
 * `{code, message, details?, request_id}` with the catalogued status.
 */
export const errorCatalogue = {
  validation_failed: { status: 400, message: 'The request is invalid.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  bad_request: { status: 400, message: 'The HTTP request is malformed.' },
  oauth_invalid: { status: 400, message: 'The OAuth callback could not be verified (hmac, state or shop); nothing was stored.' },
  unauthorized: { status: 401, message: 'Authentication is required.' },
  invalid_signature: { status: 401, message: 'The webhook signature is missing or does not match.' },
  invalid_credentials: { status: 401, message: 'Email or password is incorrect.' },
  forbidden: { status: 403, message: 'You are not allowed to do this.' },
  account_pending: { status: 403, message: 'This account is awaiting approval.' },
  account_suspended: { status: 403, message: 'This account is suspended.' },
  not_available_in_production: { status: 403, message: 'Not available in production.' },
  not_found: { status: 404, message: 'The resource does not exist.' },
  method_not_allowed: { status: 405, message: 'Method not allowed on this route.' },
  request_timeout: { status: 408, message: 'The request took too long to arrive.' },
  invalid_state: { status: 409, message: 'The resource is not in a state that allows this.' },
  conflict: { status: 409, message: 'The resource already exists.' },
  idempotency_key_in_use: { status: 409, message: 'A request with this Idempotency-Key is still running.' },
  gone: { status: 410, message: 'The resource is no longer available.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'Content-Type must be application/json.' },
  idempotency_key_reused: { status: 422, message: 'This Idempotency-Key was used with a different request.' },
  unprocessable: { status: 422, message: 'The request cannot be processed.' },
  no_rates: { status: 422, message: 'No carrier service can carry this parcel.' },
  address_undeliverable: { status: 422, message: 'The address is not deliverable.' },
  missing_ship_from: { status: 422, message: 'No ship-from address: set one on the order or the workspace.' },
  customs_required: {
    status: 422,
    message:
      "The parcel needs a customs declaration (it crosses a border or goes to a US military address) and none can be derived from the order's line items.",
  },
  customs_invalid: { status: 422, message: 'The customs declaration breaks a customs rule (one detail per problem).' },
  carrier_rejected: { status: 422, message: 'The carrier refused the request.' },
  carrier_account_invalid: { status: 422, message: "The carrier refused the account's credentials." },
  return_charge_unavailable: { status: 422, message: 'The carrier does not offer this return label charge (see return_charges in GET /v1/carrier-types).' },
  no_eligible_shipments: { status: 422, message: 'None of the shipments can go on a manifest.' },
  pickup_unavailable: { status: 422, message: 'The carrier cannot pick up at this time.' },
  option_unavailable: { status: 422, message: 'The service does not offer a shipment option asked for (see options in GET /v1/carrier-types).' },
  capability_unavailable: { status: 422, message: 'The carrier does not offer this.' },
  label_format_unavailable: { status: 422, message: 'The carrier did not issue the label in this format, and it cannot be converted losslessly.' },
  rate_limited: { status: 429, message: 'Too many requests.' },
  request_headers_too_large: { status: 431, message: 'The request headers (or the URL) are too large.' },
  internal_error: { status: 500, message: 'Something went wrong on our side.' },
  carrier_unavailable: { status: 503, message: 'The carrier is unavailable.' },
  service_unavailable: { status: 503, message: 'The service is temporarily unavailable.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;

export interface ErrorDetail {
  field: string;
  message: string;
}

/** The detail of every 409 invalid_state: the state the resource is in and the moves it allows from there. */
export interface StateDetail extends ErrorDetail {
  field: 'status';
  current_state: string;
  allowed_moves: string[];
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Always a list: one entry per field, or the invalid_state StateDetail. */
  readonly details?: readonly object[];
  readonly retryable: boolean;
  /** Seconds the client should wait (the Retry-After header of a 429 or 503). */
  readonly retryAfterSeconds?: number;

  constructor(
    code: ErrorCode,
    message?: string,
    options: { details?: readonly object[]; cause?: unknown; retryable?: boolean; retryAfterSeconds?: number; status?: number } = {},
  ) {
    super(message ?? errorCatalogue[code].message, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    // A code's own status, unless the case is pinned otherwise (a purchase refused for an order without a parcel weight is 422).
    this.status = options.status ?? errorCatalogue[code].status;
    this.details = options.details;
    this.retryable = options.retryable ?? false;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * 409 invalid_state: `details` is always the one-item list
 * `[{field: "status", message, current_state, allowed_moves}]`, whatever the resource.
 */
export function invalidState(message: string, state: { current: string; allowedMoves: readonly string[]; detail?: string }): AppError {
  const detail: StateDetail = {
    field: 'status',
    message: state.detail ?? `is ${state.current}`,
    current_state: state.current,
    allowed_moves: [...state.allowedMoves],
  };
  return new AppError('invalid_state', message, { details: [detail] });
}

/** 400 validation_failed with per-field details. */
export function validationError(details: ErrorDetail[], message = 'The request is invalid.'): AppError {
  return new AppError('validation_failed', message, { details });
}

export function notFound(what = 'resource'): AppError {
  return new AppError('not_found', `No such ${what}.`);
}

/** 429 rate_limited: the wait goes in the Retry-After header (details stay a list of fields, docs/api-conventions.md). */
export function rateLimited(message: string, retryAfterSeconds: number): AppError {
  return new AppError('rate_limited', message, { retryAfterSeconds: Math.max(1, Math.ceil(retryAfterSeconds)) });
}
