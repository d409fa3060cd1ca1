import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { MoneySchema, PageLimitSchema } from '../../platform/http/schemas.js';
import { AddressSchema } from '../addresses/index.js';
import { PICKUP_STATUSES } from './pickups.tables.js';
import { CREATE_PICKUP_BODY_EXAMPLE, PICKUP_EXAMPLE } from './pickups.examples.js';

const Timestamp = Type.String({ format: 'date-time' });
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const text = (maxLength: number, options: { minLength?: number; description?: string } = {}) =>
  Type.String({ maxLength, pattern: '^[^\\u0000]*$', ...options });
/**
 * ISO 8601 date-time with its offset (Z or ±hh:mm): a pickup window is local to its address.
 * The pattern asks for the offset; the format for a real instant (no 13:60, no +24:00: dates.ts).
 */
const Instant = Type.String({
  maxLength: 40,
  format: 'date-or-date-time',
  pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$',
  description: 'ISO 8601 with offset, e.g. 2026-03-03T13:00:00-05:00.',
});

export const PickupWindowSchema = Type.Object(
  { start: Instant, end: Instant },
  {
    additionalProperties: false,
    description: 'When the driver may come: at least 2 hours, on one day, not on a Sunday or a carrier holiday, at most 10 days ahead.',
  },
);

export const CreatePickupBody = Type.Object(
  {
    carrier: text(40, { minLength: 1, description: 'usps, ups, fedex or dhl_express (GET /v1/carrier-types: capabilities.pickups).' }),
    carrier_account_id: Type.Optional(text(100, { minLength: 1, description: "Default: the carrier's default account." })),
    location_id: Type.Optional(
      text(64, {
        minLength: 1,
        description:
          'In place of address: the location (`loc_…`) whose address the driver comes to, on its time zone. Default: the default location (without one: the workspace origin).',
      }),
    ),
    address: Type.Optional({ ...AddressSchema, description: "Where to pick up, in place of location_id. Default: the default location's address." }),
    window: PickupWindowSchema,
    shipment_ids: Type.Optional(
      Type.Array(text(64, { minLength: 1 }), {
        minItems: 1,
        maxItems: 500,
        description: 'The labels to collect (live labels of this carrier); they get their acceptance scan when the pickup completes.',
      }),
    ),
    package_count: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, description: 'How many parcels, when no shipment_ids are given.' })),
    instructions: Type.Optional(text(500, { description: 'For the driver.' })),
  },
  { additionalProperties: false, examples: [CREATE_PICKUP_BODY_EXAMPLE] },
);
export type CreatePickupInput = Static<typeof CreatePickupBody>;

export const PickupIdParams = Type.Object({ id: text(64) });
export const PickupListQuery = Type.Object({
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(text(512)),
  status: Type.Optional(Type.Union(PICKUP_STATUSES.map((s) => Type.Literal(s)))),
  location_id: Type.Optional(text(64, { description: 'Only the pickups of this location.' })),
});
export type PickupListFilter = Static<typeof PickupListQuery>;

export const PickupSchema = Type.Object(
  {
    id: Type.String(),
    carrier: Type.String(),
    carrier_account_id: Type.String(),
    status: Type.Union(
      PICKUP_STATUSES.map((s) => Type.Literal(s)),
      { description: "scheduled → cancelled (before cancel_by) | completed (at the window's end; its labels get their acceptance scan) | failed." },
    ),
    confirmation_number: Type.String({ description: "The carrier's confirmation (the simulated carrier makes one up)." }),
    location_id: Type.Union([Type.String(), Type.Null()], { description: 'The location the driver comes to (null: an address given in its place).' }),
    address: Type.Object({}, { additionalProperties: true, description: 'Where the driver comes.' }),
    window: Type.Object({ start: Type.String(), end: Type.String() }, { description: 'As requested, with its offset.' }),
    price: { ...MoneySchema, description: 'What the carrier charges for the pickup (USPS: 0).' },
    cancel_by: Timestamp,
    shipment_ids: Type.Array(Type.String()),
    package_count: Type.Integer(),
    instructions: orNull(Type.String()),
    cancelled_at: orNull(Timestamp),
    completed_at: orNull(Timestamp),
    created_at: Timestamp,
  },
  { $id: 'Pickup', title: 'Pickup', examples: [PICKUP_EXAMPLE] },
);
export type Pickup = Static<typeof PickupSchema>;
