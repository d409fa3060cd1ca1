import type { Scope } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { validateAddress, validateAddressWithCarrier, type AddressInput, type CarrierAddressValidators } from '../addresses/index.js';
import type { CarrierAccountRow } from '../carrier-accounts/index.js';
import type { AddressCheckRecord, AddressValidationMode, ShipmentAddress } from './shipments.tables.js';

export type { AddressCheckRecord, AddressValidationMode } from './shipments.tables.js';

export interface CheckedDestination {
  /** Where the label goes: as given, or the validator's normalised address (validate_and_clean). */
  shipTo: ShipmentAddress;
  /** The address as given when the clean one replaced it; else null. */
  original: ShipmentAddress | null;
  record: AddressCheckRecord;
}

/** The account validates with its carrier when it is an `api` account whose driver can. */
export type CarrierValidatorOf = (account: CarrierAccountRow) => boolean;

/**
 * The destination checked before a label is bought: `none` skips the check;
 * `validate` refuses an `invalid` address (422 `address_undeliverable`, the validator's messages as
 * details) and buys any other as given, keeping the messages; `validate_and_clean` also ships to
 * the normalised address and keeps the original. The carrier's validator answers when the
 * purchase goes through an `api` account whose carrier validates addresses; else the built-in one.
 */
export async function checkDestination(
  mode: AddressValidationMode,
  shipTo: ShipmentAddress,
  via: { scope: Scope; account: CarrierAccountRow; validators: CarrierAddressValidators; usesCarrier: boolean; requestId?: string },
): Promise<CheckedDestination> {
  if (mode === 'none') return { shipTo, original: null, record: { mode, status: null, messages: [], source: null } };
  const input = shipTo as unknown as AddressInput;
  const result = via.usesCarrier
    ? await validateAddressWithCarrier(via.validators, via.scope, via.account.id, input, via.requestId)
    : { ...validateAddress(input), source: { type: 'built_in' as const } };
  const record: AddressCheckRecord = { mode, status: result.status, messages: result.messages, source: result.source ?? { type: 'built_in' } };
  if (result.status === 'invalid') {
    throw new AppError('address_undeliverable', 'The destination address is not deliverable; nothing was bought.', {
      details: result.messages.map((m) => ({ field: `ship_to.${m.field}`, message: m.message, code: m.code })),
    });
  }
  if (mode === 'validate') return { shipTo, original: null, record };
  // Who and how to reach them stay as given: a validator standardises where, not whom.
  const cleaned: ShipmentAddress = { ...shipTo, ...(result.normalized as Partial<ShipmentAddress>), country: result.normalized.country ?? shipTo.country };
  for (const f of ['name', 'company', 'phone', 'email'] as const) if (shipTo[f] !== undefined) cleaned[f] = shipTo[f];
  return { shipTo: cleaned, original: shipTo, record };
}
