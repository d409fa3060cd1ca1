import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { AppError } from '../errors.js';
import type { App } from './schemas.js';

/**
 * Dashboard pages: scripts and styles only from this origin (Vite emits no inline script), API
 * calls only to this origin, never framed. 'unsafe-inline' is absent everywhere; images may be
 * data:/blob: URLs (label previews, the empty favicon).
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function securityHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', DASHBOARD_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('referrer-policy', 'same-origin');
}

/** web/dist of this checkout: found by walking up from this file (src/… or dist/src/…) to the package root. */
export function defaultWebDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const pkg = path.join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'shipping-service') return path.join(dir, 'web', 'dist');
      } catch {
        /* keep walking */
      }
    }
    dir = path.dirname(dir);
  }
  return path.resolve('web/dist');
}

/**
 * The single-page app: its hashed assets under /dashboard/assets, and its index.html for every
 * page it routes itself (/dashboard/…, the public /track/:trackingNumber and /redeem), so a
 * reload or a shared link lands on the right page.
 */
export async function webRoutes(app: App, opts: { webDir: string }) {
  const indexPath = path.join(opts.webDir, 'index.html');
  let indexHtml: Buffer | null = null;
  const loadIndex = (): Buffer => {
    // Read once; a missing build is re-checked on each request so building while the server
    // runs is enough, without a restart.
    if (indexHtml) return indexHtml;
    if (!existsSync(indexPath)) throw new AppError('service_unavailable', 'The dashboard is not built: run `npm run build`.');
    indexHtml = readFileSync(indexPath);
    return indexHtml;
  };

  await app.register(fastifyStatic, {
    root: path.join(opts.webDir, 'assets'),
    prefix: '/dashboard/assets/',
    // Missing assets directory is fine at registration (the build may come later).
    preCompressed: false,
    index: false,
    // Hashed file names: a name never changes content.
    immutable: true,
    maxAge: '365d',
    setHeaders: (res) => {
      res.setHeader('x-content-type-options', 'nosniff');
    },
  });

  const sendIndex = async (_request: unknown, reply: FastifyReply) => {
    const html = loadIndex();
    return securityHeaders(reply).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  };
  const hide = { schema: { hide: true } };
  app.get('/dashboard', hide, sendIndex);
  app.get('/dashboard/*', hide, sendIndex);
  app.get('/track/:trackingNumber', hide, sendIndex);
  app.get('/redeem', hide, sendIndex);
}
