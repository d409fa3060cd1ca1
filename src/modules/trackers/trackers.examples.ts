/** The documented examples of trackers (kept valid against the schemas by test/docs). */
export const CREATE_TRACKER_BODY_EXAMPLE = { carrier: 'ups', tracking_number: '1Z999AA10123456784' };

export const TRACKER_EXAMPLE = {
  id: 'trk_01jdx3c2v5f0b6k8m9n1p2q3r4',
  carrier: 'ups',
  tracking_number: '1Z999AA10123456784',
  carrier_account_id: null,
  status: 'in_transit',
  status_detail: 'departed_facility',
  events: [
    {
      id: 'tev_01jdx3c2v5f0b6k8m9n1p2q3r6',
      occurred_at: '2026-03-02T22:00:00.000Z',
      status: 'in_transit',
      status_detail: 'departed_facility',
      description: 'Departed origin facility',
      location: { city: null, state: null, postal_code: null, country: 'US' },
      carrier_status_code: 'DP',
    },
    {
      id: 'tev_01jdx3c2v5f0b6k8m9n1p2q3r5',
      occurred_at: '2026-03-02T18:00:00.000Z',
      status: 'in_transit',
      status_detail: 'picked_up',
      description: 'Picked up by UPS',
      location: { city: null, state: null, postal_code: null, country: 'US' },
      carrier_status_code: 'PU',
    },
  ],
  estimated_delivery_at: '2026-03-05T14:00:00.000Z',
  created_at: '2026-03-02T15:04:05.000Z',
  updated_at: '2026-03-02T22:00:00.000Z',
};
