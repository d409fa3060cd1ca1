import { describe, expect, it } from 'vitest';
import type { ApiCallContext, ApiPurchaseRequest, CarrierDriver } from '../../carriers/driver.js';
import { createRegistry, getCarrierRegistry } from '../../carriers/registry.js';
import { CarrierError, type CarrierDefinition, type RateRequest } from '../../carriers/types.js';
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

describe('a simulated account through the gateway (one contract, outcomes mapped once)', () => {
  const simulated = { id: 'ca_sim', carrier: 'ups', driver: 'simulated', enabled: true } as CarrierAccountRow;
  const accounts = { timeoutMs: async () => TIMEOUT_MS } as unknown as CarrierAccountsService;
  const log = { warn() {}, error() {} } as never;
  const purchasedAt = '2026-03-02T15:00:00.000Z';
  const voidRequest = (now: string) => ({
    carrier_shipment_id: '1Z999AA10123456784',
    tracking_numbers: ['1Z999AA10123456784'],
    service_code: 'ups_ground',
    purchased_at: purchasedAt,
    now,
  });

  async function gatewayOver(carriers?: CarrierDefinition[]): Promise<CarrierGateway> {
    return new CarrierGateway(accounts, carriers ? createRegistry(carriers) : await getCarrierRegistry(), new Map(), log);
  }

  it("picks the carrier's simulated driver, which answers in process", async () => {
    const gateway = await gatewayOver();
    expect(gateway.driverOf(simulated)).toMatchObject({ carrier: 'ups', inProcess: true });
    expect(gateway.inProcessTarget({ carrier: 'ups', carrier_driver: 'simulated', carrier_account_id: null })).toEqual({
      id: null,
      driver: 'simulated',
      carrier: 'ups',
    });
    expect(gateway.inProcessTarget({ carrier: 'ups', carrier_driver: 'api', carrier_account_id: 'ca_1' })).toBeUndefined();
  });

  it('a void before the first scan is granted, with the refund under review', async () => {
    const gateway = await gatewayOver();
    await expect(gateway.call(scope, simulated, undefined, (d, c) => d.void(c, voidRequest('2026-03-02T15:00:01.000Z')))).resolves.toEqual({
      voided: true,
      refund_review: true,
    });
  });

  it("a void after the first scan is too late: 409 invalid_state, or the caller's own error", async () => {
    const gateway = await gatewayOver();
    const late = voidRequest('2026-03-20T00:00:00.000Z');
    await expect(gateway.call(scope, simulated, undefined, (d, c) => d.void(c, late))).rejects.toMatchObject({
      code: 'invalid_state',
      message: expect.stringMatching(/already scanned/),
    });
    const own = new Error("caller's own");
    await expect(gateway.call(scope, simulated, undefined, (d, c) => d.void(c, late), { tooLate: () => own })).rejects.toBe(own);
  });

  it('a service the carrier does not have is 422 no_rates naming service_code', async () => {
    const gateway = await gatewayOver();
    const request = { service_code: 'ups_teleport', reference: 'shp_1', purchased_at: purchasedAt } as unknown as ApiPurchaseRequest;
    await expect(gateway.call(scope, simulated, undefined, (d, c) => d.purchase(c, request))).rejects.toMatchObject({
      code: 'no_rates',
      details: [expect.objectContaining({ field: 'service_code', message: expect.stringMatching(/no service ups_teleport/) })],
    });
  });

  it('a simulated carrier that cannot answer (a failing double) is 503 carrier_unavailable, retryable', async () => {
    const ups = (await getCarrierRegistry()).get('ups')!;
    const failing: CarrierDefinition = {
      ...ups,
      adapter: {
        ...ups.adapter,
        purchase: async () => {
          throw new CarrierError('ups', 'timeout', 'no answer in time', { retryable: true });
        },
      },
    };
    const gateway = await gatewayOver([failing]);
    await expect(gateway.call(scope, simulated, undefined, (d, c) => d.purchase(c, {} as ApiPurchaseRequest))).rejects.toMatchObject({
      code: 'carrier_unavailable',
      retryable: true,
    });
  });
});
