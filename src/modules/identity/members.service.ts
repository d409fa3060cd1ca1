import { sql } from 'kysely';
import { AppError, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { hashPassword, randomBase62, sha256Hex } from '../../platform/crypto.js';
import type { Deps } from '../../platform/deps.js';
import type { Executor } from '../../platform/db/types.js';
import type { Actor, RequestMeta, ServiceContext } from '../../platform/context.js';
import { paginate } from '../../platform/http/pagination.js';
import { mapDbError } from '../../platform/db/pg-errors.js';
import { writeAudit } from '../audit/index.js';
import { recordEvent } from '../events/index.js';
import type { SettingsService } from '../settings/index.js';
import * as repo from './workspaces.repo.js';
import { roleForbidden, type WorkspaceRole } from './roles.js';
import { toAccount, toWorkspace } from './workspaces.wire.js';
import type { AccountsService } from './accounts.service.js';
import type { InvitationRow } from './workspaces.tables.js';
import type { Mailer } from '../../platform/mail/mailer.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The acting member: the service context plus the role the guard read for it. */
export type MemberContext = ServiceContext & { role?: WorkspaceRole };

export function toInvitation(row: InvitationRow, now: Date) {
  const expired = row.status === 'pending' && new Date(row.expires_at).getTime() <= now.getTime();
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: expired ? ('expired' as const) : row.status,
    created_at: new Date(row.created_at).toISOString(),
    expires_at: new Date(row.expires_at).toISOString(),
  };
}

/**
 * The team of a workspace (docs/architecture.md, "Roles"): its members and their roles, and
 * invitations. Ownership (making, unmaking or removing an owner) is the owner's alone, and a
 * workspace always keeps one owner. Every change is audit-logged.
 */
export class MembersService {
  constructor(
    private readonly deps: Deps,
    private readonly settings: SettingsService,
    private readonly accounts: AccountsService,
    private readonly mailer: Mailer,
  ) {}

  async listMembers(workspaceId: string, page: { limit?: number; cursor?: string }) {
    // A member's id is its account's; the subquery gives the keyset its (created_at, id).
    const members = this.deps.db
      .selectFrom('workspace_members as m')
      .innerJoin('accounts as a', 'a.id', 'm.account_id')
      .select(['a.id as id', 'a.email', 'a.name', 'm.role', 'm.created_at'])
      .where('m.workspace_id', '=', workspaceId)
      .as('members');
    const result = await paginate(this.deps.db.selectFrom(members).selectAll(), { ...page, table: 'members' });
    return { ...result, data: result.data.map((m) => toMember(m)) };
  }

  async getMember(workspaceId: string, accountId: string) {
    const row = await this.findMember(this.deps.db, workspaceId, accountId);
    if (!row) throw new AppError('not_found', 'No such member.');
    return toMember(row);
  }

  /**
   * Invite someone by email with a role: an `inv_` invitation whose token (and link) this
   * answer shows once; only its SHA-256 is kept. Inviting an owner is the owner's call.
   */
  async invite(ctx: MemberContext, input: { email: string; role: WorkspaceRole }) {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email)) throw validationError([{ field: 'email', message: 'must be an email address' }]);
    if (input.role === 'owner' && ctx.role !== undefined && ctx.role !== 'owner') throw roleForbidden('owner', ctx.role, 'Inviting an owner');
    const ttlHours = await this.settings.get('members.invitation_ttl_hours');
    const token = `invtok_${randomBase62(43)}`;
    const now = this.deps.now();
    const created = await this.deps.db.transaction().execute(async (trx) => {
      const already = await trx
        .selectFrom('workspace_members as m')
        .innerJoin('accounts as a', 'a.id', 'm.account_id')
        .select('a.id')
        .where('m.workspace_id', '=', ctx.workspaceId)
        .where(sql<boolean>`lower(a.email) = ${email}`)
        .executeTakeFirst();
      if (already)
        throw new AppError('conflict', 'This person is already a member of the workspace.', { details: [{ field: 'email', message: 'is already a member' }] });
      const row = await trx
        .insertInto('invitations')
        .values({
          id: newId('invitation'),
          workspace_id: ctx.workspaceId,
          email,
          role: input.role,
          token_hash: sha256Hex(token),
          invited_by: ctx.actor.id,
          created_at: now,
          expires_at: new Date(now.getTime() + ttlHours * 3600_000),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const invitation = toInvitation(row, now);
      // The event carries no token: events are kept and delivered, the link is shown once.
      await recordEvent(trx, ctx, 'member.invited', { ...invitation, workspace_id: ctx.workspaceId, invited_by: ctx.actor.id });
      await writeAudit(trx, ctx.actor, ctx, {
        action: 'member.invited',
        targetType: 'invitation',
        targetId: row.id,
        workspaceId: ctx.workspaceId,
        changes: { email, role: input.role, expires_at: invitation.expires_at },
      });
      return { ...invitation, status: 'pending' as const, token, url: this.invitationUrl(token) };
    });
    if (this.mailer.enabled) {
      // Mailed after the answer; a failure goes to the log (the inviter also has the link).
      const workspace = await repo.findWorkspace(this.deps.db, ctx.workspaceId);
      void this.mailer
        .send({
          to: email,
          subject: `You are invited to ${workspace?.name ?? 'a workspace'}`,
          text: `You are invited to join ${workspace?.name ?? 'a workspace'} as ${input.role}. Open this link to accept (it works once, until ${created.expires_at}):\n\n${created.url}\n`,
        })
        .catch((err: unknown) => this.deps.log.error({ err }, 'invitation mail not sent'));
    }
    return created;
  }

  /** Where the invited person goes: the dashboard's accept page, with the token. */
  invitationUrl(token: string): string {
    return `${this.deps.config.publicBaseUrl.replace(/\/$/, '')}/dashboard/invitations/${encodeURIComponent(token)}`;
  }

  async listInvitations(workspaceId: string, page: { limit?: number; cursor?: string }) {
    const query = this.deps.db.selectFrom('invitations').selectAll().where('workspace_id', '=', workspaceId).where('status', '=', 'pending');
    const result = await paginate(query, page);
    const now = this.deps.now();
    return { ...result, data: result.data.map((r) => toInvitation(r, now)) };
  }

  /** Withdraw a pending invitation: its link stops working at once. */
  async revokeInvitation(ctx: MemberContext, id: string) {
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('invitations')
        .set({ status: 'revoked' })
        .where('workspace_id', '=', ctx.workspaceId)
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .returningAll()
        .executeTakeFirst();
      if (!row) throw new AppError('not_found', 'No such pending invitation.');
      if (row.role === 'owner' && ctx.role !== undefined && ctx.role !== 'owner') throw roleForbidden('owner', ctx.role, "Withdrawing an owner's invitation");
      await writeAudit(trx, ctx.actor, ctx, { action: 'invitation.revoked', targetType: 'invitation', targetId: id, workspaceId: ctx.workspaceId });
    });
  }

  /**
   * Accept an invitation: with a session (`accountId`), that account joins; without one, a new
   * account is made from the invitation's email and `{name, password}` (active at once: the
   * link proves the address) and signed in. Single-use: a used, withdrawn or expired link is
   * 410 gone, an unknown one 404.
   */
  async accept(token: string, input: { accountId?: string; name?: string; password?: string }, meta: RequestMeta & { userAgent?: string }) {
    const now = this.deps.now();
    const hash = sha256Hex(token);
    if (input.accountId === undefined) {
      const details = [];
      if (!input.name?.trim()) details.push({ field: 'name', message: 'is required to create an account (or send {} with a session)' });
      if ((input.password ?? '').length < 10) details.push({ field: 'password', message: 'must be at least 10 characters' });
      if (details.length) throw validationError(details);
    }
    const passwordHash = input.accountId === undefined ? await hashPassword(input.password!, this.deps.config.passwordHashCost) : null;
    let joined: { accountId: string; email: string; workspaceId: string; role: WorkspaceRole };
    try {
      joined = await this.deps.db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('invitations').selectAll().where('token_hash', '=', hash).forUpdate().executeTakeFirst();
        if (!row) throw new AppError('not_found', 'No such invitation.');
        if (row.status !== 'pending' || new Date(row.expires_at).getTime() <= now.getTime()) {
          throw new AppError('gone', `This invitation is ${row.status === 'pending' ? 'expired' : row.status === 'accepted' ? 'already used' : 'withdrawn'}.`);
        }
        let accountId = input.accountId;
        let email = row.email;
        if (accountId === undefined) {
          const account = await repo.insertAccount(trx, {
            id: newId('account'),
            email: row.email,
            name: input.name!.trim(),
            password_hash: passwordHash!,
            role: 'user',
            status: 'active',
          });
          accountId = account.id;
          await writeAudit(trx, { type: 'account', id: account.id, email: account.email }, meta, {
            action: 'account.registered',
            targetType: 'account',
            targetId: account.id,
            workspaceId: row.workspace_id,
          });
        } else {
          const account = await repo.findAccountById(trx, accountId);
          email = account!.email;
          if (await this.findMember(trx, row.workspace_id, accountId)) {
            throw new AppError('conflict', 'This account is already a member of the workspace.', {
              details: [{ field: 'token', message: 'the signed-in account is already a member' }],
            });
          }
        }
        await repo.addMember(trx, row.workspace_id, accountId, row.role);
        await trx.updateTable('invitations').set({ status: 'accepted', accepted_by: accountId, accepted_at: now }).where('id', '=', row.id).execute();
        const actor: Actor = { type: 'account', id: accountId, email };
        await writeAudit(trx, actor, meta, {
          action: 'invitation.accepted',
          targetType: 'invitation',
          targetId: row.id,
          workspaceId: row.workspace_id,
          changes: { account_id: accountId, role: row.role },
        });
        return { accountId, email, workspaceId: row.workspace_id, role: row.role };
      });
    } catch (err) {
      throw mapDbError(err, { unique: { field: 'email', message: 'An account with this email already exists: sign in and accept with its session.' } });
    }
    const workspace = toWorkspace((await repo.findWorkspace(this.deps.db, joined.workspaceId))!);
    const account = toAccount((await repo.findAccountById(this.deps.db, joined.accountId))!);
    const answer = { account, workspace: { id: workspace.id, name: workspace.name, plan: workspace.plan, role: joined.role } };
    if (input.accountId !== undefined) return { ...answer, session: null };
    const session = await this.accounts.login({ email: joined.email, password: input.password! }, meta);
    return { ...answer, session: { token: session.token, token_type: session.token_type, expires_at: session.expires_at } };
  }

  /** Change a member's role. Making or unmaking an owner is the owner's call; one owner stays. */
  async changeRole(ctx: MemberContext, accountId: string, role: WorkspaceRole) {
    return this.deps.db.transaction().execute(async (trx) => {
      const member = await this.lockedMember(trx, ctx.workspaceId, accountId);
      if ((member.role === 'owner' || role === 'owner') && ctx.role !== undefined && ctx.role !== 'owner') {
        throw roleForbidden('owner', ctx.role, role === 'owner' ? 'Making an owner' : "Changing an owner's role");
      }
      if (member.role === role) return toMember(member);
      if (member.role === 'owner') await this.keepAnOwner(trx, ctx.workspaceId, accountId);
      await trx.updateTable('workspace_members').set({ role }).where('workspace_id', '=', ctx.workspaceId).where('account_id', '=', accountId).execute();
      await writeAudit(trx, ctx.actor, ctx, {
        action: 'member.role_changed',
        targetType: 'member',
        targetId: accountId,
        workspaceId: ctx.workspaceId,
        changes: { role: { from: member.role, to: role } },
      });
      return toMember({ ...member, role });
    });
  }

  /** Remove a member: their sessions end at once (as a suspension's do). One owner stays. */
  async remove(ctx: MemberContext, accountId: string) {
    await this.deps.db.transaction().execute(async (trx) => {
      const member = await this.lockedMember(trx, ctx.workspaceId, accountId);
      if (member.role === 'owner' && ctx.role !== undefined && ctx.role !== 'owner') throw roleForbidden('owner', ctx.role, 'Removing an owner');
      if (member.role === 'owner') await this.keepAnOwner(trx, ctx.workspaceId, accountId);
      await trx.deleteFrom('workspace_members').where('workspace_id', '=', ctx.workspaceId).where('account_id', '=', accountId).execute();
      await repo.revokeAccountSessions(trx, accountId);
      await this.deps.bus.publish(`account:${accountId}`, trx);
      await writeAudit(trx, ctx.actor, ctx, {
        action: 'member.removed',
        targetType: 'member',
        targetId: accountId,
        workspaceId: ctx.workspaceId,
        changes: { email: member.email, role: member.role },
      });
    });
  }

  private findMember(executor: Executor, workspaceId: string, accountId: string) {
    return executor
      .selectFrom('workspace_members as m')
      .innerJoin('accounts as a', 'a.id', 'm.account_id')
      .select(['a.id as id', 'a.email', 'a.name', 'm.role', 'm.created_at'])
      .where('m.workspace_id', '=', workspaceId)
      .where('m.account_id', '=', accountId)
      .executeTakeFirst();
  }

  /** The member, with the workspace row locked: two changes to its owners run one after the other. */
  private async lockedMember(trx: Executor, workspaceId: string, accountId: string) {
    await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
    const member = await this.findMember(trx, workspaceId, accountId);
    if (!member) throw new AppError('not_found', 'No such member.');
    return member;
  }

  /** 409 conflict when `accountId` is the workspace's last owner. */
  private async keepAnOwner(trx: Executor, workspaceId: string, accountId: string) {
    const others = await trx
      .selectFrom('workspace_members')
      .select('account_id')
      .where('workspace_id', '=', workspaceId)
      .where('role', '=', 'owner')
      .where('account_id', '!=', accountId)
      .limit(1)
      .execute();
    if (others.length === 0) {
      throw new AppError('conflict', 'A workspace keeps at least one owner: make another member owner first.', {
        details: [{ field: 'role', message: 'the last owner of the workspace cannot be removed or demoted' }],
      });
    }
  }
}

function toMember(row: { id: string; email: string; name: string; role: WorkspaceRole; created_at: Date | string }) {
  return { id: row.id, email: row.email, name: row.name, role: row.role, created_at: new Date(row.created_at).toISOString() };
}
