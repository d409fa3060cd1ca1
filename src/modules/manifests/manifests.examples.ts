// Examples for the OpenAPI document (manifests): answers of the service, trimmed.
// test/platform/openapi-contract.test.ts validates each against its schema.

/** POST /v1/manifests: the day's USPS labels of the default account (ship_date defaults to today). */
export const CREATE_MANIFEST_BODY_EXAMPLE = { carrier: 'usps', location_id: 'loc_01jdx3c2v5f0b6k8m9n1p2q3r4', ship_date: '2026-03-02' };

/** POST /v1/manifests with a list: one label voided, one of another carrier. */
export const CREATE_MANIFEST_LIST_EXAMPLE = {
  carrier: 'usps',
  carrier_account_id: 'ca_01m855vx0usps0000000000001',
  ship_date: '2026-03-02',
  shipment_ids: ['shp_01m855vxgqem0szrmwkjs6ghzy', 'shp_01m855w0d4e8xb4sy0xqf3r3tq', 'shp_01m855w0kkf2sb9ne4bh6kz1nx'],
};

/** A ready SCAN form. */
export const MANIFEST_EXAMPLE = {
  id: 'man_01m856a1r5fkq9xp4t3w8c2v7n',
  carrier: 'usps',
  carrier_account_id: 'ca_01m855vx0usps0000000000001',
  location_id: 'loc_01jdx3c2v5f0b6k8m9n1p2q3r4',
  ship_date: '2026-03-02',
  status: 'ready',
  shipment_ids: ['shp_01m855vxgqem0szrmwkjs6ghzy'],
  rejected: [
    { shipment_id: 'shp_01m855w0d4e8xb4sy0xqf3r3tq', code: 'voided', message: 'The label is voided.' },
    {
      shipment_id: 'shp_01m855w0kkf2sb9ne4bh6kz1nx',
      code: 'carrier_mismatch',
      message: "The label is ups's (account ca_01m855vx0ups00000000000001), not this manifest's.",
    },
  ],
  documents: [{ type: 'scan_form', url: 'http://localhost:3000/v1/manifests/man_01m856a1r5fkq9xp4t3w8c2v7n/document' }],
  form_number: '9275090512345678901234',
  batch_id: null,
  error: null,
  ready_at: '2026-03-02T18:00:01.412Z',
  created_at: '2026-03-02T18:00:00.907Z',
};

/** manifest.ready (webhook event data). */
export const MANIFEST_READY_EVENT_EXAMPLE = { manifest: MANIFEST_EXAMPLE };
