import { Type, type TSchema, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyBaseLogger, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { errorCatalogue } from '../errors.js';

/** The Fastify instance type every routes file receives (TypeBox type provider). */
export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

export const ErrorDetailSchema = Type.Object({
  field: Type.String(),
  message: Type.String(),
});

/** One entry of an error's `details`, as sent for every code (a code may add its own keys, e.g. carrier_code). */
const ErrorDetailEntrySchema = Type.Object(
  {
    field: Type.Optional(Type.String({ description: 'The field (or header, or `status` for invalid_state) the entry is about.' })),
    message: Type.Optional(Type.String()),
    current_state: Type.Optional(Type.String({ description: 'invalid_state: the state the resource is in.' })),
    allowed_moves: Type.Optional(Type.Array(Type.String(), { description: 'invalid_state: the moves allowed from current_state (empty when none).' })),
  },
  { additionalProperties: true },
);

/** The 409 invalid_state example: its one detail names the state and the moves it allows. */
export const INVALID_STATE_EXAMPLE = {
  code: 'invalid_state',
  message: 'The order is shipped; it cannot cancel. Allowed moves from shipped: deliver.',
  details: [{ field: 'status', message: 'is shipped; cannot cancel', current_state: 'shipped', allowed_moves: ['deliver'] }],
  request_id: 'req_0cebcef5141540549db804e2bb73cd2d',
};

/** A validation error as the error handler writes it: the example of the Error schema (and of every 400). */
export const ERROR_EXAMPLE = {
  code: 'validation_failed',
  message: 'The request is invalid.',
  details: [
    { field: 'line_items', message: 'must NOT have fewer than 1 items' },
    { field: 'ship_to.postal_code', message: 'is required for US' },
  ],
  request_id: 'req_0cebcef5141540549db804e2bb73cd2d',
};

export const ErrorResponseSchema = Type.Object(
  {
    code: Type.String({ description: 'Machine-readable error code (see the catalogue in the docs).' }),
    message: Type.String(),
    details: Type.Optional(
      Type.Array(ErrorDetailEntrySchema, {
        description:
          'Always a list, for every code: validation errors carry [{field, message}]; a 409 invalid_state carries ' +
          '[{field: "status", message, current_state, allowed_moves}].',
      }),
    ),
    request_id: Type.String(),
  },
  { $id: 'Error', title: 'Error', examples: [ERROR_EXAMPLE] },
);

const statusDescriptions: Record<number, string> = {
  400: 'Invalid request (validation_failed, invalid_json)',
  401: 'Missing or invalid credentials',
  403: 'Forbidden',
  404: 'Not found',
  409: 'Conflict or illegal state move',
  410: 'Gone',
  413: 'Payload too large',
  415: 'Unsupported media type',
  422: 'Unprocessable',
  429: 'Rate limited',
  500: 'Internal error',
  503: 'Service unavailable (the database is unreachable, a carrier cannot be reached, or the service is shutting down): retry after Retry-After seconds',
};

/**
 * Response schemas for the error statuses a route can answer, for OpenAPI. Every route gets
 * 400, 401 (when authenticated), 429, 500 and 503; callers add the route-specific ones.
 */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = {};
  // 503: any route that reads or writes the database answers it while the database is away.
  for (const status of new Set([400, 500, 503, ...statuses])) {
    out[status] = Type.Ref(ErrorResponseSchema, { description: statusDescriptions[status] ?? 'Error' });
  }
  return out;
}

/**
 * The bounds of an integer that has no smaller natural one: the integers a JSON number holds
 * exactly in this service (JavaScript), which the validator enforces; beyond them a value would
 * be silently rounded.
 */
export const SAFE_INTEGER = { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER } as const;

/** `?limit=`: out-of-range values are clamped to 1..100, not refused (docs/api-conventions.md). */
export const PageLimitSchema = Type.Integer({ ...SAFE_INTEGER, description: 'Page size, default 20, clamped to 1..100.' });

export const MoneySchema = Type.Object(
  {
    amount: Type.Integer({ minimum: 0, maximum: SAFE_INTEGER.maximum, description: 'Integer minor units (cents).' }),
    currency: Type.String({ pattern: '^[A-Z]{3}$', maxLength: 3, description: 'ISO 4217 code.' }),
  },
  { additionalProperties: false },
);
export type Money = Static<typeof MoneySchema>;

export function listResponse<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    has_more: Type.Boolean(),
    next_cursor: Type.Union([Type.String(), Type.Null()]),
  });
}

/**
 * A list filter on a time (`created_after`, `since`, `from`…): an ISO date or date-time, read
 * by `parseInstant` (wire.ts). The format refuses what no database row can be compared with
 * (year 0000, Feb 30, 24:00, a 15-hour offset: dates.ts) as 400 validation_failed on the field.
 */
export function DateOrDateTimeParam(description: string) {
  return Type.String({ format: 'date-or-date-time', maxLength: 40, description, examples: ['2026-03-01', '2026-03-01T15:00:00Z'] });
}

/** A date-time in a body (RFC 3339 with its offset; years 0001–9999: dates.ts). */
export const DateTimeSchema = Type.String({ format: 'date-time', maxLength: 40 });

/** A calendar date in a body (`YYYY-MM-DD`, a day that exists: dates.ts). */
export const DateSchema = Type.String({ format: 'date', maxLength: 10 });

export const PaginationQuerySchema = Type.Object({
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});

/** Known codes, for the docs. */
export const errorCodes = Object.keys(errorCatalogue);
