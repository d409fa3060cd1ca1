import { openDatabase } from '../../src/platform/db/database.js';
import { holderApp } from './idempotency-holder.js';

// The process that claims an Idempotency-Key and dies holding it (test/e2e/idempotency-crash.test.ts).
const handle = await openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { dataDir: process.env.DATA_DIR! });
const app = await holderApp(handle, { hang: true, leaseMs: Number(process.env.LEASE_MS), onClaimed: () => process.stdout.write('claimed\n') });
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${(app.server.address() as { port: number }).port}\n`);
