/**
 * Pickup creation (`POST /api/pickupcreation/{version}/pickup`) and cancel
 * (`DELETE /api/shipments/{version}/pickup/{CancelBy}`, CancelBy 02 = by PRN, in the `Prn`
 * header), Pickup.yaml.
 */
import type { ApiPickupRequest, ApiPickupResult } from '../../driver.js';
import { upsServiceCode } from './units.js';
import { clip, obj, phoneDigits, str, upsPostalCode, yyyymmdd, type Json } from './wire.js';

export function buildPickupRequest(req: ApiPickupRequest, accountNumber: string): Json | null {
  const pieces: Json[] = [];
  for (const p of req.pieces) {
    const code = upsServiceCode(p.service_code);
    if (!code) return null;
    pieces.push({
      // Pickup service codes are 3 digits: the shipping code left-padded (003 = Ground).
      ServiceCode: code.padStart(3, '0'),
      Quantity: String(Math.min(999, p.quantity)),
      DestinationCountryCode: p.destination_country.toUpperCase(),
      ContainerCode: '01', // 01 = package
    });
  }
  const a = req.address;
  const address: Json = {
    CompanyName: clip(a.company ?? a.name, 27) ?? 'Shipper',
    ContactName: clip(a.name ?? a.company, 22) ?? 'Shipping',
    AddressLine: [a.street1, a.street2].map((l) => clip(l, 73)).filter((l): l is string => !!l),
    City: clip(a.city, 50) ?? '',
    CountryCode: a.country.toUpperCase(),
    ResidentialIndicator: req.residential ? 'Y' : 'N',
    Phone: { Number: phoneDigits(a.phone) ?? '0000000000' },
  };
  const state = clip(a.state, 50);
  if (state) address.StateProvince = state;
  if (a.postal_code) address.PostalCode = upsPostalCode(a.postal_code).slice(0, 8);
  const out: Json = {
    Request: {},
    RatePickupIndicator: 'Y',
    Shipper: { Account: { AccountNumber: accountNumber, AccountCountryCode: a.country.toUpperCase() } },
    // PickupDate: the schema says 4 characters, its own description and examples say yyyyMMdd:
    // we send yyyyMMdd.
    PickupDateInfo: { CloseTime: req.close_time, ReadyTime: req.ready_time, PickupDate: yyyymmdd(req.pickup_date) },
    PickupAddress: address,
    AlternateAddressIndicator: 'N',
    PickupPiece: pieces,
    PaymentMethod: '01', // 01 = the shipper's account
  };
  const instructions = clip(req.instructions, 57);
  if (instructions) out.SpecialInstruction = instructions;
  return { PickupCreationRequest: out };
}

export function parsePickupResponse(body: unknown): ApiPickupResult | null {
  const r = obj(obj(body).PickupCreationResponse);
  const prn = str(r.PRN);
  if (!prn) return null;
  const rate = obj(r.RateResult);
  const total = str(rate.GrandTotalOfAllCharge);
  const currency = str(rate.CurrencyCode);
  return {
    confirmation: prn,
    charge: total && currency && /^\d+(\.\d+)?$/.test(total.trim()) ? { amount: Math.round(Number(total) * 100), currency } : null,
  };
}

export function pickupCancelPath(version: string): string {
  return `/api/shipments/${version}/pickup/02`;
}

/** ResponseStatus.Code `1` = success. */
export function parsePickupCancelResponse(body: unknown): boolean {
  return str(obj(obj(obj(obj(body).PickupCancelResponse).Response).ResponseStatus).Code) === '1';
}
