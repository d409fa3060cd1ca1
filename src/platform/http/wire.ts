/** A timestamp on the wire (DESIGN.md §4: ISO-8601 UTC), from a row's Date or text; null stays null. */
export const iso = (d: Date | string | null | undefined): string | null => (d == null ? null : new Date(d).toISOString());
