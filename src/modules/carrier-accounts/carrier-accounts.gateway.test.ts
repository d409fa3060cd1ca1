import { describe, expect, it } from 'vitest';
import type { ApiCallContext, CarrierDriver } from '../../carriers/driver.js';
import { getCarrierRegistry } from '../../carriers/registry.js';
import type { RateRequest } from '../../carriers/types.js';
import { CarrierGateway } from './carrier-accounts.gateway.js';
import type { CarrierAccountsService } from './carrier-accounts.service.js';
import type { CarrierAccountRow } from './carrier-accounts.tables.js';

const TIMEOUT_MS = 1000;
const scope = { workspaceId: 'ws_1', environment: 'test' as const };
const row = { id: 'ca_1', carrier: 'ups', driver: 'api', enabled: true } as CarrierAccountRow;

/** A gateway over one `api` UPS account whose driver only records the context it was called with. */
async function gatewayRecording(): Promise<{ gateway: CarrierGateway; seen: ApiCallContext[] }> {
  const seen: ApiCallContext[] = [];
  const driver = {
    rates: async (ctx: ApiCallContext) => {
      seen.push(ctx);
      return { ok: true, value: { rates: [], unavailable: [] } };
    },
  } as unknown as CarrierDriver;
  const accounts = {
    cachedLiveAccounts: () => [row],
    timeoutMs: async () => TIMEOUT_MS,
    apiAccount: () => ({ id: row.id }),
  } as unknown as CarrierAccountsService;
  const log = { warn() {}, error() {} } as never;
  return { gateway: new CarrierGateway(accounts, await getCarrierRegistry(), new Map([['ups', driver]]), log), seen };
}

describe('the rate-shop deadline', () => {
  const request = {} as RateRequest;

  it('counts from when the query arrived: what came before the carrier call is spent', async () => {
    const { gateway, seen } = await gatewayRecording();
    const [source] = gateway.rateSources(scope) as Awaited<ReturnType<CarrierGateway['rateSources']>>;
    await source.quote(request, { startedAt: Date.now() - 400 });
    expect(seen[0].timeoutMs).toBeLessThanOrEqual(TIMEOUT_MS - 400);
    expect(seen[0].timeoutMs).toBeGreaterThan(0);
  });

  it('is the whole setting without an arrival time, and never zero once the time is up', async () => {
    const { gateway, seen } = await gatewayRecording();
    const [source] = gateway.rateSources(scope) as Awaited<ReturnType<CarrierGateway['rateSources']>>;
    await source.quote(request);
    await source.quote(request, { startedAt: Date.now() - 5000 });
    expect(seen.map((c) => c.timeoutMs)).toEqual([TIMEOUT_MS, 1]);
  });
});
