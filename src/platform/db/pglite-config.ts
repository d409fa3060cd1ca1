import { types as pgliteTypes } from '@electric-sql/pglite';

/**
 * PostgreSQL settings of every embedded instance. Shared buffers live in the WASM heap for the
 * life of the process, resident once filled (a batch fills them): PostgreSQL's default 128 MB
 * kept the footprint ~100 MB larger, and 16 MB holds the service ~17 MiB below 32 MB under the
 * load rows (docs/architecture.md, "Memory"). A page beyond them is one read from the
 * operating system's page cache away.
 */
export const PGLITE_CONF = ['shared_buffers = 16MB'];

/** PostgreSQL's type id of bytea. */
const BYTEA = 17;

/**
 * How every embedded instance sends and reads bytea (labels, documents, merged files): as
 * node-postgres does on the other engine, hex through Buffer. PGlite's own turns each byte into
 * a two-character string of an array and back one `parseInt` at a time: storing a batch's 14 MB
 * merged label file took the process from ~360 to ~1,300 MiB for a few seconds
 * (docs/architecture.md, "Memory"). Text that is not hex (`bytea_output = escape`, never set
 * here) is left to PGlite's parser.
 */
export const PGLITE_TYPES = {
  serializers: {
    [BYTEA]: (value: unknown): string => {
      if (!(value instanceof Uint8Array)) throw new TypeError('Invalid input for bytea type');
      return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
    },
  },
  parsers: {
    [BYTEA]: (text: string): Uint8Array => (text.startsWith('\\x') ? Buffer.from(text.slice(2), 'hex') : pgliteTypes.parsers[BYTEA]!(text, BYTEA)),
  },
};
