import { parse, protocol, type PGlite, type Results, type Transaction } from '@electric-sql/pglite';

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

const { serialize } = protocol;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

interface Prepared {
  /** The statement's RowDescription, put in front of each execution's messages for the row parser. */
  rowDescription: BackendMessage | undefined;
  paramTypes: number[];
}

/**
 * Named prepared statements on the embedded engine, for the SQL texts registered with
 * nameStatement. PGlite's query() makes six calls into the WASM engine (Parse,
 * Describe, Bind, Describe, Execute, Sync) and plans the statement every time; the planner's
 * relation-size lookups are lseek + fstat calls through the emulated file system. This
 * prepares each registered text once per instance and then sends Bind + Execute + Sync as one
 * call: 393 → 102 µs of CPU per point select, measured in-process.
 *
 * It keeps what query() guarantees: the same two locks (so it never runs inside another
 * caller's open transaction, and nothing interleaves with it), the same parameter serializers
 * (by the parameter types the statement was described with) and row parsers, and the same
 * sync to the file system after the statement. Inside a transaction (Kysely calls the
 * transaction's own query()) a registered text runs the same way under the query lock alone
 * (the transaction holds the other) and without the sync, as the transaction's query() does
 * (a label purchase's transaction is mostly registered texts: each was parsed and planned per
 * label before). Any call with options other than rowMode is left to query().
 */
export function useNamedStatements(pglite: PGlite, nameOf: (sqlText: string) => string | undefined): void {
  const prepared = new Map<string, Prepared>();
  const query = pglite.query.bind(pglite);

  async function prepare(name: string, text: string, inTransaction: boolean): Promise<Prepared> {
    const { messages } = await pglite.execProtocol(concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]), {
      syncToFs: !inTransaction,
    });
    const params = messages.find((m) => m.name === 'parameterDescription') as { dataTypeIDs?: number[] } | undefined;
    return { rowDescription: messages.find((m) => m.name === 'rowDescription'), paramTypes: params?.dataTypeIDs ?? [] };
  }

  async function run(
    name: string,
    text: string,
    params: unknown[],
    options: { rowMode?: 'object' | 'array' } | undefined,
    inTransaction = false,
  ): Promise<Results> {
    let statement = prepared.get(name);
    if (!statement) {
      statement = await prepare(name, text, inTransaction);
      prepared.set(name, statement);
    }
    const { paramTypes } = statement;
    const values = params.map((v, i) => (v == null ? null : (pglite.serializers[paramTypes[i]] ?? String)(v)));
    const { messages } = await pglite.execProtocol(concat([serialize.bind({ statement: name, values }), serialize.execute({}), serialize.sync()]), {
      syncToFs: !inTransaction,
    });
    const all = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
    return parse.parseResults(all, pglite.parsers, options)[0];
  }

  /** The registered text's name, when this call can take the named path. */
  const namedFor = (text: unknown, options: object | undefined) =>
    typeof text === 'string' && !(options && Object.keys(options).some((k) => k !== 'rowMode')) ? nameOf(text) : undefined;

  pglite.query = (async (text: string, params?: unknown[], options?: { rowMode?: 'object' | 'array' }) => {
    const name = namedFor(text, options);
    if (!name) return query(text, params, options);
    return pglite._runExclusiveTransaction(() => pglite.runExclusive(() => run(name, text, params ?? [], options)));
  }) as PGlite['query'];

  const transaction = pglite.transaction.bind(pglite);
  pglite.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      const txQuery = tx.query.bind(tx);
      tx.query = (async (text: string, params?: unknown[], options?: { rowMode?: 'object' | 'array' }) => {
        const name = namedFor(text, options);
        // A closed transaction's query() throws; so does this, through it.
        if (!name || tx.closed) return txQuery(text, params, options);
        return pglite.runExclusive(() => run(name, text, params ?? [], options, true));
      }) as Transaction['query'];
      return callback(tx);
    })) as PGlite['transaction'];
}
