/** Track by tracking number (`POST /track/v1/trackingnumbers`, track-v1-TrackingNumbers-Resource.json). */
import type { ApiTrackEvent, ApiTrackResult } from '../../driver.js';
import type { CarrierMessage } from '../../http/errors.js';
import { asList, obj, str, type Json } from '../../http/json-read.js';
import { fieldOf } from './errors.js';
import { mapFedexStatus } from './units.js';
import { isoDay } from './wire.js';

export const TRACK_PATH = '/track/v1/trackingnumbers';

export function buildTrackRequest(trackingNumber: string): Json {
  return { includeDetailedScans: true, trackingInfo: [{ trackingNumberInfo: { trackingNumber } }] };
}

/** FedEx times carry their offset (`2018-02-02T12:01:00-07:00`); one without is read as UTC. */
function instant(value: unknown): string | null {
  const s = str(value);
  if (!s || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(s)) return null;
  const ms = Date.parse(/(Z|[+-]\d{2}:?\d{2})$/.test(s) ? s : `${s}Z`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export type TrackParse = { ok: true; value: ApiTrackResult } | { ok: false; messages: CarrierMessage[] } | null;

function eventOf(scan: Json): ApiTrackEvent | null {
  const at = instant(scan.date);
  if (!at) return null;
  const derived = str(scan.derivedStatusCode);
  const code = str(scan.eventType) ?? derived ?? '';
  const mapped = mapFedexStatus(derived, code);
  const loc = obj(scan.scanLocation);
  return {
    occurred_at: at,
    status: mapped.status,
    status_detail: mapped.detail,
    milestone: mapped.milestone,
    description: str(scan.eventDescription)?.trim() || str(scan.derivedStatus) || '',
    location: {
      city: str(loc.city),
      state: str(loc.stateOrProvinceCode),
      postal_code: str(loc.postalCode),
      country: str(loc.countryCode),
    },
    carrier_status_code: code,
    carrier_status_type: derived,
  };
}

export function parseTrackResponse(body: unknown): TrackParse {
  const output = obj(obj(body).output);
  if (!Array.isArray(output.completeTrackResults)) return null;
  const result = obj(asList(obj(output.completeTrackResults[0]).trackResults)[0]);
  const error = obj(result.error);
  if (Object.keys(error).length > 0 || Object.keys(result).length === 0) {
    const code = str(error.code) ?? 'TRACKING.DATA.NOTFOUND';
    return {
      ok: false,
      messages: [
        {
          code: 'carrier_rejected',
          carrier_code: code,
          message: str(error.message) ?? 'FedEx has no tracking for this number',
          field: fieldOf(code) ?? 'tracking_number',
        },
      ],
    };
  }
  const events = asList(result.scanEvents)
    .map((s) => eventOf(obj(s)))
    .filter((e): e is ApiTrackEvent => e !== null);
  // FedEx lists newest first; ours are oldest first. A stable sort keeps same-second scans in order.
  events.reverse();
  events.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
  const latest = obj(result.latestStatusDetail);
  const last = events[events.length - 1];
  const mapped =
    latest.code !== undefined || latest.derivedCode !== undefined
      ? mapFedexStatus(str(latest.derivedCode), str(latest.code))
      : last
        ? { status: last.status, detail: last.status_detail, milestone: last.milestone }
        : mapFedexStatus(null, null);
  const dates = asList(result.dateAndTimes).map(obj);
  const dateOf = (type: string) => dates.find((d) => d.type === type)?.dateTime;
  const window = obj(obj(result.estimatedDeliveryTimeWindow).window);
  const deliveredEvent = [...events].reverse().find((e) => e.status === 'delivered');
  return {
    ok: true,
    value: {
      status: mapped.status,
      status_detail: mapped.detail,
      events,
      estimated_delivery_date:
        isoDay(window.ends) ?? isoDay(window.begins) ?? isoDay(dateOf('ESTIMATED_DELIVERY')) ?? isoDay(obj(obj(result.standardTransitTimeWindow).window).ends),
      delivered_at: mapped.status === 'delivered' ? (deliveredEvent?.occurred_at ?? instant(dateOf('ACTUAL_DELIVERY'))) : null,
      carrier_status_code: str(latest.code) ?? str(latest.derivedCode) ?? last?.carrier_status_code ?? null,
    },
  };
}
