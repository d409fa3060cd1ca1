import { TtlCache } from '../../platform/cache/ttl-cache.js';
import type { InvalidationBus } from '../../platform/cache/invalidation-bus.js';
import type { Environment } from '../../platform/context.js';
import type { WorkspaceRole } from './roles.js';

export interface VerifiedKey {
  id: string;
  workspaceId: string;
  environment: Environment;
  expiresAt: number | null;
  role: WorkspaceRole;
  /** The workspace's owner is suspended: the key is refused until reactivation. */
  suspended: boolean;
}

export interface VerifiedSession {
  sessionId: string;
  accountId: string;
  email: string;
  name: string;
  role: 'user' | 'super_admin';
  status: 'pending' | 'active' | 'suspended';
  expiresAt: number;
}

export interface WorkspaceLimits {
  plan: 'starter' | 'professional' | 'enterprise';
  burstPerMinute: number | null;
  /** /v1 only with a registered client certificate (mutual TLS). */
  mtlsRequired: boolean;
}

/**
 * Hot-path caches: a verified API key, session or workspace plan is read from the database
 * once a minute at most. Revoke, suspend and plan changes publish an invalidation topic that
 * every process applies at once.
 */
export class AuthCache {
  readonly keys = new TtlCache<VerifiedKey | null>(60_000, 50_000);
  readonly sessions = new TtlCache<VerifiedSession | null>(60_000, 50_000);
  readonly workspaces = new TtlCache<WorkspaceLimits>(60_000, 50_000);

  constructor(bus: InvalidationBus) {
    bus.subscribe((topic) => this.apply(topic));
  }

  apply(topic: string): void {
    const [kind, id] = [topic.slice(0, topic.indexOf(':')), topic.slice(topic.indexOf(':') + 1)];
    switch (kind) {
      case 'api_key':
        this.keys.delete(id);
        break;
      case 'session':
        this.sessions.delete(id);
        break;
      case 'account':
        this.sessions.deleteWhere((s) => s?.accountId === id);
        break;
      case 'workspace':
        this.workspaces.delete(id);
        // Suspension and reactivation change whether the workspace's keys work.
        this.keys.deleteWhere((k) => k?.workspaceId === id);
        break;
      default:
        this.keys.clear();
        this.sessions.clear();
        this.workspaces.clear();
    }
  }
}
