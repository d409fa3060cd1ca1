import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { DateSchema, PageLimitSchema } from '../../platform/http/schemas.js';
import { MANIFEST_STATUSES, REJECTION_CODES } from './manifests.tables.js';
import { CREATE_MANIFEST_BODY_EXAMPLE, CREATE_MANIFEST_LIST_EXAMPLE, MANIFEST_EXAMPLE } from './manifests.examples.js';

const Timestamp = Type.String({ format: 'date-time' });
const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const text = (maxLength: number, options: { minLength?: number; description?: string; pattern?: string } = {}) =>
  Type.String({ maxLength, pattern: '^[^\\u0000]*$', ...options });

export const CreateManifestBody = Type.Object(
  {
    carrier: text(40, { minLength: 1, description: 'usps, ups, fedex or dhl_express (GET /v1/carrier-types: capabilities.manifests).' }),
    carrier_account_id: Type.Optional(
      text(100, { minLength: 1, description: "The account whose labels go on the form. Default: the carrier's default account." }),
    ),
    location_id: Type.Optional(
      text(64, {
        minLength: 1,
        description:
          'The location (`loc_…`) whose labels go on the form: a manifest is per location and carrier. Default: the default location (without any location: every label of the account).',
      }),
    ),
    ship_date: Type.Optional(
      Type.String({
        ...DateSchema,
        description:
          "YYYY-MM-DD. Default: today in the location's time zone (without a location: at the workspace origin, its state's time zone; UTC without one).",
      }),
    ),
    shipment_ids: Type.Optional(
      Type.Array(text(64, { minLength: 1 }), {
        minItems: 1,
        maxItems: 10_000,
        description:
          'The labels to list. Those that cannot go on the form are in `rejected`. Default: every live label of the location, account and ship date on no manifest yet.',
      }),
    ),
    batch_id: Type.Optional(text(64, { minLength: 1, description: 'List the labels a batch bought (instead of shipment_ids).' })),
  },
  { additionalProperties: false, examples: [CREATE_MANIFEST_BODY_EXAMPLE, CREATE_MANIFEST_LIST_EXAMPLE] },
);
export type CreateManifestInput = Static<typeof CreateManifestBody>;

export const ManifestIdParams = Type.Object({ id: text(64) });
export const ManifestListQuery = Type.Object({
  limit: Type.Optional(PageLimitSchema),
  cursor: Type.Optional(text(512)),
  status: Type.Optional(Type.Union(MANIFEST_STATUSES.map((s) => Type.Literal(s)))),
  carrier: Type.Optional(text(40)),
  location_id: Type.Optional(text(64, { description: 'Only the manifests of this location.' })),
});
export type ManifestListFilter = Static<typeof ManifestListQuery>;

export const RejectionSchema = Type.Object({
  shipment_id: Type.String(),
  code: Type.Union(
    REJECTION_CODES.map((c) => Type.Literal(c)),
    {
      description:
        'already_manifested, voided, carrier_mismatch (another carrier or account), ship_date_mismatch, not_found (no such label in this workspace and environment), carrier_rejected (the carrier left it off its form), location_mismatch (the label ships from another location).',
    },
  ),
  message: Type.String(),
});

export const ManifestSchema = Type.Object(
  {
    id: Type.String(),
    carrier: Type.String(),
    carrier_account_id: Type.String(),
    location_id: orNull(Type.String({ description: 'The location whose labels the form closes (null: made before the workspace had locations).' })),
    ship_date: Type.String({ description: 'YYYY-MM-DD.' }),
    status: Type.Union(
      MANIFEST_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          'pending (the form is being made) → ready (documents available, `manifest.ready` sent) | failed (`error` says why; its labels are free again).',
      },
    ),
    shipment_ids: Type.Array(Type.String(), { description: 'The labels on the form.' }),
    rejected: Type.Array(RejectionSchema, { description: 'Labels listed (or of the batch) that are not on the form, each with its reason.' }),
    documents: Type.Array(Type.Object({ type: Type.String({ description: 'scan_form (USPS) or close_report (others).' }), url: Type.String() }), {
      description: 'Once ready: the form to print and hand to the driver (GET /v1/manifests/:id/document).',
    }),
    form_number: orNull(
      Type.String({ description: "The SCAN form number the barcode encodes, or the close confirmation; the carrier's own when its API issued the form." }),
    ),
    batch_id: orNull(Type.String()),
    error: orNull(Type.Object({ code: Type.String(), message: Type.String(), details: Type.Array(Type.Any()) }, { description: 'Why the manifest failed.' })),
    ready_at: orNull(Timestamp),
    created_at: Timestamp,
  },
  { $id: 'Manifest', title: 'Manifest', examples: [MANIFEST_EXAMPLE] },
);
export type Manifest = Static<typeof ManifestSchema>;
