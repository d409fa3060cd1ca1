import { AppError, validationError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { hashPassword, randomBase62, sha256Hex } from '../../platform/crypto.js';
import type { Deps } from '../../platform/deps.js';
import type { Actor, RequestMeta } from '../../platform/context.js';
import type { Mailer } from '../../platform/mail/mailer.js';
import { writeAudit } from '../audit/index.js';
import * as repo from './workspaces.repo.js';

/** A reset link is valid this long, and works once. */
export const PASSWORD_RESET_TTL_MS = 3600_000;
/** Reset mails one address may be sent per hour (more asks are answered alike, and dropped). */
const RESETS_PER_ADDRESS_PER_HOUR = 3;

/**
 * Password reset (docs/architecture.md, "Accounts"): a single-use link valid one hour, only its
 * SHA-256 kept. Asking never says whether the address has an account. With SMTP the link is
 * mailed; without it, nobody but a super-admin issuing one for an account ever sees it (showing
 * it to an anonymous asker would hand them the account).
 */
export class PasswordResetsService {
  constructor(
    private readonly deps: Deps,
    private readonly mailer: Mailer,
  ) {}

  /** `POST /api/auth/password-reset`: the same answer whatever the email. */
  async request(email: string, meta: RequestMeta): Promise<void> {
    const address = email.trim().toLowerCase();
    const throttle = `pwreset:${sha256Hex(address)}`;
    if ((await this.deps.counters.count(throttle)) >= RESETS_PER_ADDRESS_PER_HOUR) return;
    await this.deps.counters.hit(throttle, 3600_000);
    const account = await repo.findAccountByEmail(this.deps.db, address);
    if (!account || account.status === 'suspended' || !this.mailer.enabled) return;
    // Issued and mailed after the answer: a known address must not answer slower than another.
    const actor: Actor = { type: 'account', id: account.id, email: account.email };
    void this.issue(account.id, actor, meta)
      .then(({ url }) => this.mail(account.email, url))
      .catch((err: unknown) => this.deps.log.error({ err }, 'password-reset link not issued'));
  }

  /** Super-admin: a reset link for an account, shown once to the asker (and mailed with SMTP). */
  async issueFor(accountId: string, actor: Actor, meta: RequestMeta) {
    const account = await repo.findAccountById(this.deps.db, accountId);
    if (!account) throw new AppError('not_found', 'No such account.');
    const issued = await this.issue(account.id, actor, meta);
    if (this.mailer.enabled) await this.mail(account.email, issued.url);
    return { ...issued, account_id: account.id, mailed: this.mailer.enabled };
  }

  /**
   * `POST /api/auth/password-reset/:token`: set the password; every session of the account ends
   * but the one making the request (if it is that account's), and its other links stop working.
   */
  async complete(token: string, password: string, meta: RequestMeta & { keepSessionHash?: string }): Promise<void> {
    if (password.length < 10) throw validationError([{ field: 'password', message: 'must be at least 10 characters' }]);
    const passwordHash = await hashPassword(password, this.deps.config.passwordHashCost);
    const now = this.deps.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const row = await trx.selectFrom('password_resets').selectAll().where('token_hash', '=', sha256Hex(token)).forUpdate().executeTakeFirst();
      if (!row) throw new AppError('not_found', 'No such password-reset link.');
      if (row.used_at !== null || new Date(row.expires_at).getTime() <= now.getTime()) {
        throw new AppError('gone', `This password-reset link is ${row.used_at !== null ? 'already used' : 'expired'}.`);
      }
      const account = await repo.updateAccount(trx, row.account_id, { password_hash: passwordHash });
      await trx.updateTable('password_resets').set({ used_at: now }).where('account_id', '=', row.account_id).where('used_at', 'is', null).execute();
      let sessions = trx.updateTable('sessions').set({ revoked_at: now }).where('account_id', '=', row.account_id).where('revoked_at', 'is', null);
      if (meta.keepSessionHash) sessions = sessions.where('token_hash', '!=', meta.keepSessionHash);
      await sessions.execute();
      await this.deps.bus.publish(`account:${row.account_id}`, trx);
      await writeAudit(trx, { type: 'account', id: row.account_id, email: account?.email ?? null }, meta, {
        action: 'account.password_reset',
        targetType: 'account',
        targetId: row.account_id,
      });
    });
  }

  private async issue(accountId: string, actor: Actor, meta: RequestMeta) {
    const token = `pwrtok_${randomBase62(43)}`;
    const now = this.deps.now();
    const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MS);
    const id = newId('passwordReset');
    await this.deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('password_resets')
        .values({ id, account_id: accountId, token_hash: sha256Hex(token), created_at: now, expires_at: expiresAt })
        .execute();
      await writeAudit(trx, actor, meta, { action: 'account.password_reset_issued', targetType: 'account', targetId: accountId });
    });
    return { id, token, url: `${this.deps.config.publicBaseUrl.replace(/\/$/, '')}/dashboard/reset-password/${token}`, expires_at: expiresAt.toISOString() };
  }

  private async mail(to: string, url: string): Promise<void> {
    try {
      await this.mailer.send({
        to,
        subject: 'Reset your password',
        text: `Someone asked to reset the password of your account. To choose a new one, open this link within an hour:\n\n${url}\n\nIf it was not you, ignore this mail: your password stays as it is.\n`,
      });
    } catch (err) {
      // The answer must not differ by whether a mail went out: the failure goes to the log.
      this.deps.log.error({ err }, 'password-reset mail not sent');
    }
  }
}
