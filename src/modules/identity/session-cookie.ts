import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors.js';

/**
 * The dashboard's session cookie. The browser never sees the token: it is httpOnly (no script
 * can read it, so an XSS cannot carry it away), SameSite=Strict (another site's page cannot
 * make the browser send it) and scoped to /api, the only place that reads it. A state-changing
 * request that authenticates with it must also carry an Origin of this service (see
 * checkSameOrigin), which covers browsers or proxies that do not honour SameSite.
 */
export const SESSION_COOKIE = 'service_session';
const COOKIE_PATH = '/api';

import type {} from '@fastify/cookie';

/** The session token of the cookie, or null. */
export function sessionCookieToken(request: FastifyRequest): string | null {
  const value = request.cookies?.[SESSION_COOKIE];
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * Secure when the request came over HTTPS (directly, or through a trusted proxy that said so),
 * or when production is served from an https PUBLIC_BASE_URL behind a proxy that does not.
 */
function secure(request: FastifyRequest, publicBaseUrl: string, isProduction: boolean): boolean {
  return request.protocol === 'https' || (isProduction && publicBaseUrl.startsWith('https:'));
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  expiresAt: Date,
  opts: { publicBaseUrl: string; isProduction: boolean },
): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: secure(request, opts.publicBaseUrl, opts.isProduction),
    path: COOKIE_PATH,
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: COOKIE_PATH, httpOnly: true, sameSite: 'strict' });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isStateChanging(request: FastifyRequest): boolean {
  return !SAFE_METHODS.has(request.method);
}

/**
 * CSRF check for cookie-authenticated writes: the Origin header must name this service, either
 * the host the request was addressed to or PUBLIC_BASE_URL. Browsers send Origin on every
 * cross-origin request and on same-origin POST/PUT/PATCH/DELETE, so a missing Origin is refused
 * as well (only non-browser clients omit it, and those use the Bearer token).
 */
export function checkSameOrigin(request: FastifyRequest, publicBaseUrl: string, opts: { requirePresent: boolean }): void {
  const origin = request.headers.origin;
  if (origin === undefined || origin === '') {
    if (opts.requirePresent) throw new AppError('forbidden', 'A cookie-authenticated change must carry the Origin header of this service.');
    return;
  }
  const allowed = new Set([safeOrigin(publicBaseUrl), `${request.protocol}://${request.host}`]);
  if (!allowed.has(origin)) throw new AppError('forbidden', 'Cross-site request refused: the Origin does not match this service.');
}

function safeOrigin(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '';
  }
}
