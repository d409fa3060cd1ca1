import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DateOrDateTimeParam, MoneySchema, PageLimitSchema } from '../../platform/http/schemas.js';
import { AddressOutputSchema } from '../addresses/index.js';
import { SelectionObjectSchema } from '../shipping-rules/index.js';
import { CustomsInputSchema, ShipmentCustomsSchema } from '../customs/index.js';
import { ShipmentOptionsInputSchema, ShipmentOptionsSchema } from '../shipment-options/index.js';
import { SHIPMENT_STATUSES } from './shipments.states.js';
import {
  CREATE_SHIPMENT_BODY_EXAMPLE,
  GENERATE_BODY_EXAMPLE,
  INTERNATIONAL_SHIPMENT_BODY_EXAMPLE,
  INTERNATIONAL_SHIPMENT_EXAMPLE,
  PUBLIC_TRACKING_EXAMPLE,
  SHIPMENT_EXAMPLE,
  TRACKING_EVENT_LIST_ITEM_EXAMPLE,
  TRACKING_EXAMPLE,
} from './shipments.examples.js';
import { CREATE_RETURN_BODY_EXAMPLE, REFUND_LIST_ITEM_EXAMPLE, RETURN_SHIPMENT_EXAMPLE } from './shipments.returns.examples.js';

const Timestamp = Type.String({ format: 'date-time' });
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** Text a client sends that reaches SQL: Postgres text cannot hold NUL, so it is a 400 here, never a 500 there. */
const text = (maxLength: number, options: { minLength?: number; description?: string } = {}) =>
  Type.String({ maxLength, pattern: '^[^\\u0000]*$', ...options });

/** Label formats (the labels module renders them); pdf_4x6 is the default. */
export const LABEL_FORMAT_CODES = ['pdf_4x6', 'pdf_letter', 'png_4x6', 'zpl_4x6'] as const;
export type LabelFormatCode = (typeof LABEL_FORMAT_CODES)[number];

export const LabelFormatSchema = Type.Union(
  LABEL_FORMAT_CODES.map((f) => Type.Literal(f)),
  { description: 'pdf_4x6 (default), pdf_letter, png_4x6 (203 dpi), zpl_4x6 (ZPL II).' },
);

export const TRACKING_STATUSES = [
  'pre_transit',
  'in_transit',
  'out_for_delivery',
  'delivered',
  'available_for_pickup',
  'return_to_sender',
  'failure',
  'cancelled',
  'unknown',
] as const;
export const MILESTONES = ['label_created', 'picked_up', 'in_transit', 'out_for_delivery', 'delivered'] as const;

// ---- requests ----

export const ReturnChargeSchema = Type.Union([Type.Literal('on_creation'), Type.Literal('on_scan')], {
  description:
    "How a return label is billed: on_scan (nothing until the carrier's first scan; the default where the carrier offers it: usps, ups, fedex) or on_creation (billed at once; DHL Express offers only this, and on_scan there is 422 return_charge_unavailable).",
});

export const AddressValidationModeSchema = Type.Union([Type.Literal('none'), Type.Literal('validate'), Type.Literal('validate_and_clean')], {
  description:
    "How the destination is checked before the label is bought. validate: an invalid address is 422 `address_undeliverable` (nothing bought), a corrected one is bought as given with the messages kept; validate_and_clean: the label and shipment use the normalised address (`ship_to_original` keeps the given one); none: no check. Through an api carrier account whose carrier validates addresses, the carrier's validator answers. Default: the setting `shipments.address_validation` (validate).",
});

/** Options given with a purchase: over the order's, key by key. */
export function shipmentOptionsInput() {
  return {
    ...ShipmentOptionsInputSchema,
    description:
      "Shipment options for this label: each key given overrides the order's (GET the order: options), the others are the order's. " +
      'A service that does not offer one is 422 option_unavailable (nothing bought); with auto or cheapest only services that offer them are considered.',
  };
}

export const CreateShipmentBody = Type.Object(
  {
    order_id: text(64, { minLength: 1, description: 'The order to ship (awaiting_fulfillment or processing).' }),
    service_code: text(100, {
      minLength: 1,
      description:
        "A service_code from POST /v1/rates/query, e.g. usps_ground_advantage; or `auto`: the shipping rules choose among the options of every enabled carrier account (the shipment's `selection` says how).",
    }),
    label_format: Type.Optional(LabelFormatSchema),
    carrier_account_id: Type.Optional(
      text(100, {
        minLength: 1,
        description: "The carrier account to buy through (`carrier_account_id` of a rate option). Default: the service carrier's default account.",
      }),
    ),
    address_validation: Type.Optional(AddressValidationModeSchema),
    location_id: Type.Optional(
      text(64, {
        minLength: 1,
        description:
          "Ship from this location (`loc_…`): its address, and its time zone and cut-off for the ship date and the delivery date. Default: the order's ship_from or location, else the default location. A location of another workspace or environment is 404.",
      }),
    ),
    is_return: Type.Optional(
      Type.Boolean({
        description:
          "A standalone return label for the order: ship_from and ship_to are the order's swapped; the order's status never moves. With it: rma_number, reason, charge, expires_in_days as on POST /v1/shipments/{id}/return.",
      }),
    ),
    ...returnFields(),
    customs: Type.Optional({
      ...CustomsInputSchema,
      description:
        "The customs declaration for this label; it replaces the order's. Absent: the order's, else derived from its line items. " +
        'Used only when the parcel crosses a border or goes to a US military address (AA, AE, AP); ignored for a domestic parcel.',
    }),
    options: Type.Optional(shipmentOptionsInput()),
  },
  {
    additionalProperties: false,
    title: 'ShipmentInput',
    examples: [
      CREATE_SHIPMENT_BODY_EXAMPLE,
      INTERNATIONAL_SHIPMENT_BODY_EXAMPLE,
      { order_id: 'ord_01jx0000000000000000000000', service_code: 'usps_ground_advantage', is_return: true, rma_number: 'RMA-1042', reason: 'Wrong size' },
    ],
  },
);
export type CreateShipmentInput = Static<typeof CreateShipmentBody>;

/** The return-label fields shared by POST /v1/shipments/{id}/return, POST /v1/shipments with is_return and create_returns batch items. */
export function returnFields() {
  return {
    rma_number: Type.Optional(
      text(100, { minLength: 1, description: 'Your return merchandise authorisation number (printed in the shipment, not on the label).' }),
    ),
    reason: Type.Optional(text(500, { minLength: 1, description: 'Why the parcel comes back.' })),
    charge: Type.Optional(ReturnChargeSchema),
    expires_in_days: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 90,
        description: 'Days the label stays usable (default 30). An on_scan label unused by then becomes expired and not_charged.',
      }),
    ),
  };
}

export const CreateReturnBody = Type.Object(
  {
    service_code: Type.Optional(text(100, { minLength: 1, description: "The return service (default: the outbound shipment's service)." })),
    label_format: Type.Optional(LabelFormatSchema),
    ...returnFields(),
  },
  { additionalProperties: false, title: 'ReturnInput', examples: [CREATE_RETURN_BODY_EXAMPLE] },
);
export type CreateReturnInput = Static<typeof CreateReturnBody>;

export const RefundListQuery = Type.Object({
  status: Type.Optional(Type.String({ maxLength: 100, description: 'A refund status, or several separated by commas: submitted, refunded, rejected.' })),
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});
export type RefundListFilter = Static<typeof RefundListQuery>;

export const GenerateBody = Type.Object(
  {
    service_code: Type.Optional(
      text(100, {
        minLength: 1,
        description:
          "A service code, `auto` (the shipping rules choose) or `cheapest` (rules skipped). Default: the order's requested service, else the shipping rules (no rule matches: the cheapest).",
      }),
    ),
    label_format: Type.Optional(LabelFormatSchema),
    address_validation: Type.Optional(AddressValidationModeSchema),
    location_id: Type.Optional(
      text(64, {
        minLength: 1,
        description:
          "Ship from this location (`loc_…`): its address, and its time zone and cut-off for the ship date and the delivery date. Default: the order's ship_from or location, else the default location. A location of another workspace or environment is 404.",
      }),
    ),
    options: Type.Optional(shipmentOptionsInput()),
  },
  { additionalProperties: false, examples: [GENERATE_BODY_EXAMPLE] },
);

export const ShipmentListQuery = Type.Object({
  status: Type.Optional(Type.String({ maxLength: 200, description: `A status, or several separated by commas: ${SHIPMENT_STATUSES.join(', ')}.` })),
  carrier: Type.Optional(text(64, { description: 'A carrier slug (usps, ups, fedex, dhl_express).' })),
  order_id: Type.Optional(text(64)),
  tracking_number: Type.Optional(text(64)),
  location_id: Type.Optional(text(64, { description: 'Only the labels that ship from this location.' })),
  created_after: Type.Optional(DateOrDateTimeParam('ISO date or date-time; created_at >= this.')),
  created_before: Type.Optional(DateOrDateTimeParam('ISO date or date-time; created_at < this.')),
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});
export type ShipmentListFilter = Static<typeof ShipmentListQuery>;

export const ShipmentIdParams = Type.Object({ id: text(64) });
export const LabelQuery = Type.Object({
  format: Type.Optional(
    Type.Union(
      LABEL_FORMAT_CODES.map((f) => Type.Literal(f)),
      { description: 'Render another format on demand (default: the purchased one).' },
    ),
  ),
});

export const TrackingIdParams = Type.Object({ id: text(64, { description: 'A tracking number or a shipment id (shp_…).' }) });
export const PublicTrackingParams = Type.Object({ trackingNumber: text(64) });

export const TrackingEventListQuery = Type.Object({
  since: Type.Optional(DateOrDateTimeParam('ISO date or date-time: events that occurred at or after it.')),
  tracking_number: Type.Optional(text(64)),
  status: Type.Optional(Type.String({ maxLength: 200, description: `A tracking status, or several separated by commas: ${TRACKING_STATUSES.join(', ')}.` })),
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(Type.String({ maxLength: 512 })),
});
export type TrackingEventListFilter = Static<typeof TrackingEventListQuery>;

// ---- responses ----

const SurchargeSchema = Type.Object({ code: Type.String(), amount: MoneySchema });

const RefundStatusSchema = Type.Union([Type.Literal('submitted'), Type.Literal('refunded'), Type.Literal('rejected')]);
const RefundBreakdownSchema = Type.Array(Type.Object({ code: Type.Union([Type.Literal('label'), Type.Literal('insurance')]), amount: MoneySchema }), {
  description:
    'What the amount refunds: `label` (postage and the other surcharges) and, for an insured label, `insurance` (the premium, refunded with it). The amounts add up to `amount`.',
});
export const RefundSchema = Type.Object(
  {
    id: Type.String({ examples: ['rfd_01jx0000000000000000000000'] }),
    status: RefundStatusSchema,
    amount: MoneySchema,
    breakdown: RefundBreakdownSchema,
    requested_at: Timestamp,
    decided_at: orNull(Timestamp),
    reason: orNull(Type.String()),
  },
  { description: 'The refund a void asked for: submitted, then refunded or rejected (a label the carrier scanned after the void is rejected).' },
);

export const RefundListItemSchema = Type.Object(
  {
    id: Type.String(),
    shipment_id: Type.String(),
    tracking_number: Type.String(),
    carrier: Type.String(),
    status: RefundStatusSchema,
    amount: MoneySchema,
    breakdown: RefundBreakdownSchema,
    requested_at: Timestamp,
    decided_at: orNull(Timestamp),
    reason: orNull(Type.String()),
  },
  { $id: 'Refund', title: 'Refund', examples: [REFUND_LIST_ITEM_EXAMPLE] },
);

const BillingStatusSchema = Type.Union([Type.Literal('pending'), Type.Literal('charged'), Type.Literal('not_charged')], {
  description:
    'pending: an on_scan return not scanned yet (costs nothing so far); charged; not_charged (an on_scan return expired or voided unused). Outbound labels: charged.',
});

export const ShipmentRateSchema = Type.Object({
  zone: Type.Integer(),
  base_price: MoneySchema,
  surcharges: Type.Array(SurchargeSchema),
  billable_weight_oz: Type.Number(),
  dim_weight_oz: orNull(Type.Number()),
  dim_divisor: orNull(Type.Number()),
  dim_divisor_unit: orNull(Type.String()),
  delivery: Type.Object({ business_days: Type.Integer(), estimated_delivery_date: Type.String(), guaranteed: Type.Boolean() }),
  rate_table_version: Type.String(),
  ship_date: Type.String(),
  residential: Type.Boolean(),
});

/** The tracking sent back to the store the order came from (docs/channels.md): its latest write-back. */
export const ShipmentWriteBackSchema = Type.Object(
  {
    id: Type.String({ description: 'The write-back (wbk_), as GET /api/admin/write-backs lists it.' }),
    action: Type.Union(['fulfill', 'update_tracking', 'cancel_fulfillment'].map((a) => Type.Literal(a))),
    status: Type.Union(['pending', 'succeeded', 'retrying', 'dead', 'skipped'].map((a) => Type.Literal(a))),
    external_ref: orNull(Type.String({ description: 'What the store made of it: a Shopify fulfillment gid, a WooCommerce note id, a BigCommerce shipment.' })),
    attempts: Type.Integer({ minimum: 0 }),
    last_error: orNull(Type.Object({ code: Type.String(), message: Type.String(), platform_status: orNull(Type.Integer()) })),
  },
  { description: 'Null for a shipment whose order did not come from a connected store (or with write_back off).' },
);

const ShipmentParcelSchema = Type.Object({ weight_oz: Type.Number(), length_in: Type.Number(), width_in: Type.Number(), height_in: Type.Number() });

export const ShipmentSchema = Type.Object(
  {
    id: Type.String({ examples: ['shp_01jx0000000000000000000000'] }),
    order_id: Type.String(),
    environment: Type.Union([Type.Literal('test'), Type.Literal('live')]),
    carrier: Type.String(),
    service_code: Type.String(),
    service_name: Type.String(),
    tracking_number: Type.String(),
    tracking_url: Type.String({ description: 'Public tracking page for the buyer.' }),
    status: Type.Union(
      SHIPMENT_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          'label_purchased → in_transit → out_for_delivery → delivered; also exception, returned; voided (only from label_purchased); expired (an on_scan return label unused at its expires_at).',
      },
    ),
    tracking_status: Type.String({ description: 'The normalised tracking status (see GET /v1/tracking/:id).' }),
    status_detail: orNull(Type.String({ description: 'Reason code of the latest tracking event.' })),
    estimated_delivery_date: orNull(Type.String()),
    price: MoneySchema,
    rate: ShipmentRateSchema,
    location_id: orNull(
      Type.String({ description: 'The location (`loc_…`) it ships from; null when it ships from an address of its own (or is a return label).' }),
    ),
    ship_from: AddressOutputSchema,
    ship_to: AddressOutputSchema,
    ship_to_original: orNull({
      ...AddressOutputSchema,
      description: 'The address as the order gave it, when validate_and_clean shipped to the normalised one; else null.',
    }),
    address_validation: orNull(
      Type.Object(
        {
          mode: Type.Union([Type.Literal('none'), Type.Literal('validate'), Type.Literal('validate_and_clean')]),
          status: orNull(
            Type.Union([Type.Literal('verified'), Type.Literal('corrected'), Type.Literal('unverified'), Type.Literal('invalid')], {
              description: "The validator's verdict; null with mode none.",
            }),
          ),
          messages: Type.Array(Type.Object({ code: Type.String(), field: Type.String(), message: Type.String() })),
          source: orNull(
            Type.Object({
              type: Type.Union([Type.Literal('built_in'), Type.Literal('carrier')]),
              carrier: Type.Optional(Type.String()),
              carrier_account_id: Type.Optional(Type.String()),
            }),
          ),
        },
        { description: 'How the destination was checked before purchase; null for labels bought before the check existed.' },
      ),
    ),
    parcel: { ...ShipmentParcelSchema, description: "The parcel; of a multi-piece shipment, the first package's." },
    parcels: orNull(Type.Array(ShipmentParcelSchema, { description: "A multi-piece shipment's parcels, one per package; null: the one `parcel`." })),
    packages: Type.Array(
      Type.Object({
        tracking_number: Type.String({ description: "The package's own; the first package's is the shipment's `tracking_number` (the master)." }),
        parcel: ShipmentParcelSchema,
        tracking_status: Type.String({
          description: "Where this package's journey stands; the shipment's `tracking_status` rolls them up (delivered when every package is).",
        }),
      }),
      { minItems: 1, description: 'One per piece, each with its own label page (a single-parcel shipment has one). Voiding the shipment voids them all.' },
    ),
    label: Type.Object({ format: Type.String(), url: Type.String(), created_at: Timestamp }),
    carrier_account_id: orNull(
      Type.String({ description: 'The carrier account that sold the label (null for labels bought before carrier accounts existed).' }),
    ),
    simulated: Type.Boolean({
      description: 'Sold by a simulated carrier account (in any environment): no carrier will take the parcel, and the label prints SAMPLE - DO NOT MAIL.',
    }),
    selection: orNull({
      ...SelectionObjectSchema,
      description:
        'How the service was chosen when none was named (`auto`, `cheapest`, or no service to generate or a batch): the rule, its strategy and every option considered; null when the service was named.',
    }),
    customs: orNull(ShipmentCustomsSchema),
    options: {
      ...ShipmentOptionsSchema,
      description: "The shipment options the label was bought with (the order's, overridden key by key by the purchase's), every key present.",
    },
    manifest_id: orNull(
      Type.String({ description: 'The end-of-day manifest the label is on (POST /v1/manifests); null until then. A manifested label cannot be voided.' }),
    ),
    created_at: Timestamp,
    updated_at: Timestamp,
    voided_at: orNull(Timestamp),
    delivered_at: orNull(Timestamp),
    is_return: Type.Boolean({ description: 'A return label.' }),
    return_of: orNull(Type.String({ description: 'The outbound shipment this return sends back; null for an outbound label or a standalone return.' })),
    charge: orNull(ReturnChargeSchema),
    expires_at: orNull({ ...Timestamp, description: 'When a return label stops being usable (an on_scan one unused by then becomes expired, not_charged).' }),
    rma_number: orNull(Type.String()),
    reason: orNull(Type.String({ description: 'Why the parcel comes back (returns).' })),
    billing_status: BillingStatusSchema,
    returns: Type.Array(Type.Object({ id: Type.String(), tracking_number: Type.String(), status: Type.String(), billing_status: BillingStatusSchema }), {
      description: 'The return labels made for this shipment, oldest first.',
    }),
    refund: orNull({ ...RefundSchema }),
    write_back: orNull(ShipmentWriteBackSchema),
  },
  { $id: 'Shipment', title: 'Shipment', examples: [SHIPMENT_EXAMPLE, INTERNATIONAL_SHIPMENT_EXAMPLE, RETURN_SHIPMENT_EXAMPLE] },
);
export type Shipment = Static<typeof ShipmentSchema>;

export const TrackingLocationSchema = Type.Object({
  city: orNull(Type.String()),
  state: orNull(Type.String()),
  postal_code: orNull(Type.String()),
  country: orNull(Type.String()),
});

export const TrackingEventSchema = Type.Object({
  id: Type.String(),
  occurred_at: Timestamp,
  status: Type.String(),
  status_detail: Type.String(),
  description: Type.String(),
  location: TrackingLocationSchema,
  carrier_status_code: Type.String(),
});

export const TrackingEventListItemSchema = Type.Object(
  {
    ...TrackingEventSchema.properties,
    shipment_id: Type.String(),
    tracking_number: Type.String(),
    carrier: Type.String(),
    created_at: Timestamp,
  },
  { examples: [TRACKING_EVENT_LIST_ITEM_EXAMPLE] },
);

export const TimelineEntrySchema = Type.Object({
  milestone: Type.Union(MILESTONES.map((m) => Type.Literal(m))),
  reached_at: orNull(Timestamp),
  estimated_at: orNull(Timestamp),
});

/** Which package of a multi-piece shipment a tracking read is (the label's "i of N"). */
export const PackageOfSchema = Type.Object(
  {
    sequence_number: Type.Integer({ minimum: 1, description: '1 is the master package.' }),
    count: Type.Integer({ minimum: 2 }),
  },
  {
    description:
      "A multi-piece shipment: which package the number is (reading the master number answers the whole shipment's roll-up); null for one parcel or a tracker.",
  },
);

export const TrackingSchema = Type.Object(
  {
    id: Type.String({ description: 'The shipment id (shp_…), or the tracker id (trk_…) for a label bought elsewhere.' }),
    shipment_id: orNull(Type.String({ description: "The shipment the number belongs to; null for a tracker's number." })),
    tracker_id: orNull(Type.String({ description: 'The tracker (POST /v1/trackers) whose number this is; null for our own labels.' })),
    tracking_number: Type.String({ description: "The number read: a shipment's (its master), one of its packages', or a tracker's." }),
    master_tracking_number: orNull(
      Type.String({
        description: "A multi-piece shipment's master number (its first package's, the shipment's tracking_number); null for one parcel or a tracker.",
      }),
    ),
    package: orNull(PackageOfSchema),
    carrier: Type.String(),
    status: Type.String({ description: TRACKING_STATUSES.join(', ') }),
    status_detail: orNull(Type.String()),
    estimated_delivery_date: orNull(Type.String()),
    events: Type.Array(TrackingEventSchema, { description: 'Newest first.' }),
    timeline: Type.Array(TimelineEntrySchema, { description: 'label_created, picked_up, in_transit, out_for_delivery, delivered, in that order.' }),
  },
  { $id: 'Tracking', title: 'Tracking', examples: [TRACKING_EXAMPLE] },
);
export type Tracking = Static<typeof TrackingSchema>;

export const PublicTrackingSchema = Type.Object(
  {
    tracking_number: Type.String(),
    master_tracking_number: orNull(Type.String({ description: 'As on GET /v1/tracking/{id}.' })),
    package: orNull(PackageOfSchema),
    carrier: Type.String(),
    status: Type.String(),
    status_detail: orNull(Type.String()),
    estimated_delivery_date: orNull(Type.String()),
    timeline: Type.Array(TimelineEntrySchema),
    events: Type.Array(TrackingEventSchema),
  },
  { title: 'PublicTracking', description: 'The buyer timeline: no names, streets, emails or phone numbers.', examples: [PUBLIC_TRACKING_EXAMPLE] },
);
export type PublicTracking = Static<typeof PublicTrackingSchema>;
