import { randomInt } from 'node:crypto';
import type { ApiCallContext, CarrierDriver, DriverResult } from '../driver.js';
import type { CarrierMessage } from '../http/errors.js';
import type { CarrierDefinition } from '../types.js';

/**
 * A carrier's simulated driver: the same `CarrierDriver` contract as its real-protocol one
 * (docs/carriers.md, "One contract, two drivers"), answered in process from the folder's
 * definition: rates from its card, a purchase as a pure simulation (no label image: the
 * platform draws the label from the carrier's presentation), void until the first scan, the
 * deterministic scan schedule, and pickups booked at once for the carrier's usual fee. Its
 * refusals are sorted into the contract's outcomes here, once; a `CarrierError` the adapter
 * throws (a failing test double) is the transport failure it stands for.
 */
export function simulatedDriver(carrier: CarrierDefinition): CarrierDriver {
  const { adapter } = carrier;
  const message = (text: string, field?: string): CarrierMessage[] => [
    { code: 'carrier_rejected', message: text, carrier_code: 'SIMULATED', ...(field ? { field } : {}) },
  ];
  const notOffered = <T>(text: string, field?: string): DriverResult<T> => ({ ok: false, kind: 'not_offered', messages: message(text, field) });
  return {
    carrier: carrier.slug,
    inProcess: true,
    credentialsSchema: { type: 'object', properties: {}, additionalProperties: false },
    hosts: { sandbox: 'in-process', production: 'in-process' },

    async rates(_ctx, request) {
      if (!adapter.rate) return notOffered(`${carrier.name} quotes no rates`);
      return { ok: true, value: await adapter.rate(request) };
    },

    async purchase(_ctx, request) {
      if (!adapter.purchase) return notOffered(`${carrier.name} does not sell labels`);
      const result = await adapter.purchase(request);
      if (!result.ok) {
        // A refusal on the merits (the customs declaration, say) is the carrier's, as from a real carrier's API.
        const field = result.field ?? 'service_code';
        return result.rejected
          ? { ok: false, kind: 'rejected', messages: message(`${carrier.name} refused the label: ${result.reason}`, field) }
          : notOffered(result.reason, field);
      }
      const numbers = result.package_tracking_numbers ?? [result.tracking_number];
      return {
        ok: true,
        value: {
          tracking_number: result.tracking_number,
          carrier_shipment_id: result.tracking_number,
          packages: numbers.map((tracking_number) => ({ tracking_number, label: null })),
          label: null,
          rate: result.rate,
        },
      };
    },

    async void(_ctx, request) {
      // A void voids every package: each is asked, and one the carrier has scanned refuses it all.
      const now = request.now ?? new Date().toISOString();
      for (const trackingNumber of adapter.void ? (request.tracking_numbers ?? [request.carrier_shipment_id]) : []) {
        const result = await adapter.void!({
          tracking_number: trackingNumber,
          service_code: request.service_code ?? '',
          purchased_at: request.purchased_at ?? now,
          now,
          sandbox: request.sandbox,
        });
        if (!result.ok) return { ok: false, kind: 'too_late', messages: message(result.reason) };
      }
      return { ok: true, value: { voided: true, refund_review: true } };
    },

    async track(_ctx, request) {
      if (!adapter.track) return notOffered(`${carrier.name} offers no tracking`);
      return { ok: true, value: await adapter.track(request) };
    },

    async schedulePickup() {
      const offer = carrier.end_of_day?.pickup;
      if (!offer) return notOffered(`${carrier.name} does not offer pickups`);
      return { ok: true, value: { confirmation: confirmationNumber(carrier.slug), charge: offer.fee } };
    },

    async cancelPickup() {
      return { ok: true, value: { cancelled: true } };
    },

    async testCredentials() {
      return { ok: true, value: { latency_ms: 0 } };
    },
  };
}

/** A simulated pickup's confirmation number: the carrier's letters and ten digits. */
function confirmationNumber(slug: string): string {
  let digits = '';
  for (let i = 0; i < 10; i++) digits += String(randomInt(10));
  return `${slug
    .replace(/[^a-z]/g, '')
    .slice(0, 3)
    .toUpperCase()}${digits}`;
}

/** The call context of a simulated driver where no account is involved (the bare registry's rate-shop): it reads none of it. */
export const IN_PROCESS_CONTEXT = {
  account: { id: '', mode: 'sandbox', account_number: null, credentials: {} },
  timeoutMs: 0,
} as const satisfies ApiCallContext;
