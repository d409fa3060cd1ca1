/**
 * Integration health (docs/channels.md), as pure rules over the current state:
 *
 * - `token_expired`: the store token's `token_expires_at` has passed (periodic check). Only a
 *   token update (new `token_expires_at` or new credentials) leaves it; intake results do not,
 *   because the store connection stays broken whatever the intake does.
 * - `degraded`: DEGRADED_AFTER_FAILURES intake validation failures within HEALTH_WINDOW_MS.
 * - `down`: DOWN_AFTER_FAILURES failures within the window: the integration sends nothing usable.
 * - `healthy`: a successful intake after degraded/down, or a token update with a live token.
 *
 * Failures are counted since the later of (now − window) and the last success or token update,
 * so one failure right after a recovery does not degrade again.
 */
export const INTEGRATION_HEALTH = ['healthy', 'degraded', 'down', 'token_expired'] as const;
export type IntegrationHealth = (typeof INTEGRATION_HEALTH)[number];

export const HEALTH_WINDOW_MS = 10 * 60 * 1000;
export const DEGRADED_AFTER_FAILURES = 5;
export const DOWN_AFTER_FAILURES = 20;

export interface HealthChange {
  health: IntegrationHealth;
  reason: string;
}

const windowText = `${HEALTH_WINDOW_MS / 60_000} minutes`;

/** After an intake validation failure; `failures` counts it and the others in the window. */
export function healthAfterFailure(current: IntegrationHealth, failures: number): HealthChange | null {
  if (current === 'token_expired') return null;
  if (failures >= DOWN_AFTER_FAILURES && current !== 'down') {
    return { health: 'down', reason: `${failures} intake validation failures within ${windowText}` };
  }
  if (failures >= DEGRADED_AFTER_FAILURES && current === 'healthy') {
    return { health: 'degraded', reason: `${failures} intake validation failures within ${windowText}` };
  }
  return null;
}

/** After an accepted intake. */
export function healthAfterSuccess(current: IntegrationHealth): HealthChange | null {
  return current === 'degraded' || current === 'down' ? { health: 'healthy', reason: 'an intake succeeded' } : null;
}

/** After the token or credentials were updated. */
export function healthAfterTokenUpdate(current: IntegrationHealth, tokenExpiresAt: Date | null, now: Date): HealthChange | null {
  const expired = tokenExpiresAt !== null && tokenExpiresAt.getTime() <= now.getTime();
  const health: IntegrationHealth = expired ? 'token_expired' : 'healthy';
  if (health === current) return null;
  return { health, reason: expired ? `the token expired at ${tokenExpiresAt!.toISOString()}` : 'the token was updated' };
}

/** The periodic check. */
export function healthAtCheck(current: IntegrationHealth, tokenExpiresAt: Date | null, now: Date): HealthChange | null {
  if (current === 'token_expired' || tokenExpiresAt === null || tokenExpiresAt.getTime() > now.getTime()) return null;
  return { health: 'token_expired', reason: `the token expired at ${tokenExpiresAt.toISOString()}` };
}
