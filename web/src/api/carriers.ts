import { api } from './client';

/**
 * The registered carriers' slugs, for the dashboard's carrier filters, read from the API so a
 * new carrier folder shows up here with no edit. The API has no carrier listing yet (DESIGN.md
 * §9.1 will add GET /v1/carrier-types); until then the admin rate query names every registered
 * carrier: each of its services is either priced (`data`) or listed under `unavailable` (and
 * when none can carry the sample parcel, the 422 `no_rates` details list them all). Asked once
 * per page load; a failed answer is forgotten, so the next page asks again.
 */
let carriers: Promise<string[]> | null = null;

export function registeredCarriers(): Promise<string[]> {
  carriers ??= api
    .POST('/api/admin/rates/query', {
      body: { ship_from: { country: 'US', postal_code: '10001' }, ship_to: { country: 'US', postal_code: '90210' }, parcel: { weight_oz: 16, length_in: 10, width_in: 8, height_in: 4 } },
    })
    .then(({ data, error }) => {
      const details = (error as { details?: unknown } | undefined)?.details;
      const rows: Array<{ carrier?: unknown }> = data ? [...data.data, ...data.unavailable] : Array.isArray(details) ? details : [];
      const slugs = [...new Set(rows.map((r) => r.carrier).filter((c): c is string => typeof c === 'string'))].sort();
      if (slugs.length === 0) carriers = null;
      return slugs;
    })
    .catch(() => {
      carriers = null;
      return [];
    });
  return carriers;
}
