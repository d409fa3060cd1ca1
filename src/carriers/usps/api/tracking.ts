/** Package tracking, detail (`GET /tracking/v3/tracking/{trackingNumber}?expand=DETAIL`, tracking.yaml). */
import type { ApiTrackEvent, ApiTrackResult } from '../../driver.js';
import { asList, obj, str, type Json } from '../../http/json-read.js';
import { mapUspsEvent } from './units.js';

export function trackPath(trackingNumber: string): string {
  return `/tracking/v3/tracking/${encodeURIComponent(trackingNumber.replace(/\s+/g, ''))}?expand=DETAIL`;
}

/**
 * When the event happened, in UTC: `GMTTimestamp` when given; else `eventTimestamp` with
 * `GMTOffset` when that is an offset (`-05:00`); else `eventTimestamp` as written (USPS writes
 * the local time with a `Z` in its examples, so this fallback can be hours off: it is the last
 * resort, not the rule).
 */
function occurredAt(e: Json): string | null {
  const gmt = str(e.GMTTimestamp);
  if (gmt && !Number.isNaN(Date.parse(gmt))) return new Date(gmt).toISOString();
  const local = str(e.eventTimestamp);
  if (!local) return null;
  const offset = str(e.GMTOffset);
  const bare = local.replace(/(Z|[+-]\d{2}:\d{2})$/, '');
  const iso = offset && /^[+-]\d{2}:\d{2}$/.test(offset) ? `${bare}${offset}` : /(Z|[+-]\d{2}:\d{2})$/.test(local) ? local : `${local}Z`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** Null when the answer is not a TrackingDetails (no tracking number, no events list). */
export function parseTrackResponse(body: unknown): ApiTrackResult | null {
  const d = obj(body);
  if (!str(d.trackingNumber) && !Array.isArray(d.trackingEvents)) return null;
  const events: ApiTrackEvent[] = [];
  for (const e of asList(d.trackingEvents).map(obj)) {
    const at = occurredAt(e);
    if (!at) continue;
    const code = str(e.eventCode) ?? '';
    const mapped = mapUspsEvent(code);
    events.push({
      occurred_at: at,
      status: mapped.status,
      status_detail: mapped.detail,
      milestone: mapped.milestone,
      description: str(e.eventType)?.trim() ?? '',
      location: {
        city: str(e.eventCity),
        state: str(e.eventState),
        postal_code: str(e.eventZIP),
        country: str(e.eventCountry) ?? (str(e.eventState) ? 'US' : null),
      },
      carrier_status_code: code,
      // USPS has no status type beside the event code; its `actionCode` is the nearest.
      carrier_status_type: str(e.actionCode),
    });
  }
  // USPS lists newest first; ours are oldest first. A stable sort keeps same-minute scans in order.
  events.reverse();
  events.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
  const latest = events[events.length - 1];
  const delivered = [...events].reverse().find((e) => e.status === 'delivered');
  const status = latest?.status ?? 'unknown';
  const expected = str(d.expectedDeliveryTimeStamp) ?? str(d.predictedDeliveryDate) ?? str(d.predictedDeliveryTimeStamp) ?? str(d.guaranteedDeliveryTimeStamp);
  return {
    status,
    status_detail: latest?.status_detail ?? 'unknown',
    events,
    estimated_delivery_date: expected && /^\d{4}-\d{2}-\d{2}/.test(expected) ? expected.slice(0, 10) : null,
    delivered_at: status === 'delivered' ? (delivered?.occurred_at ?? null) : null,
    carrier_status_code: latest?.carrier_status_code ?? null,
  };
}
