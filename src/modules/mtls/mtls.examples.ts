// Examples for the OpenAPI document (mTLS client certificates): real answers of the service,
// recorded and trimmed (secrets replaced), attached to the schemas with `examples`.
// test/platform/openapi-contract.test.ts validates each against its schema, so a schema change
// that breaks one fails there.

/** POST /api/admin/mtls-certificates by fingerprint (or send the PEM). */
export const CREATE_MTLS_CERTIFICATE_BODY_EXAMPLE = {
  name: 'Warehouse gateway',
  fingerprint_sha256: '3F:2A:9C:41:7D:0E:B5:88:61:C2:4A:19:E7:3B:D0:55:8F:A6:12:C9:70:4E:BB:2D:96:E1:58:0A:3C:7F:D4:6B',
};

/** A registered certificate. */
export const MTLS_CERTIFICATE_EXAMPLE = {
  id: 'mtc_01m855w9p2e6rb4x0v7c1k3s8d',
  name: 'Warehouse gateway',
  fingerprint_sha256: '3f2a9c417d0eb58861c24a19e73bd0558fa612c9704ebb2d96e1580a3c7fd46b',
  subject: null,
  expires_at: null,
  created_at: '2026-11-23T21:44:31.020Z',
};
