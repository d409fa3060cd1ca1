import { describe, expect, it } from 'vitest';
import { surfaceDocs } from './surface.js';

describe('surfaceDocs', () => {
  it("/v1: the resource tag, the key with its workspace, the plain operation id, 403 and 429 beside the route's errors", () => {
    const docs = surfaceDocs('v1', 'orders');
    expect(docs).toMatchObject({ v1: true, tags: ['orders'], security: [{ apiKey: [], workspace: [] }] });
    expect(docs.operationId('getOrder')).toBe('getOrder');
    expect(
      Object.keys(docs.errors(404, 409))
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([400, 401, 403, 404, 409, 429, 500, 503]);
  });

  it('/api/admin: the admin tag, the session, adminXxx, 404 (a workspace the account is not in) and no 429', () => {
    const docs = surfaceDocs('admin', 'orders');
    expect(docs).toMatchObject({ v1: false, tags: ['admin'], security: [{ session: [] }] });
    expect(docs.operationId('getOrder')).toBe('adminGetOrder');
    expect(
      Object.keys(docs.errors())
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([400, 401, 404, 500, 503]);
  });
});
