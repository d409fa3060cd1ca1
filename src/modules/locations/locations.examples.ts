/** The documented examples of locations (kept valid against the schemas by test/docs). */
export const CREATE_LOCATION_BODY_EXAMPLE = {
  name: 'Reno warehouse',
  address: { company: 'Acme', street1: '1 Logistics Way', city: 'Reno', state: 'NV', postal_code: '89502', country: 'US' },
  timezone: 'America/Los_Angeles',
  pickup_cutoff: '16:30',
  is_default: false,
};

export const LOCATION_EXAMPLE = {
  id: 'loc_01jdx3c2v5f0b6k8m9n1p2q3r4',
  ...CREATE_LOCATION_BODY_EXAMPLE,
  return_address: null,
  created_at: '2026-03-02T15:04:05.000Z',
  updated_at: '2026-03-02T15:04:05.000Z',
};
