import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PageLimitSchema } from '../../platform/http/schemas.js';
import { TRACKING_STATUSES, TrackingEventSchema } from '../shipments/index.js';
import { CREATE_TRACKER_BODY_EXAMPLE, TRACKER_EXAMPLE } from './trackers.examples.js';

const Timestamp = Type.String({ format: 'date-time' });
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const text = (maxLength: number, options: { minLength?: number; description?: string } = {}) =>
  Type.String({ maxLength, pattern: '^[^\\u0000]*$', ...options });

export const CreateTrackerBody = Type.Object(
  {
    carrier: text(40, { minLength: 1, description: 'usps, ups, fedex or dhl_express.' }),
    tracking_number: text(64, { minLength: 1, description: "The carrier's tracking number, with its check digit (spaces are ignored)." }),
    carrier_account_id: Type.Optional(
      text(100, {
        minLength: 1,
        description: "An api account of the carrier whose tracking API follows the parcel. Without it the carrier's simulation plays the journey.",
      }),
    ),
  },
  { additionalProperties: false, examples: [CREATE_TRACKER_BODY_EXAMPLE] },
);
export type CreateTrackerInput = Static<typeof CreateTrackerBody>;

export const TrackerIdParams = Type.Object({ id: text(64) });
export const TrackerListQuery = Type.Object({
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(text(512)),
  status: Type.Optional(Type.Union(TRACKING_STATUSES.map((s) => Type.Literal(s)))),
  carrier: Type.Optional(text(40)),
  tracking_number: Type.Optional(text(64)),
});
export type TrackerListFilter = Static<typeof TrackerListQuery>;

export const TrackerSchema = Type.Object(
  {
    id: Type.String(),
    carrier: Type.String(),
    tracking_number: Type.String(),
    carrier_account_id: orNull(Type.String({ description: 'The api account that tracks it; null: the simulation.' })),
    status: Type.Union(
      TRACKING_STATUSES.map((s) => Type.Literal(s)),
      { description: "As a shipment's tracking status; never back from delivered." },
    ),
    status_detail: orNull(Type.String({ description: 'The reason code of the latest event.' })),
    events: Type.Array(TrackingEventSchema, { description: 'Newest first; a carrier event is kept once however often it is reported.' }),
    estimated_delivery_at: orNull(Timestamp),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Tracker', title: 'Tracker', examples: [TRACKER_EXAMPLE] },
);
export type Tracker = Static<typeof TrackerSchema>;
