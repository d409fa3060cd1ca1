import type { Kysely, Transaction } from 'kysely';

/**
 * The table map. Each module declares its own tables by augmenting this interface
 * (`declare module '…/platform/db/types.js' { interface Tables { orders: OrdersTable } }`),
 * so platform code stays free of domain words and each module owns its rows.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by module augmentation
export interface Tables {}

export type Db = Kysely<Tables>;
export type Trx = Transaction<Tables>;
/** Either the root handle or an open transaction: repos accept both. */
export type Executor = Kysely<Tables> | Transaction<Tables>;
