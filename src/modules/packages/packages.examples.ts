/** The documented examples of packages (kept valid against the schemas by test/docs). */
export const CREATE_PACKAGE_BODY_EXAMPLE = { name: 'Mailer 10×8×4', length_in: 10, width_in: 8, height_in: 4, tare_weight_oz: 3.5, max_weight_oz: 320 };

export const PACKAGE_EXAMPLE = {
  id: 'pkg_01jdx3c2v5f0b6k8m9n1p2q3r4',
  ...CREATE_PACKAGE_BODY_EXAMPLE,
  created_at: '2026-03-02T15:04:05.000Z',
  updated_at: '2026-03-02T15:04:05.000Z',
};

export const CARRIER_PACKAGE_EXAMPLE = {
  id: 'usps_medium_flat_rate_box',
  carrier: 'usps',
  name: 'Priority Mail Medium Flat Rate Box',
  length_in: 11,
  width_in: 8.5,
  height_in: 5.5,
  max_weight_oz: 1120,
  flat_rate_services: ['usps_priority_mail'],
};
