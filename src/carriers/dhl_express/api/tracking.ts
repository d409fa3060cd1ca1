/**
 * Tracking (`GET /shipments/{shipmentTrackingNumber}/tracking`, `…TrackingResponse`), every
 * checkpoint of the shipment, each with its GMT offset.
 */
import type { ApiTrackEvent, ApiTrackResult } from '../../driver.js';
import { asList, obj, str, type Json } from '../../http/json-read.js';
import type { TrackingLocation } from '../../types.js';
import { mapDhlEvent } from './units.js';
import { isoDateOf } from './wire.js';

export function trackPath(trackingNumber: string): string {
  return `/shipments/${encodeURIComponent(trackingNumber)}/tracking?trackingView=all-checkpoints&levelOfDetail=shipment&requestGMTOffsetPerEvent=true`;
}

/** `+08:00`, `+0800`, `GMT+08:00`, `-5` → `±hh:mm`; null when unreadable. */
function offsetOf(value: string | null): string | null {
  const m = /([+-])(\d{1,2}):?(\d{2})?$/.exec((value ?? '').trim());
  return m ? `${m[1]}${m[2].padStart(2, '0')}:${m[3] ?? '00'}` : null;
}

/** date + time + GMTOffset → UTC ISO; without an offset the local time is read as UTC. */
function occurredAt(e: Json): string | null {
  const date = str(e.date);
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const time = /^\d{2}:\d{2}(:\d{2})?$/.test(str(e.time) ?? '') ? str(e.time)! : '00:00:00';
  const ms = Date.parse(`${date}T${time.length === 5 ? `${time}:00` : time}${offsetOf(str(e.GMTOffset)) ?? 'Z'}`);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/** A service area reads `AUCKLAND-NZ`: the city and the country of the checkpoint. */
function locationOf(e: Json): TrackingLocation {
  const area = str(obj(asList(e.serviceArea)[0]).description) ?? '';
  const m = /^(.*?)-([A-Z]{2})$/.exec(area.trim());
  return { city: m ? m[1].trim() || null : area.trim() || null, state: null, postal_code: null, country: m ? m[2] : null };
}

export function parseTrackResponse(body: unknown): ApiTrackResult | null {
  const b = obj(body);
  if (!Array.isArray(b.shipments)) return null;
  const shipment = obj(b.shipments[0]);
  if (Object.keys(shipment).length === 0) return null;
  const events: ApiTrackEvent[] = [];
  for (const raw of asList(shipment.events).map(obj)) {
    const at = occurredAt(raw);
    if (!at) continue;
    const code = str(raw.typeCode) ?? '';
    const mapped = mapDhlEvent(code);
    events.push({
      occurred_at: at,
      status: mapped.status,
      status_detail: mapped.detail,
      milestone: mapped.milestone,
      description: str(raw.description)?.trim() ?? '',
      location: locationOf(raw),
      carrier_status_code: code,
      // MyDHL has one code per checkpoint, no status type beside it.
      carrier_status_type: null,
    });
  }
  // Oldest first; a stable sort keeps same-second checkpoints in DHL's order.
  events.sort((x, y) => x.occurred_at.localeCompare(y.occurred_at));
  const latest = events[events.length - 1];
  // DHL knows the shipment but has scanned nothing yet: the label exists, no more.
  const status = latest ? { status: latest.status, detail: latest.status_detail } : { status: 'pre_transit' as const, detail: 'label_created' };
  const delivered = [...events].reverse().find((e) => e.status === 'delivered');
  return {
    status: status.status,
    status_detail: status.detail,
    events,
    estimated_delivery_date: isoDateOf(str(shipment.estimatedDeliveryDate)),
    delivered_at: status.status === 'delivered' ? (delivered?.occurred_at ?? null) : null,
    carrier_status_code: latest?.carrier_status_code ?? null,
  };
}
