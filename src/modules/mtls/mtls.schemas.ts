import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuerySchema } from '../../platform/http/schemas.js';
import { CREATE_MTLS_CERTIFICATE_BODY_EXAMPLE, MTLS_CERTIFICATE_EXAMPLE } from './mtls.examples.js';

export const MtlsCertificateSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    fingerprint_sha256: Type.String({ description: 'SHA-256 of the DER certificate, 64 lowercase hex digits.' }),
    subject: Type.Union([Type.String(), Type.Null()], { description: 'Subject of the certificate, when it was registered as PEM.' }),
    expires_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'MtlsCertificate', title: 'MtlsCertificate', examples: [MTLS_CERTIFICATE_EXAMPLE] },
);

export const CreateMtlsCertificateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    fingerprint_sha256: Type.Optional(Type.String({ maxLength: 200, description: 'Hex, with or without colons (as openssl prints it). Give this or pem.' })),
    pem: Type.Optional(Type.String({ maxLength: 20_000, description: 'The client certificate (PEM). Give this or fingerprint_sha256.' })),
  },
  { additionalProperties: false, examples: [CREATE_MTLS_CERTIFICATE_BODY_EXAMPLE] },
);
export type CreateMtlsCertificateInput = Static<typeof CreateMtlsCertificateBody>;

export const MtlsCertificateListQuery = PaginationQuerySchema;
export const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
