import { describe, expect, it } from 'vitest';
import { AppError } from '../../platform/errors.js';
import { allowedMoves, assertEditable, nextStatus, ORDER_MOVES, ORDER_STATUSES, type OrderMove, type OrderStatus } from './orders.states.js';

// The order state machine, written out by hand: [from, move] → to. Every pair not listed is illegal.
const legal: Array<[OrderStatus, OrderMove, OrderStatus]> = [
  ['awaiting_fulfillment', 'process', 'processing'],
  ['awaiting_fulfillment', 'purchase_label', 'shipped'],
  ['processing', 'purchase_label', 'shipped'],
  ['shipped', 'void_label', 'processing'],
  ['shipped', 'deliver', 'delivered'],
  ['awaiting_fulfillment', 'cancel', 'cancelled'],
  ['processing', 'cancel', 'cancelled'],
];
const statuses: OrderStatus[] = ['awaiting_fulfillment', 'processing', 'shipped', 'delivered', 'cancelled'];
const moves: OrderMove[] = ['process', 'purchase_label', 'void_label', 'deliver', 'cancel'];

describe('order state machine', () => {
  it('knows exactly the five states and five moves', () => {
    expect([...ORDER_STATUSES].sort()).toEqual([...statuses].sort());
    expect(Object.keys(ORDER_MOVES).sort()).toEqual([...moves].sort());
  });

  for (const from of statuses) {
    for (const move of moves) {
      const hit = legal.find(([f, m]) => f === from && m === move);
      if (hit) {
        it(`${from} --${move}--> ${hit[2]}`, () => {
          expect(nextStatus(from, move)).toBe(hit[2]);
        });
      } else {
        it(`${from} refuses ${move} with 409 invalid_state naming the state and the allowed moves`, () => {
          let error: unknown;
          try {
            nextStatus(from, move);
          } catch (err) {
            error = err;
          }
          expect(error).toBeInstanceOf(AppError);
          const e = error as AppError;
          expect(e.status).toBe(409);
          expect(e.code).toBe('invalid_state');
          expect(e.message).toContain(from);
          const expectedMoves = legal.filter(([f]) => f === from).map(([, m]) => m);
          expect(e.details).toEqual([
            { field: 'status', message: expect.any(String), current_state: from, allowed_moves: expect.arrayContaining(expectedMoves) },
          ]);
          expect((e.details as { allowed_moves: string[] }[])[0].allowed_moves).toHaveLength(expectedMoves.length);
        });
      }
    }
  }

  it('cancel is possible from every state before shipped and from none after', () => {
    expect(statuses.filter((s) => allowedMoves(s).includes('cancel')).sort()).toEqual(['awaiting_fulfillment', 'processing']);
  });

  it('delivered and cancelled are terminal', () => {
    expect(allowedMoves('delivered')).toEqual([]);
    expect(allowedMoves('cancelled')).toEqual([]);
  });

  it('only open orders (awaiting_fulfillment, processing) can be edited', () => {
    expect(() => assertEditable('awaiting_fulfillment')).not.toThrow();
    expect(() => assertEditable('processing')).not.toThrow();
    for (const s of ['shipped', 'delivered', 'cancelled'] as const) {
      expect(() => assertEditable(s)).toThrow(
        expect.objectContaining({ code: 'invalid_state', details: [expect.objectContaining({ field: 'status', current_state: s })] }),
      );
    }
  });
});
