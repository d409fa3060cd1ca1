import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PageLimitSchema } from '../../platform/http/schemas.js';
import { CARRIER_PACKAGE_EXAMPLE, CREATE_PACKAGE_BODY_EXAMPLE, PACKAGE_EXAMPLE } from './packages.examples.js';

const Timestamp = Type.String({ format: 'date-time' });
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const text = (maxLength: number, options: { minLength?: number; description?: string } = {}) =>
  Type.String({ maxLength, pattern: '^[^\\u0000]*$', ...options });
const inches = (description: string) => Type.Number({ exclusiveMinimum: 0, maximum: 1000, description });

const fields = {
  name: text(100, { minLength: 1 }),
  length_in: inches('Inside length, inches.'),
  width_in: inches('Inside width, inches.'),
  height_in: inches('Inside height, inches.'),
  tare_weight_oz: Type.Number({ minimum: 0, maximum: 16_000, description: "The empty box's weight, added to the contents' weight (default 0)." }),
  max_weight_oz: orNull(Type.Number({ exclusiveMinimum: 0, maximum: 16_000, description: 'The most the packed box may weigh (null: no limit of its own).' })),
};

export const CreatePackageBody = Type.Object(
  { ...fields, tare_weight_oz: Type.Optional(fields.tare_weight_oz), max_weight_oz: Type.Optional(fields.max_weight_oz) },
  { additionalProperties: false, examples: [CREATE_PACKAGE_BODY_EXAMPLE] },
);
export type CreatePackageInput = Static<typeof CreatePackageBody>;

export const UpdatePackageBody = Type.Partial(Type.Object(fields), {
  additionalProperties: false,
  minProperties: 1,
  examples: [{ name: 'Small mailer box', max_weight_oz: 480 }],
});
export type UpdatePackageInput = Static<typeof UpdatePackageBody>;

export const PackageIdParams = Type.Object({ id: text(64) });
export const PackageListQuery = Type.Object({ limit: Type.Optional(PageLimitSchema), cursor: Type.Optional(text(512)) });
export type PackageListFilter = Static<typeof PackageListQuery>;

export const PackageSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    length_in: Type.Number(),
    width_in: Type.Number(),
    height_in: Type.Number(),
    tare_weight_oz: Type.Number(),
    max_weight_oz: orNull(Type.Number()),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Package', title: 'Package', examples: [PACKAGE_EXAMPLE] },
);
export type Package = Static<typeof PackageSchema>;

export const CarrierPackageSchema = Type.Object(
  {
    id: Type.String({ description: 'Use it as `parcel.package_id`.' }),
    carrier: Type.String(),
    name: Type.String(),
    length_in: Type.Number(),
    width_in: Type.Number(),
    height_in: Type.Number(),
    max_weight_oz: Type.Number(),
    flat_rate_services: Type.Array(Type.String(), {
      description: "Services that price it flat whatever its weight up to max_weight_oz; the carrier's other services rate it by weight and size.",
    }),
  },
  { $id: 'CarrierPackage', title: 'CarrierPackage', examples: [CARRIER_PACKAGE_EXAMPLE] },
);
export type CarrierPackageWire = Static<typeof CarrierPackageSchema>;

/** `parcel: {package_id, weight_oz}`: a preset (`pkg_…`) or a carrier's packaging in place of dimensions. */
export const PackagedParcelSchema = Type.Object(
  {
    package_id: text(100, {
      minLength: 1,
      description: "A package preset (`pkg_…`, its tare weight is added) or a carrier's packaging (GET /v1/carrier-packages).",
    }),
    weight_oz: Type.Number({ exclusiveMinimum: 0, description: "The contents' weight in ounces, > 0." }),
  },
  { additionalProperties: false, title: 'PackagedParcel' },
);
export type PackagedParcel = Static<typeof PackagedParcelSchema>;
