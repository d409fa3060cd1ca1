/** What a masked secret shows: the dots, plus its last four characters when it is long enough to keep them. */
const MASK = '••••';
const TAIL = 4;
/**
 * The tail is shown once it is at most half the value (a 10-digit account number shows its last
 * 4, as statements do); a shorter value would be mostly given away, so it shows the dots only.
 */
const MIN_LENGTH_TO_SHOW_TAIL = 2 * TAIL;

/** A secret as answers and the audit log show it (carrier and store credentials alike). */
export function maskSecret(value: string): string {
  return value.length >= MIN_LENGTH_TO_SHOW_TAIL ? `${MASK}${value.slice(-TAIL)}` : MASK;
}
