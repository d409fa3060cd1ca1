import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { ChannelHttpClient, type ChannelExchange, type ChannelOutcome } from '../../src/channels/http/client.js';
import { ChannelError } from '../../src/channels/types.js';
import { startReceiver, type ReceivedRequest, type Receiver } from './webhook-receiver.js';

/**
 * The set-up every store platform's api test shares: its fake (test/helpers/fake-<platform>)
 * started once for the file on one clock with the client (a wait the client sleeps moves the
 * store's dates and refills its buckets), a fresh client and channel per test with their waits,
 * exchanges and outcomes kept, a webhook receiver the fake delivers to, and after each test the
 * check that the fake saw nothing off the platform's documents and no exchange shows a secret.
 */

/** What the channel tests use of a fake store platform. */
export interface FakePlatform {
  /** Problems in the requests it received or the answers it gave. */
  violations: string[];
  reset(): void;
  close(): Promise<void>;
}

export interface ChannelApiTestOptions<F extends FakePlatform, C> {
  startFake(clock: () => number): Promise<F>;
  createChannel(http: ChannelHttpClient): C;
  /** The shared clock's first reading. */
  startAt: number;
  /** How far the clock moves before each test (so each test's store changes are newer than the last's). */
  stepMs?: number;
  /** Store state the fake's own reset keeps, cleared before each test. */
  reset?(fake: F): void;
  /** What no exchange may show (tokens, secrets). */
  secrets(fake: F): ReadonlyArray<string | RegExp>;
}

export interface ChannelApiTest<F extends FakePlatform, C> {
  readonly fake: F;
  readonly channel: C;
  /** The shared clock (ms); tests move it on. */
  clock: number;
  readonly sleeps: number[];
  readonly exchanges: ChannelExchange[];
  readonly outcomes: { operation: string; outcome: ChannelOutcome }[];
  /** The webhooks the fake delivered in this test. */
  readonly received: ReceivedRequest[];
  readonly receiverUrl: string;
  /** What the receiver answers (200 at the start of each test). */
  receiverStatus: number;
}

const RECEIVER_PATH = '/api/integrations/int_x/webhooks';

/** Registers the file's hooks (vitest) and returns the set-up's live state. */
export function useChannelApiTest<F extends FakePlatform, C>(options: ChannelApiTestOptions<F, C>): ChannelApiTest<F, C> {
  let fake: F | undefined;
  let receiver: Receiver | undefined;
  let http: ChannelHttpClient | undefined;
  let channel: C | undefined;
  let receiverStatus = 200;
  const state = { clock: options.startAt };
  const sleeps: number[] = [];
  const exchanges: ChannelExchange[] = [];
  const outcomes: { operation: string; outcome: ChannelOutcome }[] = [];

  beforeAll(async () => {
    fake = await options.startFake(() => state.clock);
    receiver = await startReceiver();
    receiver.on(RECEIVER_PATH, () => ({ status: receiverStatus }));
  }, 120_000);
  afterAll(async () => {
    await fake?.close();
    await http?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    fake!.reset();
    options.reset?.(fake!);
    receiver!.received.length = 0;
    receiverStatus = 200;
    state.clock += options.stepMs ?? 0;
    await http?.close();
    sleeps.length = 0;
    exchanges.length = 0;
    outcomes.length = 0;
    http = new ChannelHttpClient({
      now: () => state.clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        state.clock += ms;
      },
      onExchange: (e) => exchanges.push(e),
      metrics: { requestFinished: ({ operation, outcome }) => outcomes.push({ operation, outcome }) },
    });
    channel = options.createChannel(http);
  });
  afterEach(() => {
    expect(fake!.violations).toEqual([]);
    const log = JSON.stringify(exchanges);
    for (const secret of options.secrets(fake!)) {
      if (typeof secret === 'string') expect(log).not.toContain(secret);
      else expect(log).not.toMatch(secret);
    }
  });

  return {
    get fake() {
      return fake!;
    },
    get channel() {
      return channel!;
    },
    get clock() {
      return state.clock;
    },
    set clock(ms: number) {
      state.clock = ms;
    },
    sleeps,
    exchanges,
    outcomes,
    get received() {
      return receiver!.received;
    },
    get receiverUrl() {
      return receiver!.url(RECEIVER_PATH);
    },
    get receiverStatus() {
      return receiverStatus;
    },
    set receiverStatus(status: number) {
      receiverStatus = status;
    },
  };
}

/** The ChannelError a call fails with (the test fails if it succeeds or fails otherwise). */
export async function rejection(p: Promise<unknown>): Promise<ChannelError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ChannelError);
  return err as ChannelError;
}
