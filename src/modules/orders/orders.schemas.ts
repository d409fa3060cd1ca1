import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { nullable } from '../../platform/http/nullable.js';
import { DateOrDateTimeParam, MoneySchema, PageLimitSchema } from '../../platform/http/schemas.js';
import { AddressOutputSchema, AddressSchema } from '../addresses/index.js';
import { CustomsInputSchema, OrderCustomsSchema } from '../customs/index.js';
import { ShipmentOptionsInputSchema, ShipmentOptionsSchema } from '../shipment-options/index.js';
import { ORDER_STATUSES } from './orders.states.js';
import { ORDER_SORTS } from './orders.sort.js';
import {
  ORDER_COUNTS_EXAMPLE,
  INTERNATIONAL_ORDER_BODY_EXAMPLE,
  INTERNATIONAL_ORDER_EXAMPLE,
  ORDER_BODY_EXAMPLE,
  ORDER_EXAMPLE,
  UPDATE_ORDER_BODY_EXAMPLE,
} from './orders.examples.js';

const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
/** Response fields that may be null (serialisation only: requests use `nullable`). */
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const OrderStatusSchema = Type.Union(
  ORDER_STATUSES.map((s) => Type.Literal(s)),
  { description: 'awaiting_fulfillment → processing (process) → shipped (label bought) → delivered (tracking); cancelled from any state before shipped.' },
);

/** `<carrier>_<service>`, e.g. ups_ground (checked against the carriers when a label is bought). */
export const ServiceCodeSchema = Type.String({
  maxLength: 100,
  pattern: '^[a-z][a-z0-9]*(_[a-z0-9]+)+$',
  description: 'A service_code, e.g. usps_ground_advantage.',
});

// ---- request bodies ----

export const CustomerInputSchema = Type.Object(
  {
    name: Type.Optional(nullable(Type.String({ maxLength: 200 }))),
    email: Type.Optional(nullable(Type.String({ maxLength: 320 }))),
    phone: Type.Optional(nullable(Type.String({ maxLength: 60 }))),
  },
  { additionalProperties: false },
);

export const LineItemInputSchema = Type.Object(
  {
    sku: Type.Optional(nullable(Type.String({ maxLength: 200 }))),
    name: Type.Optional(nullable(Type.String({ maxLength: 500 }))),
    quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
    unit_price: Type.Optional(nullable(MoneySchema)),
    weight_oz: Type.Optional(nullable(Type.Number({ minimum: 0, maximum: 1_000_000, description: 'Weight of one unit, in ounces.' }))),
    hs_tariff_number: Type.Optional(
      nullable(
        Type.String({
          maxLength: 32,
          pattern: '^[^\\u0000]*$',
          description: 'HS tariff number of the item (6–10 digits, dots allowed): carried into a customs declaration derived from the lines.',
          examples: ['6912.00.48'],
        }),
      ),
    ),
  },
  { additionalProperties: false, description: 'A line needs a sku or a name.' },
);

export const ParcelInputSchema = Type.Object(
  {
    weight_oz: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 })),
    length_in: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10_000 })),
    width_in: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10_000 })),
    height_in: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 10_000 })),
    package_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description:
          "In place of the dimensions: a package preset (`pkg_…`, its tare is added to the weight) or a carrier's packaging (GET /v1/carrier-packages, which that carrier prices flat where it says).",
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'Missing fields are derived: the weight from the line items, the dimensions from the setting orders.default_box (or from `package_id`).',
  },
);

/** A multi-piece order's pieces (each weighed: a piece's weight cannot be derived from the lines). */
function parcelsInput() {
  return nullable(
    Type.Array(
      Type.Object({ ...ParcelInputSchema.properties, weight_oz: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }) }, { additionalProperties: false }),
      {
        minItems: 1,
        maxItems: 100,
        description:
          "A multi-piece shipment, in place of `parcel`: every piece with its weight (dimensions from the setting orders.default_box or `package_id` when absent), 1 to the service's `max_parcels`. Its labels have one package (and one label page) per piece; null: the one `parcel`.",
      },
    ),
  );
}

/** The order's shipment options: the default of every label bought for it (a shipment's own override them key by key). */
function orderOptionsInput() {
  return Type.Union([ShipmentOptionsInputSchema, Type.Null()], {
    description:
      "Shipment options, the default of every label bought for this order (a shipment's or generate's options override them key by key); null clears them.",
  });
}

export const OrderBody = Type.Object(
  {
    external_id: Type.Optional(
      nullable(
        Type.String({ minLength: 1, maxLength: 255, description: 'Your id for the order; unique per source. A known one updates the order while it is open.' }),
      ),
    ),
    customer: Type.Optional(CustomerInputSchema),
    ship_to: AddressSchema,
    ship_from: Type.Optional(nullable(AddressSchema)),
    location_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description:
          'In place of ship_from: the location (`loc_…`) the order ships from (its address, time zone and cut-off at purchase). Neither given: the default location. A location of another workspace or environment is 404.',
      }),
    ),
    line_items: Type.Array(LineItemInputSchema, { minItems: 1, maxItems: 1000 }),
    parcel: Type.Optional(nullable(ParcelInputSchema)),
    parcels: Type.Optional(parcelsInput()),
    requested_service: Type.Optional(nullable(ServiceCodeSchema)),
    customs: Type.Optional(nullable(CustomsInputSchema)),
    options: Type.Optional(orderOptionsInput()),
    notes: Type.Optional(nullable(Type.String({ maxLength: 5000 }))),
  },
  { additionalProperties: false, title: 'OrderInput', examples: [ORDER_BODY_EXAMPLE, INTERNATIONAL_ORDER_BODY_EXAMPLE] },
);
export type OrderInput = Static<typeof OrderBody>;

export const UpdateOrderBody = Type.Object(
  {
    customer: Type.Optional(CustomerInputSchema),
    ship_to: Type.Optional(AddressSchema),
    ship_from: Type.Optional(nullable(AddressSchema)),
    location_id: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'Ship from this location (`loc_…`) instead: clears ship_from. `ship_from: null` goes back to the default location.',
      }),
    ),
    line_items: Type.Optional(Type.Array(LineItemInputSchema, { minItems: 1, maxItems: 1000 })),
    parcel: Type.Optional(nullable(ParcelInputSchema)),
    parcels: Type.Optional(parcelsInput()),
    requested_service: Type.Optional(nullable(ServiceCodeSchema)),
    customs: Type.Optional(nullable(CustomsInputSchema)),
    options: Type.Optional(orderOptionsInput()),
    notes: Type.Optional(nullable(Type.String({ maxLength: 5000 }))),
  },
  {
    additionalProperties: false,
    title: 'OrderUpdate',
    description:
      'Fields given replace the current ones (customer is merged field by field); `parcel: null` derives it again; `customs: null` removes the declaration (derived from the line items at purchase).',
    examples: [UPDATE_ORDER_BODY_EXAMPLE],
  },
);
export type OrderPatch = Static<typeof UpdateOrderBody>;

export const OrderListQuery = Type.Object({
  status: Type.Optional(Type.String({ maxLength: 200, description: 'A status, or several separated by commas.' })),
  archived: Type.Optional(
    Type.Union([Type.Literal('false'), Type.Literal('true'), Type.Literal('all')], {
      description: 'false (default): unarchived orders only; true: archived only; all: both.',
    }),
  ),
  created_after: Type.Optional(DateOrDateTimeParam('ISO date or date-time; created_at >= this.')),
  created_before: Type.Optional(DateOrDateTimeParam('ISO date or date-time; created_at < this.')),
  external_id: Type.Optional(Type.String({ maxLength: 255 })),
  source: Type.Optional(Type.String({ maxLength: 64, description: 'api or an integration id.' })),
  location_id: Type.Optional(Type.String({ maxLength: 64, description: 'Only the orders that ship from this location.' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive substring of the customer name or email, or of the external id.' })),
  carrier: Type.Optional(
    Type.String({
      maxLength: 64,
      pattern: '^[a-z][a-z0-9]*(_[a-z0-9]+)*$',
      description: "The requested service's carrier (the service code's prefix), e.g. usps.",
      examples: ['usps'],
    }),
  ),
  service: Type.Optional({ ...ServiceCodeSchema, description: 'The requested service code, e.g. usps_ground_advantage.' }),
  ship_to_country: Type.Optional(
    Type.String({ minLength: 2, maxLength: 2, pattern: '^[A-Za-z]{2}$', description: 'The destination country (ISO 3166-1 alpha-2).', examples: ['US'] }),
  ),
  sort: Type.Optional(
    Type.Union(
      ORDER_SORTS.map((s) => Type.Literal(s)),
      {
        description:
          '-created_at (default: newest first), created_at (oldest first), order_number or -order_number (the number the dashboard shows: ' +
          "the store's external_number, else external_id, else the id). A cursor is only valid with the sort it was issued for.",
      },
    ),
  ),
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});
export type OrderListFilter = Static<typeof OrderListQuery>;

/** The list's filters without the status (the tabs' counts) and without paging. */
export const OrderCountsQuery = Type.Omit(OrderListQuery, ['status', 'sort', 'limit', 'cursor']);
export type OrderCountsFilter = Static<typeof OrderCountsQuery>;

/** The list's filters and sort without paging (the CSV export). */
export const OrderExportQuery = Type.Omit(OrderListQuery, ['limit', 'cursor']);
export type OrderExportFilter = Static<typeof OrderExportQuery>;

export const OrderCountsSchema = Type.Object(
  {
    data: Type.Array(Type.Object({ status: OrderStatusSchema, count: Type.Integer({ minimum: 0 }) }), {
      description: "Every status, in the state machine's order, zero included.",
    }),
    total: Type.Integer({ minimum: 0, description: 'The sum of the counts: the orders the filters match in any status.' }),
  },
  { $id: 'OrderCounts', title: 'OrderCounts', examples: [ORDER_COUNTS_EXAMPLE] },
);
export type OrderCounts = Static<typeof OrderCountsSchema>;

export const OrderIdParams = Type.Object({ orderId: Type.String({ maxLength: 64 }) });
export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

// ---- the order on the wire ----

const ShipmentSummarySchema = Type.Object(
  {
    id: Type.String(),
    carrier: Type.String(),
    service_code: Type.String(),
    tracking_number: orNull(Type.String()),
    status: Type.String(),
    created_at: Timestamp,
  },
  { additionalProperties: true },
);

const OfficePinSummarySchema = Type.Object({
  id: Type.String(),
  pin: Type.String({ description: 'The 16 digits on the admin read of one order; elsewhere masked to the last four (••••••••••••1234).' }),
  last4: Type.String(),
  product: Type.String({ description: 'office_2024 or office_365' }),
  status: Type.String({ description: 'active, expired or revoked' }),
  expires_at: orNull(Timestamp),
  test: Type.Boolean(),
});

export const LineItemSchema = Type.Object({
  sku: orNull(Type.String()),
  name: orNull(Type.String()),
  quantity: Type.Integer(),
  unit_price: orNull(MoneySchema),
  weight_oz: orNull(Type.Number()),
  hs_tariff_number: Type.Optional(orNull(Type.String({ description: 'Present when the line was given one.' }))),
  external_line_id: Type.Optional(Type.String({ description: "The store platform's line id (orders a connector imported)." })),
});

export const ParcelSchema = Type.Object({
  weight_oz: Type.Number(),
  length_in: Type.Number(),
  width_in: Type.Number(),
  height_in: Type.Number(),
  package_id: Type.Optional(Type.String({ description: "The package the parcel was given with (its dimensions are the package's)." })),
});

export const OrderSchema = Type.Object(
  {
    id: Type.String({ examples: ['ord_01jx0000000000000000000000'] }),
    external_id: orNull(Type.String()),
    external_number: orNull(Type.String({ description: "The store's own order number (Shopify's name, e.g. #1001), on orders a connector imported." })),
    source: Type.String({ description: 'api, or the id of the integration that imported it.' }),
    needs_review: orNull(
      Type.Object(
        {
          reason: Type.Union([Type.Literal('edited_after_label'), Type.Literal('cancelled_on_channel')]),
          changes: Type.Array(Type.String(), { description: 'Field paths the store changed.' }),
          at: Timestamp,
        },
        { description: 'The store changed (or cancelled) the order after a label was bought: nothing was applied, an operator decides.' },
      ),
    ),
    environment: Type.Union([Type.Literal('test'), Type.Literal('live')]),
    status: OrderStatusSchema,
    archived: Type.Boolean(),
    customer: Type.Object({ name: orNull(Type.String()), email: orNull(Type.String()), phone: orNull(Type.String()) }),
    ship_to: AddressOutputSchema,
    ship_from: orNull(AddressOutputSchema),
    location_id: orNull(
      Type.String({ description: 'The location (`loc_…`) it ships from; null when ship_from is its own address (or the workspace has no location).' }),
    ),
    line_items: Type.Array(LineItemSchema),
    parcel: { ...ParcelSchema, description: 'The parcel; of a multi-piece order, its first piece.' },
    parcels: orNull(Type.Array(ParcelSchema, { description: "A multi-piece order's pieces (the first is `parcel`); null: the one `parcel`." })),
    parcel_derived: Type.Boolean({ description: 'True when any parcel field was derived (weight from items, dimensions from the default box).' }),
    requested_service: orNull(Type.String()),
    customs: orNull(OrderCustomsSchema),
    options: {
      ...ShipmentOptionsSchema,
      description: 'The shipment options labels for this order default to, every key present (defaults where none were given).',
    },
    shipments: Type.Array(ShipmentSummarySchema),
    office_pins: Type.Array(OfficePinSummarySchema),
    notes: orNull(Type.String()),
    processed_at: NullableTimestamp,
    shipped_at: NullableTimestamp,
    delivered_at: NullableTimestamp,
    cancelled_at: NullableTimestamp,
    archived_at: NullableTimestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Order', title: 'Order', examples: [ORDER_EXAMPLE, INTERNATIONAL_ORDER_EXAMPLE] },
);
export type Order = Static<typeof OrderSchema>;
