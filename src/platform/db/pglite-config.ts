/**
 * PostgreSQL settings of every embedded instance. Shared buffers live in the WASM heap for the
 * life of the process, resident once filled (a batch fills them): PostgreSQL's default 128 MB
 * kept the footprint ~100 MB larger, and 16 MB holds the service ~17 MiB below 32 MB under the
 * load rows (docs/architecture.md, "Memory"). A page beyond them is one read from the
 * operating system's page cache away.
 */
export const PGLITE_CONF = ['shared_buffers = 16MB'];
