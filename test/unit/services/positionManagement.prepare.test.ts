/**
 * The prepare steps of position management, with no simulator: TP/SL on a position (set, move, remove its
 * whole-position triggers; wrong-side levels refused against the mark before any nonce), partial and limit
 * closes (lifecycle rule 4 still first), and close-all over every open position. Each builds exactly the
 * typed data the shared EIP-712 builders give, and signs nothing.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/main/services/errors.js';
import { wireLeg } from '../../../src/main/services/orders/index.js';
import { groupDigits, prepareClose, prepareCloseAll, preparePositionTpsl } from '../../../src/main/services/positions/index.js';
import { updatePreferences } from '../../../src/main/services/settings/preferences.js';
import { cancelTypedData, modifyTypedData, orderTypedData } from '../../../src/shared/eip712/index.js';
import { accountIdFromWallet } from '../../../src/shared/identity/index.js';
import { MAIN, listed, position, tradingWorld } from './tradingFakes.js';

const ACCOUNT = accountIdFromWallet(MAIN);

// ETH marks 3000, tick 0.01, slippage_bps 50; BTC marks 60000, tick 0.5, sz_decimals 4.
const ethTp = listed({ order_id: 'tp-1', market: 'ETH', tpsl: 'tp', trigger_price: '3300', limit_price: '3283.5', trigger_direction: 'up' } as never);
const ethSl = listed({ order_id: 'sl-1', market: 'ETH', tpsl: 'sl', trigger_price: '2900', limit_price: '2885.5' });

function world(over: { size?: string; triggers?: ReturnType<typeof listed>[]; open?: ReturnType<typeof listed>[] } = {}) {
  const triggers = over.triggers ?? [];
  return tradingWorld({ positions: [position({ market: 'ETH', size: over.size ?? '2', entry_price: '2950', closeable: triggers.length > 0 ? '0' : (over.size ?? '2').replace('-', '') })], triggers, open: over.open ?? triggers });
}

describe('TP/SL on the position', () => {
  it('sets new levels: whole-position reduce-only triggers on the closing side, fire price from the slippage bound', async () => {
    const w = world();
    const p = await preparePositionTpsl(w.ctx, { wallet: MAIN, market: 'ETH', tp: '3300', sl: '2900' });
    expect(p.action).toBe('tpsl');
    expect(p.place!.legs).toMatchObject([
      { side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, limit_price: '3283.5', trigger: { trigger_price: '3300', tpsl: 'TP', is_market: true } },
      { side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, limit_price: '2610', trigger: { trigger_price: '2900', tpsl: 'SL', is_market: true } },
    ]);
    p.place!.legs.forEach((leg, i) => expect(p.requests[i]!.typedData).toEqual(orderTypedData(ACCOUNT, wireLeg(leg, p.place!.nonces[i]!), 'testnet')));
    expect(p.view).toMatchObject({ side: 'LONG', mark: '3000', before: { tp: null, sl: null }, after: { tp: '3300', sl: '2900' } });
    expect(p.view.summary).toEqual([
      'Set a take-profit at 3,300: the whole long closes at market when the mark rises to it (sell, no worse than 3,283.5)',
      // A stop-loss fires with the stop tolerance (10% by default), a take-profit with the market's slippage.
      'Set a stop-loss at 2,900: the whole long closes at market when the mark falls to it (sell, no worse than 2,610)',
    ]);
    expect(w.agent.signed).toHaveLength(0);
  });

  it('moves an armed level with a Modify, removes one with a Cancel, in one Prepared', async () => {
    const w = world({ triggers: [ethTp, ethSl] });
    const p = await preparePositionTpsl(w.ctx, { wallet: MAIN, market: 'ETH', tp: null, sl: '2950' });
    expect(p.view.summary).toEqual(['Remove the take-profit at 3,300', 'Move the stop-loss from 2,900 to 2,950']);
    expect(p.requests.map((r) => r.typedData.primaryType)).toEqual(['Cancel', 'Modify']);
    expect(p.cancel!.targets).toEqual([{ order_id: 'tp-1', order_type: 'TRIGGER' }]);
    expect(p.requests[0]!.typedData).toEqual(cancelTypedData('tp-1', { account: MAIN, order_type: 'TRIGGER', nonce: p.cancel!.nonces[0]! }, 'testnet'));
    const m = p.modifies[0]!.prepared;
    expect(m.fields).toMatchObject({ limit_price: '2655', size: '0', trigger_price: '2950' });
    expect(p.requests[1]!.typedData).toEqual(modifyTypedData('sl-1', { account_id: ACCOUNT, ...m.fields, nonce: m.nonce }, 'testnet'));
    expect(p.view).toMatchObject({ before: { tp: { order_id: 'tp-1', trigger_price: '3300' }, sl: { order_id: 'sl-1', trigger_price: '2900' } }, after: { tp: null, sl: '2950' } });
    expect(new Set(w.nonces.issued.map((n) => n.nonce)).size).toBe(2);
  });

  it('a short: TP below and SL above the mark, bought back', async () => {
    const w = world({ size: '-2' });
    const p = await preparePositionTpsl(w.ctx, { wallet: MAIN, market: 'ETH', tp: '2700', sl: '3150' });
    expect(p.place!.legs.map((l) => [l.side, l.trigger!.tpsl, l.trigger!.trigger_price, l.limit_price])).toEqual([
      ['BUY', 'TP', '2700', '2713.5'],
      ['BUY', 'SL', '3150', '3465'],
    ]);
  });

  it('wrong-side levels are refused against the mark (rule 6), before any nonce', async () => {
    const long = world();
    for (const [input, field] of [
      [{ tp: '2990' }, 'tp'],
      [{ tp: '3000' }, 'tp'],
      [{ sl: '3010' }, 'sl'],
    ] as const) {
      const err = await preparePositionTpsl(long.ctx, { wallet: MAIN, market: 'ETH', ...input }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationError);
      expect(err).toMatchObject({ code: 'TPSL_WRONG_SIDE', field });
    }
    const short = world({ size: '-2' });
    const err = await preparePositionTpsl(short.ctx, { wallet: MAIN, market: 'ETH', sl: '2900' }).catch((e: unknown) => e);
    expect((err as ValidationError).message).toBe("sl: a short's stop-loss must be above the current ETH mark 3,000; 2,900 is below it and would fire at once");
    expect(long.nonces.issued).toHaveLength(0);
    expect(short.nonces.issued).toHaveLength(0);
  });

  it('refuses nothing to change, no position, and two armed levels of one kind to move', async () => {
    const w = world({ triggers: [ethSl] });
    await expect(preparePositionTpsl(w.ctx, { wallet: MAIN, market: 'ETH' })).rejects.toMatchObject({ code: 'NOTHING_TO_CHANGE' });
    await expect(preparePositionTpsl(w.ctx, { wallet: MAIN, market: 'ETH', tp: null, sl: '2900' })).rejects.toThrow(/no take-profit is armed on ETH; the stop-loss is already at 2,900/);
    await expect(preparePositionTpsl(w.ctx, { wallet: MAIN, market: 'BTC', tp: '70000' })).rejects.toMatchObject({ code: 'NO_OPEN_POSITION' });
    await expect(preparePositionTpsl(w.ctx, { wallet: MAIN, market: 'ETH', tp: '-1' })).rejects.toMatchObject({ field: 'tp' });
    const two = world({ triggers: [ethSl, listed({ order_id: 'sl-2', market: 'ETH', trigger_price: '2800', limit_price: '2786' })] });
    await expect(preparePositionTpsl(two.ctx, { wallet: MAIN, market: 'ETH', sl: '2850' })).rejects.toMatchObject({ code: 'AMBIGUOUS_TRIGGERS' });
    // Removing takes both.
    const removed = await preparePositionTpsl(two.ctx, { wallet: MAIN, market: 'ETH', sl: null });
    expect(removed.cancel!.targets.map((t) => t.order_id)).toEqual(['sl-1', 'sl-2']);
    expect(w.nonces.issued).toHaveLength(0);
  });

  it('a sized trigger or a bracket leg awaiting its entry is not one of the position\'s levels', async () => {
    const sized = listed({ order_id: 'sz-1', market: 'ETH', tpsl: 'sl', size: '0.5', trigger_price: '2800', limit_price: '2786' });
    const pending = listed({ order_id: 'pp-1', market: 'ETH', tpsl: 'sl', trigger_price: '2700', limit_price: '2686.5', parent_order_id: 'e-1' });
    const w = world({ triggers: [sized, pending] });
    const p = await preparePositionTpsl(w.ctx, { wallet: MAIN, market: 'ETH', sl: '2900' });
    expect(p.view.changes.map((c) => c.action)).toEqual(['set']);
  });

  it('formats levels with thousands separators', () => {
    expect(groupDigits('3100')).toBe('3,100');
    expect(groupDigits('1234567.891')).toBe('1,234,567.891');
    expect(groupDigits('999')).toBe('999');
  });
});

describe('partial and limit close', () => {
  it('by percentage of what will be closeable, rounded down to sz_decimals; triggers still cancelled first', async () => {
    const w = world({ size: '2.005', triggers: [ethSl] });
    const p = await prepareClose(w.ctx, { wallet: MAIN, market: 'ETH', percent: '33' });
    // 33% of 2.005 is 0.66165: down to ETH's 3 decimals.
    expect(p.order.legs[0]).toMatchObject({ side: 'SELL', size: '0.661', order_type: 'MARKET', reduce_only: true });
    expect(p.view).toMatchObject({ closeable: '2.005', close_size: '0.661', percent: '33', order_type: 'MARKET' });
    expect(p.requests.map((r) => r.typedData.primaryType)).toEqual(['Cancel', 'Order']);
    expect(p.view.summary[0]).toBe('Cancel the stop-loss sl-1 at 2900 first (a reduce-only close cannot coexist with an armed trigger)');
    // The whole-position stop is lifted for the close, not lost: it comes back on what remains (issue 35).
    expect(p.view.summary).toContain('SL 2,900 is lifted for the close and re-armed on the remaining 1.344');
    expect(p.view.rearm).toMatchObject({ levels: [{ kind: 'sl', trigger_price: '2900' }], remaining: '1.344', when: 'after_close' });
    expect(p.view.warnings.join(' ')).not.toMatch(/no TP\/SL/);
    expect(p.whole).toBe(false);
  });

  it('by size: rounded down, at least one step, never above what is closeable; not both', async () => {
    const w = world({ size: '2' });
    expect((await prepareClose(w.ctx, { wallet: MAIN, market: 'ETH', size: '0.12345' })).order.legs[0]!.size).toBe('0.123');
    await expect(prepareClose(w.ctx, { wallet: MAIN, market: 'ETH', size: '2.5' })).rejects.toMatchObject({ code: 'SIZE_ABOVE_CLOSEABLE' });
    await expect(prepareClose(w.ctx, { wallet: MAIN, market: 'ETH', size: '0.0004' })).rejects.toMatchObject({ code: 'CLOSE_SIZE_TOO_SMALL' });
    await expect(prepareClose(w.ctx, { wallet: MAIN, market: 'ETH', size: '1', percent: '50' })).rejects.toMatchObject({ code: 'USAGE' });
    for (const bad of ['0', '0.5', '101', 'abc']) await expect(prepareClose(w.ctx, { wallet: MAIN, market: 'ETH', percent: bad })).rejects.toMatchObject({ field: 'percent' });
    const tiny = world({ size: '0.001' });
    await expect(prepareClose(tiny.ctx, { wallet: MAIN, market: 'ETH', percent: '50' })).rejects.toMatchObject({ code: 'CLOSE_SIZE_TOO_SMALL' });
    const all = await prepareClose(w.ctx, { wallet: MAIN, market: 'ETH', percent: '100' });
    expect(all.order.legs[0]!.size).toBe('2');
    expect(all.whole).toBe(true);
  });

  it('at a limit: a reduce-only LIMIT GTC on the closing side, tick-checked, with a warning when it crosses the mark', async () => {
    const w = world({ size: '-2', triggers: [] });
    const resting = await prepareClose(w.ctx, { wallet: MAIN, market: 'ETH', price: '2950', percent: '50' });
    expect(resting.order.legs[0]).toMatchObject({ side: 'BUY', size: '1', order_type: 'LIMIT', time_in_force: 'GTC', limit_price: '2950', reduce_only: true });
    expect(resting.view).toMatchObject({ order_type: 'LIMIT', limit_price: '2950' });
    expect(resting.view.summary.at(-1)).toBe('Close 1 (50% of 2) ETH of the short with a reduce-only limit buy at 2950 (GTC: it rests until filled or cancelled)');
    expect(resting.view.warnings).toEqual([]);
    const crossing = await prepareClose(w.ctx, { wallet: MAIN, market: 'ETH', price: '3010' });
    expect(crossing.view.warnings.join(' ')).toMatch(/crosses the mark 3000: it will likely execute at once/);
    await expect(prepareClose(w.ctx, { wallet: MAIN, market: 'ETH', price: '2950.005' })).rejects.toThrow(/tick_size/);
  });
});

describe('close all', () => {
  it('one Prepared over every open position; a market with nothing closeable is skipped with the reason', async () => {
    const reserve = listed({ order_id: 'l-1', market: 'BTC', order_type: 'LIMIT', time_in_force: 'GTC', side: 'sell', size: '0.1', limit_price: '62000', trigger_price: null, tpsl: null });
    const w = tradingWorld({
      positions: [position({ market: 'ETH', size: '-1', closeable: '0' }), position({ market: 'BTC', size: '0.1', closeable: '0' })],
      triggers: [listed({ order_id: 'sl-e', market: 'ETH', side: 'buy', tpsl: 'sl', trigger_price: '3100', limit_price: '3115.5' })],
      open: [listed({ order_id: 'sl-e', market: 'ETH', side: 'buy', tpsl: 'sl', trigger_price: '3100', limit_price: '3115.5' }), reserve],
    });
    const p = await prepareCloseAll(w.ctx, { wallet: MAIN });
    expect(p.action).toBe('close-all');
    expect(p.closes.map((c) => c.market)).toEqual(['ETH']);
    expect(p.closes[0]!.order.legs[0]).toMatchObject({ side: 'BUY', size: '1', order_type: 'MARKET', reduce_only: true });
    expect(p.requests.map((r) => r.typedData.primaryType)).toEqual(['Cancel', 'Order']);
    expect(p.skipped).toEqual([{ market: 'BTC', code: 'NOTHING_CLOSEABLE', message: expect.stringMatching(/reserve all of it/), hint: expect.any(String) }]);
    expect(p.view.summary.at(-1)).toMatch(/^Skip BTC: /);
    const none = await prepareCloseAll(tradingWorld().ctx, { wallet: MAIN });
    expect(none.closes).toEqual([]);
    expect(none.requests).toEqual([]);
  });
});

describe('settings', () => {
  it('the market-order default slippage bounds a take-profit; a stop-loss keeps the stop tolerance, its own setting', async () => {
    const w = world();
    updatePreferences(w.ctx.settings, { default_slippage_bps: 100 });
    const p = await preparePositionTpsl(w.ctx, { wallet: MAIN, market: 'ETH', tp: '3300', sl: '2900' });
    expect(p.place!.legs.map((l) => [l.trigger!.tpsl, l.limit_price])).toEqual([
      ['TP', '3267'],
      ['SL', '2610'],
    ]);
    updatePreferences(w.ctx.settings, { stop_tolerance_bps: 200 });
    const q = await preparePositionTpsl(w.ctx, { wallet: MAIN, market: 'ETH', sl: '2900' });
    expect(q.place!.legs[0]!.limit_price).toBe('2842');
  });
});
