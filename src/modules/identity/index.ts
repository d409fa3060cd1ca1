import type { Deps } from '../../platform/deps.js';
import { AccountsService } from './accounts.service.js';
import { AuthCache } from './auth-cache.js';
import { createGuards, type Guards } from './guards.js';
import { WorkspacesService } from './workspaces.service.js';
import { MembersService } from './members.service.js';
import { PasswordResetsService } from './password-resets.service.js';
import { createMailer, type Mailer } from '../../platform/mail/mailer.js';
import type { SettingsService } from '../settings/index.js';

/** The identity module's import surface: accounts, sessions, workspaces, API keys and the guards. */
export { sessionToken, type Guards } from './guards.js';
export { AccountSchema, ApiKeySchema, WorkspaceSchema } from './workspaces.schemas.js';
export { MemberSchema } from './members.schemas.js';
export { authRoutes } from './auth.routes.js';
export { apiKeysRoutes } from './api-keys.routes.js';
export { adminWorkspaceRoutes } from './admin-workspace.routes.js';
export { superAdminIdentityRoutes } from './super-admin.routes.js';
export { membersRoutes } from './members.routes.js';
export { roleAtLeast, roleForbidden, WORKSPACE_ROLES, type WorkspaceRole } from './roles.js';
export { MembersService } from './members.service.js';
export { AccountsService } from './accounts.service.js';
export { WorkspacesService, ENTERPRISE_DEFAULT_BURST, findWorkspaceOrigin } from './workspaces.service.js';

export interface Identity {
  accounts: AccountsService;
  workspaces: WorkspacesService;
  guards: Guards;
  cache: AuthCache;
  members: MembersService;
  passwordResets: PasswordResetsService;
  mailer: Mailer;
}

declare module 'fastify' {
  interface FastifyInstance {
    identity: Identity;
  }
}

/** Accounts, workspaces and the guards over one auth cache; settings give the registration and burst defaults. */
export function createIdentity(deps: Deps, settings: SettingsService): Identity {
  const cache = new AuthCache(deps.bus);
  const accounts = new AccountsService(deps, cache, settings);
  const workspaces = new WorkspacesService(deps, cache, settings);
  const mailer = createMailer(deps.config);
  const members = new MembersService(deps, settings, accounts, mailer);
  const passwordResets = new PasswordResetsService(deps, mailer);
  return {
    accounts,
    workspaces,
    cache,
    members,
    passwordResets,
    mailer,
    guards: createGuards({ accounts, workspaces, counters: deps.counters, db: deps.db, publicBaseUrl: deps.config.publicBaseUrl }),
  };
}
