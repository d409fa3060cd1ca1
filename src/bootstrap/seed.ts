import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

export interface DemoSeed {
  email: string;
  password: string;
  workspaceId: string;
  apiKey: string;
}

/**
 * First start on an empty database (non-production): a demo account and workspace with a test
 * API key, so a new user can try the API at once. Returns undefined when anything exists.
 */
export async function seedDemoIfEmpty(app: FastifyInstance): Promise<DemoSeed | undefined> {
  const { db } = app.deps;
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from accounts where role = 'user'`.execute(db);
  if (rows[0].n > 0) return undefined;
  const { accounts, workspaces } = app.identity;
  const email = 'demo@example.com';
  const password = `demo-${crypto.randomUUID().slice(0, 12)}`;
  const meta = { requestId: 'seed' };
  const registered = await accounts.register({ email, password, name: 'Demo User', workspace_name: 'Demo Store' }, meta);
  const system = { type: 'system' as const, id: null };
  if (registered.account.status === 'pending') await accounts.transition(registered.account.id, 'approve', system, meta);
  await workspaces.updateWorkspace(
    registered.workspace.id,
    { origin_address: { name: 'Demo Store', street1: '1 Market St', city: 'San Francisco', state: 'CA', postal_code: '94105', country: 'US' } },
    system,
    meta,
  );
  const key = await workspaces.createApiKey(registered.workspace.id, { name: 'Demo test key', environment: 'test' }, system, meta);
  return { email, password, workspaceId: registered.workspace.id, apiKey: key.secret };
}
