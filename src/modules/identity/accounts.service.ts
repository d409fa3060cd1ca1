import { AppError, invalidState, rateLimited, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { dummyPasswordHash, hashPassword, randomBase62, sha256Hex, verifyPassword } from '../../platform/crypto.js';
import type { Deps } from '../../platform/deps.js';
import type { Actor, RequestMeta } from '../../platform/context.js';
import { paginate } from '../../platform/http/pagination.js';
import { mapDbError } from '../../platform/db/pg-errors.js';
import { writeAudit } from '../audit/index.js';
import type { SettingsService } from '../settings/index.js';
import * as repo from './workspaces.repo.js';
import type { AuthCache, VerifiedSession } from './auth-cache.js';
import { toAccount, toWorkspace } from './workspaces.wire.js';
import type { AccountRow } from './workspaces.tables.js';

export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
const LOGIN_WINDOW_MS = 15 * 60 * 1000;
const MAX_FAILURES_PER_ACCOUNT = 10;
const MAX_FAILURES_PER_IP = 50;

export interface RegisterInput {
  email: string;
  password: string;
  name: string;
  workspace_name: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export class AccountsService {
  constructor(
    private readonly deps: Deps,
    private readonly cache: AuthCache,
    private readonly settings: SettingsService,
  ) {}

  /** Create a pending account with its own workspace (the second step of a client's first minutes). */
  async register(input: RegisterInput, meta: RequestMeta) {
    const details = [];
    const email = input.email.trim();
    if (!EMAIL.test(email)) details.push({ field: 'email', message: 'must be an email address' });
    if (input.password.length < 10) details.push({ field: 'password', message: 'must be at least 10 characters' });
    if (!input.name.trim()) details.push({ field: 'name', message: 'must not be empty' });
    if (!input.workspace_name.trim()) details.push({ field: 'workspace_name', message: 'must not be empty' });
    if (details.length) throw validationError(details);

    const passwordHash = await hashPassword(input.password, this.deps.config.passwordHashCost);
    const autoApprove = await this.autoApprove();
    try {
      return await this.deps.db.transaction().execute(async (trx) => {
        const account = await repo.insertAccount(trx, {
          id: newId('account'),
          email: email.toLowerCase(),
          name: input.name.trim(),
          password_hash: passwordHash,
          role: 'user',
          status: autoApprove ? 'active' : 'pending',
        });
        const workspace = await repo.insertWorkspace(trx, { id: newId('workspace'), name: input.workspace_name.trim() });
        await repo.addMember(trx, workspace.id, account.id, 'owner');
        const actor: Actor = { type: 'account', id: account.id, email: account.email };
        await writeAudit(trx, actor, meta, { action: 'account.registered', targetType: 'account', targetId: account.id, workspaceId: workspace.id });
        const ws = toWorkspace(workspace);
        return { account: toAccount(account), workspace: { id: ws.id, name: ws.name, plan: ws.plan } };
      });
    } catch (err) {
      throw mapDbError(err, { unique: { field: 'email', message: 'An account with this email already exists.' } });
    }
  }

  private async autoApprove(): Promise<boolean> {
    return this.settings.get('registration.auto_approve');
  }

  /** Exchange email + password for an opaque session token (stored hashed). */
  async login(input: { email: string; password: string }, meta: RequestMeta & { userAgent?: string }) {
    const email = input.email.trim().toLowerCase();
    const accountKey = `login:acct:${sha256Hex(email)}`;
    const ipKey = `login:ip:${meta.ip ?? 'unknown'}`;
    const [byAccount, byIp] = await Promise.all([this.deps.counters.count(accountKey), this.deps.counters.count(ipKey)]);
    if (byAccount >= MAX_FAILURES_PER_ACCOUNT || byIp >= MAX_FAILURES_PER_IP) {
      throw rateLimited('Too many failed logins. Try again later.', LOGIN_WINDOW_MS / 1000);
    }

    const account = await repo.findAccountByEmail(this.deps.db, email);
    // Same work and the same answer whether the email is unknown or the password wrong.
    const ok = await verifyPassword(input.password, account?.password_hash ?? (await dummyPasswordHash(this.deps.config.passwordHashCost)));
    if (!account || !ok) {
      await Promise.all([this.deps.counters.hit(accountKey, LOGIN_WINDOW_MS), this.deps.counters.hit(ipKey, LOGIN_WINDOW_MS)]);
      throw new AppError('invalid_credentials');
    }
    await this.deps.counters.reset(accountKey);
    if (account.status === 'pending') throw new AppError('account_pending');
    if (account.status === 'suspended') throw new AppError('account_suspended');

    const token = `sst_${randomBase62(43)}`;
    const expiresAt = new Date(this.deps.now().getTime() + SESSION_TTL_MS);
    await repo.insertSession(this.deps.db, {
      id: newId('session'),
      account_id: account.id,
      token_hash: sha256Hex(token),
      expires_at: expiresAt,
      ip: meta.ip ?? null,
      user_agent: meta.userAgent?.slice(0, 500) ?? null,
    });
    return { token, token_type: 'Bearer' as const, expires_at: expiresAt.toISOString(), account: toAccount(account) };
  }

  async logout(token: string): Promise<void> {
    const hash = sha256Hex(token);
    await repo.revokeSession(this.deps.db, hash);
    await this.deps.bus.publish(`session:${hash}`);
  }

  /** Resolve a session token; cached, so the hot path does not query per request. */
  async verifySession(token: string): Promise<VerifiedSession | null> {
    const hash = sha256Hex(token);
    let session = this.cache.sessions.get(hash);
    if (session === undefined) {
      const ticket = this.cache.sessions.loading();
      const row = await repo.findLiveSession(this.deps.db, hash);
      session = row
        ? {
            sessionId: row.session_id,
            accountId: row.account_id,
            email: row.email,
            name: row.name,
            role: row.role,
            status: row.status,
            expiresAt: new Date(row.expires_at).getTime(),
          }
        : null;
      this.cache.sessions.fill(hash, session, ticket);
    }
    if (!session || session.expiresAt <= this.deps.now().getTime() || session.status !== 'active') return null;
    return session;
  }

  async me(accountId: string) {
    const account = await repo.findAccountById(this.deps.db, accountId);
    if (!account) throw new AppError('unauthorized');
    const workspaces = await repo.listMemberships(this.deps.db, accountId);
    return {
      account: toAccount(account),
      workspaces: workspaces.map((w) => ({ id: w.id, name: w.name, plan: w.plan, role: w.role })),
    };
  }

  async listAccounts(filter: { status?: string; q?: string; limit?: number; cursor?: string }) {
    const page = await paginate(repo.accountsQuery(this.deps.db, filter), filter);
    return { ...page, data: page.data.map(toAccount) };
  }

  async getAccount(id: string) {
    const row = await repo.findAccountById(this.deps.db, id);
    if (!row) throw new AppError('not_found', 'No such account.');
    return toAccount(row);
  }

  /**
   * approve: pending → active; suspend: pending/active → suspended; reactivate: suspended →
   * active. Suspension ends the account's sessions and stops the API keys of the workspaces it
   * owns, in every process at once (invalidation bus); reactivation restores the keys. A
   * super-admin cannot suspend themself (409 invalid_state). `reason` is kept in the audit log.
   */
  async transition(accountId: string, move: 'approve' | 'suspend' | 'reactivate', actor: Actor, meta: RequestMeta, opts: { reason?: string } = {}) {
    const allowed: Record<typeof move, { from: AccountRow['status'][]; to: AccountRow['status']; action: string }> = {
      approve: { from: ['pending'], to: 'active', action: 'account.approved' },
      suspend: { from: ['pending', 'active'], to: 'suspended', action: 'account.suspended' },
      reactivate: { from: ['suspended'], to: 'active', action: 'account.reactivated' },
    };
    const rule = allowed[move];
    const movesFrom = (status: AccountRow['status']) => (Object.keys(allowed) as (typeof move)[]).filter((m) => allowed[m].from.includes(status));
    const result = await this.deps.db.transaction().execute(async (trx) => {
      const account = await trx.selectFrom('accounts').selectAll().where('id', '=', accountId).forUpdate().executeTakeFirst();
      if (!account) throw new AppError('not_found', 'No such account.');
      if (actor.id === account.id && move === 'suspend') {
        throw invalidState('You cannot suspend your own account.', {
          current: account.status,
          allowedMoves: movesFrom(account.status),
          detail: 'cannot suspend your own account',
        });
      }
      if (!rule.from.includes(account.status)) {
        throw invalidState(`Cannot ${move} an account that is ${account.status}.`, { current: account.status, allowedMoves: movesFrom(account.status) });
      }
      const updated = (await repo.updateAccount(trx, account.id, { status: rule.to }))!;
      let workspaceIds: string[] = [];
      if (rule.to === 'suspended') {
        await repo.revokeAccountSessions(trx, account.id);
        await this.deps.bus.publish(`account:${account.id}`, trx);
        workspaceIds = await repo.setOwnedWorkspacesSuspended(trx, account.id, this.deps.now());
      } else if (move === 'reactivate') {
        workspaceIds = await repo.setOwnedWorkspacesSuspended(trx, account.id, null);
      }
      for (const id of workspaceIds) await this.deps.bus.publish(`workspace:${id}`, trx);
      const reason = opts.reason?.trim();
      await writeAudit(trx, actor, meta, {
        action: rule.action,
        targetType: 'account',
        targetId: account.id,
        changes: {
          status: { from: account.status, to: rule.to },
          ...(reason ? { reason } : {}),
          ...(workspaceIds.length ? { workspaces: workspaceIds } : {}),
        },
      });
      return updated;
    });
    return toAccount(result);
  }

  /**
   * Create or reset the super-admin from SUPER_ADMIN_EMAIL / SUPER_ADMIN_PASSWORD. A changed
   * password ends the account's sessions (in every process at once): resetting it is how an
   * operator locks out whoever learned the old one. The same password, as on every plain
   * restart, keeps them.
   */
  async ensureSuperAdmin(email: string, password: string): Promise<AccountRow> {
    const existing = await repo.findAccountByEmail(this.deps.db, email);
    const unchanged = existing !== undefined && (await verifyPassword(password, existing.password_hash));
    const passwordHash = unchanged ? existing.password_hash : await hashPassword(password, this.deps.config.passwordHashCost);
    if (existing) {
      return this.deps.db.transaction().execute(async (trx) => {
        const updated = (await repo.updateAccount(trx, existing.id, { role: 'super_admin', status: 'active', password_hash: passwordHash }))!;
        if (!unchanged) {
          await repo.revokeAccountSessions(trx, existing.id);
          await writeAudit(
            trx,
            { type: 'system', id: null },
            {},
            {
              action: 'account.password_reset',
              targetType: 'account',
              targetId: existing.id,
              changes: { password: 'replaced', sessions_ended: true },
            },
          );
        }
        await this.deps.bus.publish(`account:${existing.id}`, trx);
        return updated;
      });
    }
    return this.deps.db.transaction().execute(async (trx) => {
      const account = await repo.insertAccount(trx, {
        id: newId('account'),
        email,
        name: 'Super Admin',
        password_hash: passwordHash,
        role: 'super_admin',
        status: 'active',
      });
      const workspace = await repo.insertWorkspace(trx, { id: newId('workspace'), name: 'Operations' });
      await repo.addMember(trx, workspace.id, account.id, 'owner');
      return account;
    });
  }
}
