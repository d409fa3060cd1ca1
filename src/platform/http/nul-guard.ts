import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.js';

/**
 * PostgreSQL text cannot hold NUL (U+0000): a path id or query value carrying one would reach
 * the driver and fail there as a 500. Refuse it up front as a client error. (Bodies are the
 * JSON parser's and the schemas' business.)
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const url = request.url;
    if (url.includes('\u0000') || /%00/i.test(url)) {
      throw new AppError('validation_failed', 'The request is invalid.', {
        details: [{ field: 'url', message: 'must not contain NUL characters' }],
      });
    }
  });
}
