import type { ColumnType } from 'kysely';

// The column shapes every module's *.tables.ts uses: selected as, inserted as, updated as.

/** timestamptz: read as a Date; written as a Date or ISO text; defaulted on insert where the schema says so. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
/** jsonb: written as JSON text, read back parsed by both drivers. */
export type Json<T> = ColumnType<T, string, string>;
export type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;
