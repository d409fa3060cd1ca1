/** Track details (`GET /api/track/v1/details/{inquiryNumber}`, Tracking.yaml). */
import type { ApiTrackEvent, ApiTrackResult } from '../../driver.js';
import type { CarrierMessage } from '../../http/errors.js';
import { mapUpsStatus } from './units.js';
import { asList, isoDate, obj, str, type Json } from './wire.js';

export function trackPath(trackingNumber: string): string {
  return `/api/track/v1/details/${encodeURIComponent(trackingNumber)}?locale=en_US&returnSignature=false&returnMilestones=false&returnPOD=false`;
}

function pad6(t: string): string {
  return t.replace(/\D/g, '').padStart(6, '0').slice(0, 6);
}

/** gmtDate + gmtTime when given (UTC), else local date + time + gmtOffset, else local as UTC. */
function occurredAt(a: Json): string | null {
  const gmtDate = isoDate(a.gmtDate);
  const gmtTime = str(a.gmtTime);
  if (gmtDate && gmtTime) {
    const t = pad6(gmtTime);
    return `${gmtDate}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}Z`;
  }
  const date = isoDate(a.date);
  if (!date) return null;
  const t = pad6(str(a.time) ?? '000000');
  const offset = str(a.gmtOffset);
  const iso = `${date}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}${offset && /^[+-]\d{2}:\d{2}$/.test(offset) ? offset : 'Z'}`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

export type TrackParse = { ok: true; value: ApiTrackResult } | { ok: false; messages: CarrierMessage[] } | null;

export function parseTrackResponse(body: unknown): TrackParse {
  const shipment = obj(asList(obj(obj(body).trackResponse).shipment)[0]);
  const pkg = obj(asList(shipment.package)[0]);
  if (Object.keys(pkg).length === 0) {
    const warnings = asList(shipment.warnings).map(obj);
    if (warnings.length > 0) {
      return {
        ok: false,
        messages: warnings.map((w) => ({
          code: 'carrier_rejected' as const,
          carrier_code: str(w.code) ?? 'warning',
          message: str(w.message) ?? 'UPS has no tracking for this number',
          field: 'tracking_number',
        })),
      };
    }
    return Object.keys(shipment).length > 0 || 'trackResponse' in obj(body)
      ? {
          ok: false,
          messages: [{ code: 'carrier_rejected', carrier_code: 'no_package', message: 'UPS returned no package for this number', field: 'tracking_number' }],
        }
      : null;
  }
  const events: ApiTrackEvent[] = [];
  for (const raw of asList(pkg.activity).map(obj)) {
    const at = occurredAt(raw);
    if (!at) continue;
    const status = obj(raw.status);
    const type = str(status.type);
    const code = str(status.code) ?? str(status.statusCode) ?? '';
    const mapped = mapUpsStatus(type, code);
    const addr = obj(obj(raw.location).address);
    events.push({
      occurred_at: at,
      status: mapped.status,
      status_detail: mapped.detail,
      milestone: mapped.milestone,
      description: str(status.description)?.trim() || str(status.simplifiedTextDescription) || '',
      location: {
        city: str(addr.city),
        state: str(addr.stateProvince),
        postal_code: str(addr.postalCode),
        country: str(addr.countryCode) ?? str(addr.country),
      },
      carrier_status_code: code,
      carrier_status_type: type,
    });
  }
  // UPS lists newest first; ours are oldest first. A stable sort keeps same-second scans in order.
  events.reverse();
  events.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
  const current = obj(pkg.currentStatus);
  const latest = events[events.length - 1];
  let mapped =
    current.type !== undefined || current.code !== undefined
      ? mapUpsStatus(str(current.type), str(current.code) ?? str(current.statusCode))
      : latest
        ? { status: latest.status, detail: latest.status_detail, milestone: latest.milestone }
        : { status: 'unknown' as const, detail: 'unknown', milestone: 'in_transit' as const };
  // At a UPS Access Point awaiting collection: UPS gives a pick-up-by date.
  if (mapped.status === 'in_transit' && str(obj(pkg.accessPointInformation).pickupByDate)) {
    mapped = { status: 'available_for_pickup', detail: 'available_for_pickup', milestone: 'out_for_delivery' };
  }
  const dates = asList(pkg.deliveryDate).map(obj);
  const pick = (t: string) => isoDate(dates.find((d) => str(d.type) === t)?.date);
  const deliveredEvent = [...events].reverse().find((e) => e.status === 'delivered');
  return {
    ok: true,
    value: {
      status: mapped.status,
      status_detail: mapped.detail,
      events,
      estimated_delivery_date: pick('RDD') ?? pick('SDD') ?? pick('DEL'),
      delivered_at: mapped.status === 'delivered' ? (deliveredEvent?.occurred_at ?? null) : null,
      carrier_status_code: str(current.code) ?? str(current.statusCode) ?? latest?.carrier_status_code ?? null,
    },
  };
}
