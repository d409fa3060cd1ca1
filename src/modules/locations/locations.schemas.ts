import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PageLimitSchema } from '../../platform/http/schemas.js';
import { AddressSchema } from '../addresses/index.js';
import { CREATE_LOCATION_BODY_EXAMPLE, LOCATION_EXAMPLE } from './locations.examples.js';

const Timestamp = Type.String({ format: 'date-time' });
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const text = (maxLength: number, options: { minLength?: number; description?: string; pattern?: string } = {}) =>
  Type.String({ maxLength, pattern: '^[^\\u0000]*$', ...options });

const fields = {
  name: text(100, { minLength: 1 }),
  address: { ...AddressSchema, description: 'Where parcels leave from: the ship_from of what ships from here (street1, city, country required).' },
  return_address: orNull({ ...AddressSchema, description: 'Where returns come back to (null: the address).' }),
  timezone: text(64, { minLength: 1, description: 'IANA time zone (America/Los_Angeles): ship dates and the cut-off are read on its clock.' }),
  pickup_cutoff: Type.String({
    maxLength: 5,
    pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
    description: 'HH:MM local: parcels handed over later leave the next business day (default 17:00).',
  }),
  is_default: Type.Boolean({ description: 'The location used when none is named; one per workspace and environment (making one default unmakes the other).' }),
};

export const CreateLocationBody = Type.Object(
  {
    name: fields.name,
    address: fields.address,
    return_address: Type.Optional(fields.return_address),
    timezone: fields.timezone,
    pickup_cutoff: Type.Optional(fields.pickup_cutoff),
    is_default: Type.Optional(fields.is_default),
  },
  { additionalProperties: false, examples: [CREATE_LOCATION_BODY_EXAMPLE] },
);
export type CreateLocationInput = Static<typeof CreateLocationBody>;

export const UpdateLocationBody = Type.Partial(Type.Object(fields), {
  additionalProperties: false,
  minProperties: 1,
  examples: [{ pickup_cutoff: '16:30', is_default: true }],
});
export type UpdateLocationInput = Static<typeof UpdateLocationBody>;

export const LocationIdParams = Type.Object({ id: text(64) });
export const LocationListQuery = Type.Object({ limit: Type.Optional(PageLimitSchema), cursor: Type.Optional(text(512)) });
export type LocationListFilter = Static<typeof LocationListQuery>;

export const LocationSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    address: Type.Object({}, { additionalProperties: true }),
    return_address: orNull(Type.Object({}, { additionalProperties: true })),
    timezone: Type.String(),
    pickup_cutoff: Type.String(),
    is_default: Type.Boolean(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Location', title: 'Location', examples: [LOCATION_EXAMPLE] },
);
export type Location = Static<typeof LocationSchema>;
