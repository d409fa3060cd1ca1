/**
 * Tracking written back as order notes (docs/channels-woocommerce.md): WooCommerce core has no
 * shipment or tracking object, so a shipment is a note naming the carrier, service, tracking
 * number and link (shown to the customer, and mailed, when they are to be notified), and a voided
 * label a second note. The notes are also what read-before-write reads: ours are recognised by
 * their opening words and the tracking number they name.
 */
import { obj, str } from '../../carriers/http/json-read.js';
import type { FulfillRequest } from '../types.js';

const SHIPPED = 'Shipped with';
const VOIDED = 'Shipment voided:';

export function shipmentNote(request: FulfillRequest, lines: string[] | null): string {
  const { company, service, number, url } = request.tracking;
  const parts = [`${SHIPPED} ${company}${service ? ` (${service})` : ''}, tracking number ${number}`];
  if (url) parts.push(`track it at ${url}`);
  if (lines?.length) parts.push(`items: ${lines.join(', ')}`);
  return `${parts.join('; ')}.`;
}

export function voidNote(trackingNumber: string): string {
  return `${VOIDED} the label with tracking number ${trackingNumber} was voided; this parcel will not be sent.`;
}

export interface OurNote {
  id: string;
  kind: 'shipped' | 'voided';
  trackingNumber: string;
}

/** The tracking number a note of ours names (the token after "tracking number", without a closing mark). */
function namedNumber(note: string): string | null {
  const m = /tracking number (\S+)/.exec(note);
  return m ? m[1].replace(/[.,;]+$/, '') : null;
}

/** Our notes among an order's notes, oldest first (WooCommerce lists the newest first). */
export function ourNotes(value: unknown): OurNote[] | null {
  if (!Array.isArray(value)) return null;
  const out: OurNote[] = [];
  for (const n of value) {
    const note = obj(n);
    const id = str(note.id);
    const content = str(note.note)?.trim() ?? '';
    const kind = content.startsWith(SHIPPED) ? 'shipped' : content.startsWith(VOIDED) ? 'voided' : null;
    const trackingNumber = kind ? namedNumber(content) : null;
    if (id && kind && trackingNumber) out.push({ id, kind, trackingNumber });
  }
  return out.sort((a, b) => Number(a.id) - Number(b.id));
}

/**
 * Where a tracking number stands from our notes: its last note decides (a shipment voided and
 * shipped again is shipped). `shipped` carries the note id.
 */
export function trackingState(notes: OurNote[], trackingNumber: string): { state: 'none' } | { state: 'shipped'; noteId: string } | { state: 'voided' } {
  const last = notes.filter((n) => n.trackingNumber === trackingNumber).at(-1);
  if (!last) return { state: 'none' };
  return last.kind === 'shipped' ? { state: 'shipped', noteId: last.id } : { state: 'voided' };
}

/** Tracking numbers still shipped (not voided since) by our notes. */
export function liveTrackingNumbers(notes: OurNote[]): string[] {
  const numbers = [...new Set(notes.map((n) => n.trackingNumber))];
  return numbers.filter((n) => trackingState(notes, n).state === 'shipped');
}

/** `fulfill`'s ref, the write-back's `external_ref`: the note's id (the order is the write-back's own). */
export const noteRef = (noteId: string) => noteId;
