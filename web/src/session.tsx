import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, call, scope, sessionEnded, type Account, type Environment } from './api/client';

export interface Me {
  account: Account;
  workspaces: { id: string; name: string; plan: string; role: string }[];
}

export type WorkspaceRole = 'viewer' | 'operator' | 'admin' | 'owner';
const RANK: Record<WorkspaceRole, number> = { viewer: 0, operator: 1, admin: 2, owner: 3 };

interface SessionState {
  status: 'loading' | 'signed_out' | 'signed_in';
  /** The signed-in member's role in the current workspace (a super-admin outside it acts as owner). */
  role: WorkspaceRole;
  /** Whether that role reaches `required` (the API's role table: src/route-roles.ts). */
  can(required: WorkspaceRole): boolean;
  me?: Me;
  workspaceId: string | null;
  environment: Environment;
  signIn(email: string, password: string): Promise<void>;
  /** Reads who is signed in again (a workspace joined), then acts on `workspaceId` if given. */
  refresh(workspaceId?: string): Promise<void>;
  signOut(): Promise<void>;
  setWorkspace(id: string): void;
  setEnvironment(env: Environment): void;
}

const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

/**
 * Who is signed in. The session is the httpOnly cookie set by POST /api/auth/session: this code
 * never sees a token, it only asks /api/auth/me who the cookie belongs to.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<SessionState['status']>('loading');
  const [me, setMe] = useState<Me | undefined>();
  const [workspaceId, setWorkspaceId] = useState<string | null>(null);
  // Always opens in test: live data is one deliberate switch away.
  const [environment, setEnv] = useState<Environment>('test');

  const adopt = useCallback((next: Me | undefined) => {
    setMe(next);
    const first = next?.workspaces[0]?.id ?? null;
    scope.workspaceId = first;
    scope.environment = 'test';
    setWorkspaceId(first);
    setEnv('test');
    setStatus(next ? 'signed_in' : 'signed_out');
  }, []);

  useEffect(() => {
    call(api.GET('/api/auth/session')).then(
      (s) => adopt(s.account ? (s as Me) : undefined),
      () => adopt(undefined),
    );
    const ended = () => {
      setMe(undefined);
      setStatus('signed_out');
    };
    sessionEnded.addEventListener('ended', ended);
    return () => sessionEnded.removeEventListener('ended', ended);
  }, [adopt]);

  const member = me?.workspaces.find((w) => w.id === workspaceId)?.role as WorkspaceRole | undefined;
  const role: WorkspaceRole = member ?? (me?.account.role === 'super_admin' ? 'owner' : 'viewer');
  const value: SessionState = {
    status,
    role,
    can: (required) => RANK[role] >= RANK[required],
    me,
    workspaceId,
    environment,
    async signIn(email, password) {
      await call(api.POST('/api/auth/session', { body: { email, password } }));
      adopt((await call(api.GET('/api/auth/me'))) as Me);
    },
    async refresh(workspaceId) {
      adopt((await call(api.GET('/api/auth/me'))) as Me);
      if (workspaceId) {
        scope.workspaceId = workspaceId;
        setWorkspaceId(workspaceId);
      }
    },
    async signOut() {
      await call(api.DELETE('/api/auth/session')).catch(() => undefined);
      adopt(undefined);
    },
    setWorkspace(id) {
      scope.workspaceId = id;
      setWorkspaceId(id);
    },
    setEnvironment(env) {
      scope.environment = env;
      setEnv(env);
    },
  };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/**
 * What only `role` and above may do (the API's role table, src/route-roles.ts): shown to them,
 * and to anyone else a one-line note instead of a form that would answer 403.
 */
export function RoleGate({ role, what, children }: { role: WorkspaceRole; what: string; children: ReactNode }) {
  const session = useSession();
  if (session.can(role)) return <>{children}</>;
  return (
    <p className="muted small" data-testid="role-note">
      Your role ({session.role}) cannot {what}: ask an {role === 'operator' ? 'operator' : role} of this workspace.
    </p>
  );
}
