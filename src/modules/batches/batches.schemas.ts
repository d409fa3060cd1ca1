import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ShipmentOptionsInputSchema } from '../shipment-options/index.js';
import { PageLimitSchema } from '../../platform/http/schemas.js';
import { AddressValidationModeSchema, LabelFormatSchema, ReturnChargeSchema } from '../shipments/index.js';
import { BATCH_STATUSES, BATCH_TYPES, ITEM_STATUSES } from './batches.tables.js';
import {
  ADMIN_BATCH_GENERATE_BODY_EXAMPLE,
  ADMIN_BATCH_PROCESS_BODY_EXAMPLE,
  BATCH_EXAMPLE,
  BATCH_ITEM_EXAMPLE,
  CREATE_BATCH_BODY_EXAMPLE,
} from './batches.examples.js';

const Timestamp = Type.String({ format: 'date-time' });
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const text = (maxLength: number, options: { minLength?: number; description?: string } = {}) =>
  Type.String({ maxLength, pattern: '^[^\\u0000]*$', ...options });

/** The contract's limit; more is 413 payload_too_large (the schema's own cap only bounds parsing). */
export const MAX_BATCH_ITEMS = 10_000;
/** Above the contract limit so that a too-large batch gets the 413 with its count, not a schema 400. */
const SCHEMA_ITEM_CAP = 100_000;

// ---- requests ----

export const CreateBatchBody = Type.Object(
  {
    type: Type.Union(
      BATCH_TYPES.map((t) => Type.Literal(t)),
      { description: 'purchase_labels, import_orders, validate_addresses, process_orders or create_returns.' },
    ),
    items: Type.Optional(
      Type.Array(Type.Unknown(), {
        maxItems: SCHEMA_ITEM_CAP,
        description:
          "purchase_labels: [{order_id, service_code?, label_format?, address_validation?, location_id?, options?}] (options as on POST /v1/shipments: over the order's, key by key); import_orders: order bodies of POST /v1/orders; " +
          'validate_addresses: addresses of POST /v1/addresses/validate; create_returns: [{shipment_id, rma_number?, reason?, charge?, expires_in_days?, service_code?, label_format?}] ' +
          '(a return label per outbound shipment, as POST /v1/shipments/{id}/return). Up to 10,000 (more is 413). An item that does not ' +
          'validate becomes a failed item; it does not fail the batch.',
      }),
    ),
    order_ids: Type.Optional(
      Type.Array(text(64), { maxItems: SCHEMA_ITEM_CAP, description: 'purchase_labels and process_orders: the orders (instead of items).' }),
    ),
    shipment_ids: Type.Optional(
      Type.Array(text(64), {
        maxItems: SCHEMA_ITEM_CAP,
        description: 'create_returns: the outbound shipments (instead of items), each returned with the defaults.',
      }),
    ),
    service_code: Type.Optional(
      text(100, {
        minLength: 1,
        description:
          "purchase_labels: the default service code, `auto` (the shipping rules choose) or `cheapest` (rules skipped). Default: each order's requested service, else the shipping rules (no rule matches: the cheapest).",
      }),
    ),
    label_format: Type.Optional(LabelFormatSchema),
    location_id: Type.Optional(
      text(64, {
        minLength: 1,
        description:
          "purchase_labels: the location (`loc_…`) every label ships from (an item's own location_id wins). Default: each order's ship_from or location, else the default location. A location of another workspace or environment is 404.",
      }),
    ),
  },
  { additionalProperties: false, examples: [CREATE_BATCH_BODY_EXAMPLE] },
);
export type CreateBatchInput = Static<typeof CreateBatchBody>;

export const AdminBatchGenerateBody = Type.Object(
  {
    order_ids: Type.Array(text(64), { minItems: 1, maxItems: SCHEMA_ITEM_CAP }),
    service_code: Type.Optional(text(100, { minLength: 1 })),
    label_format: Type.Optional(LabelFormatSchema),
    location_id: Type.Optional(
      text(64, {
        minLength: 1,
        description:
          "purchase_labels: the location (`loc_…`) every label ships from (an item's own location_id wins). Default: each order's ship_from or location, else the default location. A location of another workspace or environment is 404.",
      }),
    ),
  },
  { additionalProperties: false, examples: [ADMIN_BATCH_GENERATE_BODY_EXAMPLE] },
);
export const AdminBatchProcessBody = Type.Object(
  { order_ids: Type.Array(text(64), { minItems: 1, maxItems: SCHEMA_ITEM_CAP }) },
  { additionalProperties: false, examples: [ADMIN_BATCH_PROCESS_BODY_EXAMPLE] },
);

export const PurchaseItemSchema = Type.Object(
  {
    order_id: text(64, { minLength: 1 }),
    service_code: Type.Optional(text(100, { minLength: 1 })),
    label_format: Type.Optional(LabelFormatSchema),
    address_validation: Type.Optional(AddressValidationModeSchema),
    location_id: Type.Optional(text(64, { minLength: 1 })),
    options: Type.Optional(ShipmentOptionsInputSchema),
  },
  { additionalProperties: false },
);
export type PurchaseItem = Static<typeof PurchaseItemSchema>;

/** A create_returns item: the fields of POST /v1/shipments/{id}/return plus the shipment. */
export const ReturnItemSchema = Type.Object(
  {
    shipment_id: text(64, { minLength: 1 }),
    service_code: Type.Optional(text(100, { minLength: 1 })),
    label_format: Type.Optional(LabelFormatSchema),
    rma_number: Type.Optional(text(100, { minLength: 1 })),
    reason: Type.Optional(text(500, { minLength: 1 })),
    charge: Type.Optional(ReturnChargeSchema),
    expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90 })),
  },
  { additionalProperties: false },
);
export type ReturnItem = Static<typeof ReturnItemSchema>;

export const BatchIdParams = Type.Object({ id: text(64) });
export const BatchListQuery = Type.Object({
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(text(512)),
});
export const BatchItemsQuery = Type.Object({
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(text(512)),
  status: Type.Optional(Type.Union(ITEM_STATUSES.map((s) => Type.Literal(s)))),
});

// ---- responses ----

export const BatchSchema = Type.Object(
  {
    id: Type.String(),
    type: Type.Union(BATCH_TYPES.map((t) => Type.Literal(t))),
    status: Type.Union(BATCH_STATUSES.map((s) => Type.Literal(s))),
    counts: Type.Object({ total: Type.Integer(), pending: Type.Integer(), succeeded: Type.Integer(), failed: Type.Integer(), cancelled: Type.Integer() }),
    progress: Type.Number({ description: 'Finished items / total, 0–1.' }),
    label_format: orNull(Type.String()),
    service_code: orNull(Type.String()),
    location_id: orNull(Type.String({ description: "purchase_labels: the location its labels ship from (null: each order's own)." })),
    eta_seconds: orNull(Type.Integer({ description: 'While running: remaining items at the rate so far.' })),
    label: orNull(Type.Object({ url: Type.String() })),
    started_at: orNull(Timestamp),
    finished_at: orNull(Timestamp),
    created_at: Timestamp,
  },
  { $id: 'Batch', title: 'Batch', examples: [BATCH_EXAMPLE] },
);
export type Batch = Static<typeof BatchSchema>;

export const BatchItemSchema = Type.Object(
  {
    id: Type.String(),
    index: Type.Integer({ description: '0-based position in the input.' }),
    status: Type.Union(ITEM_STATUSES.map((s) => Type.Literal(s))),
    result: orNull(Type.Any({ description: 'The created resource, e.g. {shipment}, {order} or the address result.' })),
    error: orNull(Type.Object({ code: Type.String(), message: Type.String(), details: Type.Optional(Type.Any()) })),
    finished_at: orNull(Timestamp),
  },
  { $id: 'BatchItem', title: 'BatchItem', examples: [BATCH_ITEM_EXAMPLE] },
);
export type BatchItem = Static<typeof BatchItemSchema>;
