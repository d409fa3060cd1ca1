import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { serviceContext } from './request-context.js';

const request = (auth: unknown) => ({ auth, id: 'req_1', ip: '203.0.113.9' }) as unknown as FastifyRequest;

describe('serviceContext', () => {
  it('is the scope, the actor, the request id and the client address', () => {
    const actor = { type: 'api_key', id: 'key_1' };
    const ctx = serviceContext(request({ actor, scope: { workspaceId: 'ws_1', environment: 'test' } }));
    expect(ctx).toEqual({ workspaceId: 'ws_1', environment: 'test', actor, requestId: 'req_1', ip: '203.0.113.9' });
    expect(Object.keys(ctx)).toEqual(['workspaceId', 'environment', 'actor', 'requestId', 'ip']);
  });

  it('refuses a request no guard scoped', () => {
    expect(() => serviceContext(request(null))).toThrow(expect.objectContaining({ code: 'unauthorized' }));
    expect(() => serviceContext(request({ actor: { type: 'account', id: 'acc_1' } }))).toThrow(expect.objectContaining({ code: 'unauthorized' }));
  });
});
