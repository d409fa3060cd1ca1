import type { CountryGroup, RouteFacts } from '../../carriers/types.js';
import { uspsZoneForDistance } from '../../carriers/simulation/rate-engine.js';
import { US_ZIP_COUNTRIES, usZipRecords } from '../addresses/index.js';

/**
 * Zones from geography. USPS-style distance zones come from the great-circle distance between
 * the centroids of the two ZIP3 areas (each centroid the average position of every ZIP sharing
 * those three digits, computed once from the `zipcodes` data). International lanes are zoned
 * by the country group of the far end.
 */

export interface LatLon {
  latitude: number;
  longitude: number;
}

export const TERRITORY_STATES: ReadonlySet<string> = new Set(['PR', 'VI', 'GU', 'AS', 'MP', 'FM', 'MH', 'PW']);
export const MILITARY_STATES: ReadonlySet<string> = new Set(['AA', 'AE', 'AP']);
const NONCONTIGUOUS_STATES: ReadonlySet<string> = new Set(['AK', 'HI']);

let centroids: Map<string, LatLon> | null = null;

function buildCentroids(): Map<string, LatLon> {
  const sums = new Map<string, { lat: number; lon: number; n: number }>();
  for (const r of usZipRecords()) {
    // Military ZIPs carry 0,0 in the data; a centroid there would be meaningless.
    if (MILITARY_STATES.has(r.state) || (r.latitude === 0 && r.longitude === 0)) continue;
    const zip3 = r.zip.slice(0, 3);
    const s = sums.get(zip3) ?? { lat: 0, lon: 0, n: 0 };
    s.lat += r.latitude;
    s.lon += r.longitude;
    s.n += 1;
    sums.set(zip3, s);
  }
  const out = new Map<string, LatLon>();
  for (const [zip3, s] of sums) out.set(zip3, { latitude: s.lat / s.n, longitude: s.lon / s.n });
  return out;
}

/** The centroid of a ZIP3 area (lazily computed for all areas on first use). */
export function zip3Centroid(zip3: string): LatLon | undefined {
  centroids ??= buildCentroids();
  return centroids.get(zip3);
}

const EARTH_RADIUS_MILES = 3958.8;

/** Haversine great-circle distance in statute miles. */
export function greatCircleMiles(a: LatLon, b: LatLon): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function distanceBetweenZip3(from: string, to: string): number | null {
  const a = zip3Centroid(from);
  const b = zip3Centroid(to);
  return a && b ? greatCircleMiles(a, b) : null;
}

/** UPS/FedEx zone 2–8: USPS's distance bands (the simulation kit's chart), with the local zone 1 folded into 2. */
export function groundZoneForDistance(miles: number): number {
  return Math.max(2, uspsZoneForDistance(miles));
}

const CA_MX = new Set(['CA', 'MX']);
const EUROPE = new Set([
  'AD',
  'AL',
  'AT',
  'AX',
  'BA',
  'BE',
  'BG',
  'BY',
  'CH',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FO',
  'FR',
  'GB',
  'GG',
  'GI',
  'GL',
  'GR',
  'HR',
  'HU',
  'IE',
  'IM',
  'IS',
  'IT',
  'JE',
  'LI',
  'LT',
  'LU',
  'LV',
  'MC',
  'MD',
  'ME',
  'MK',
  'MT',
  'NL',
  'NO',
  'PL',
  'PT',
  'RO',
  'RS',
  'RU',
  'SE',
  'SI',
  'SJ',
  'SK',
  'SM',
  'UA',
  'VA',
  'XK',
]);
const ASIA_PACIFIC = new Set([
  'AU',
  'BD',
  'BN',
  'BT',
  'CK',
  'CN',
  'FJ',
  'HK',
  'ID',
  'IN',
  'JP',
  'KH',
  'KI',
  'KR',
  'LA',
  'LK',
  'MM',
  'MN',
  'MO',
  'MV',
  'MY',
  'NC',
  'NP',
  'NR',
  'NU',
  'NZ',
  'PF',
  'PG',
  'PH',
  'PK',
  'SB',
  'SG',
  'TH',
  'TL',
  'TO',
  'TV',
  'TW',
  'VN',
  'VU',
  'WS',
]);

export function countryGroup(country: string): CountryGroup {
  if (CA_MX.has(country)) return 'ca_mx';
  if (EUROPE.has(country)) return 'europe';
  if (ASIA_PACIFIC.has(country)) return 'asia_pacific';
  return 'rest_of_world';
}

export const INTERNATIONAL_ZONES: Readonly<Record<CountryGroup, number>> = {
  ca_mx: 1,
  europe: 2,
  asia_pacific: 3,
  rest_of_world: 4,
};

export interface RouteEnd {
  /** Upper-case alpha-2. */
  country: string;
  postal_code: string;
  /** The ZIP's state for US-style addresses (from the ZIP data), else null. */
  state: string | null;
}

/**
 * Facts about a lane for the carriers. US territories and military addresses count as US
 * (USPS treats them as domestic): their country is reported as `US`.
 *
 * - Distance between the two ZIP3 centroids (a carrier's own zone chart reads it: USPS's is in
 *   the simulation kit, `uspsZone`).
 * - Ground zone (UPS/FedEx): 2–8 by the same distance; 8 for territories; none for military.
 * - International: the group of the non-US end (for a lane between two non-US countries, the
 *   destination's); zone 1 as well for a lane inside one group outside North America (e.g.
 *   Germany → France), as express carriers price intra-regional lanes lowest.
 */
export function buildRoute(from: RouteEnd, to: RouteEnd): RouteFacts {
  const fromUs = US_ZIP_COUNTRIES.has(from.country);
  const toUs = US_ZIP_COUNTRIES.has(to.country);
  const originCountry = fromUs ? 'US' : from.country;
  const destinationCountry = toUs ? 'US' : to.country;
  const states = [from.state, to.state].filter((s): s is string => s !== null);
  const territory = states.some((s) => TERRITORY_STATES.has(s));
  const military = states.some((s) => MILITARY_STATES.has(s));
  const base: RouteFacts = {
    domestic: originCountry === destinationCountry,
    origin_country: originCountry,
    destination_country: destinationCountry,
    distance_miles: null,
    ground_zone: null,
    international_group: null,
    international_zone: null,
    territory,
    military,
    noncontiguous: territory || military || states.some((s) => NONCONTIGUOUS_STATES.has(s)),
  };

  if (fromUs && toUs) {
    const miles = military ? null : distanceBetweenZip3(from.postal_code.slice(0, 3), to.postal_code.slice(0, 3));
    const distance = miles === null ? null : Math.round(miles * 10) / 10;
    let groundZone: number | null = distance === null ? null : groundZoneForDistance(distance);
    if (territory) groundZone = 8;
    else if (military) groundZone = null;
    return { ...base, distance_miles: distance, ground_zone: groundZone };
  }
  if (base.domestic) return base;

  const far = destinationCountry === 'US' ? originCountry : destinationCountry;
  const group = countryGroup(far);
  const intraRegion = !fromUs && !toUs && group !== 'ca_mx' && countryGroup(originCountry) === group;
  return { ...base, international_group: group, international_zone: intraRegion ? 1 : INTERNATIONAL_ZONES[group] };
}
