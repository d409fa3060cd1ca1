/** What a masked secret shows: the dots, plus its last four characters when it is long enough to keep them. */
const MASK = '••••';
/** Below this length the last four characters would give away too much of the secret. */
const MIN_LENGTH_TO_SHOW_TAIL = 12;

/** A secret as answers and the audit log show it (carrier and store credentials alike). */
export function maskSecret(value: string): string {
  return value.length >= MIN_LENGTH_TO_SHOW_TAIL ? `${MASK}${value.slice(-4)}` : MASK;
}
