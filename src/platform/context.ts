/** Who is acting and on what data: passed from routes into services (no Fastify types). */
export type Environment = 'test' | 'live';

export interface Scope {
  workspaceId: string;
  environment: Environment;
}

export interface Actor {
  type: 'account' | 'api_key' | 'integration' | 'system';
  id: string | null;
  email?: string | null;
}

export interface RequestMeta {
  requestId?: string;
  ip?: string;
}

export interface ServiceContext extends Scope, RequestMeta {
  actor: Actor;
}
