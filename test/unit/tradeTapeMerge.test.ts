/**
 * The tape's merge: a resubscription after a reconnect sends the venue's recent trades again, and
 * trades of one tick share a time; the tape keeps each trade id once, newest first, at most TAPE_LENGTH.
 */
import { describe, expect, it } from 'vitest';
import { mergeTape, tapeTradeOf } from '../../src/main/app/tradeTape.js';
import { TAPE_LENGTH, type TapeTrade } from '../../src/shared/ipc/twap.js';

const t = (tid: number, time: number, side: 'BUY' | 'SELL' = 'BUY'): TapeTrade => ({ price: '3300.5', size: '0.1', time, side, tid });

describe('mergeTape', () => {
  it('keeps each trade id once when the recent trades arrive again', () => {
    const first = mergeTape([], [t(1, 1_000), t(2, 2_000)]);
    const again = mergeTape(first, [t(1, 1_000), t(2, 2_000), t(3, 3_000)]);
    expect(again.map((x) => x.tid)).toEqual([3, 2, 1]);
  });

  it('orders newest first by time, then trade id within one time', () => {
    expect(mergeTape([t(5, 2_000)], [t(4, 2_000), t(9, 1_000)]).map((x) => x.tid)).toEqual([5, 4, 9]);
  });

  it('keeps only the latest TAPE_LENGTH', () => {
    const many = Array.from({ length: TAPE_LENGTH + 7 }, (_, i) => t(i, i * 10));
    const tape = mergeTape([], many);
    expect(tape).toHaveLength(TAPE_LENGTH);
    expect(tape[0]!.tid).toBe(TAPE_LENGTH + 6);
    expect(tape.at(-1)!.tid).toBe(7);
  });

  it("reads the venue's WsTrade: B is a buyer lifting the ask, A a seller hitting the bid, decimals canonical", () => {
    const base = { coin: 'ETH', px: '3300.50', sz: '0.100', time: 5, hash: '0x' + '0'.repeat(64), tid: 8, users: ['0x0', '0x0'] as [string, string] };
    expect(tapeTradeOf({ ...base, side: 'B' })).toEqual({ price: '3300.5', size: '0.1', time: 5, side: 'BUY', tid: 8 });
    expect(tapeTradeOf({ ...base, side: 'A' }).side).toBe('SELL');
  });
});
