import { api, askedOnce, call, type Schemas } from './client';

export type CarrierType = Schemas['CarrierType'];

/**
 * The registered carriers (GET /api/admin/carrier-types): their names, drivers, services and the
 * JSON Schema of each api driver's credentials, so a new carrier folder shows up in the
 * dashboard with no edit. Asked once per page load; a failed answer is forgotten, so the next
 * page asks again.
 */
export const carrierTypes: () => Promise<CarrierType[]> = askedOnce(() => call(api.GET('/api/admin/carrier-types')).then((r) => r.data));

/** The registered carriers' slugs, sorted, for the dashboard's carrier filters (empty when the service could not say). */
export function registeredCarriers(): Promise<string[]> {
  return carrierTypes().then(
    (list) => list.map((c) => c.carrier).sort(),
    () => [],
  );
}
