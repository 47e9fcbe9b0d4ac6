/**
 * Position management in the app, through the REAL registered IPC handlers on an AppCore with its
 * in-process simulator and the real keychain: the fat-finger guard in the order review (a far limit or a
 * large order lists what must be confirmed, and orders:place refuses until exactly those codes are
 * confirmed, keeping the review usable), TP/SL on a position (positions:previewTpsl shows the exact typed
 * data and what changes in words; positions:applyTpsl applies that review), partial and limit closes that
 * say which triggers they cancelled, and positions:closeAll.
 *
 * The simulator runs a manual clock (issue 37): a deposit's credit and a fill reaching /positions come as
 * the test moves it (advanceUntil), and a call that waits on it (TP/SL applied and armed, a close waiting
 * for its fill) is awaited while the clock moves (advanceDuring).
 *
 * The harness (a connected wallet, an authorized key, a funded account) is shared, but each test builds
 * the positions and orders it needs: an ensure helper looks at the actual positions and open orders
 * through IPC and places, arms or cancels only what is missing or in the way, so every test passes alone
 * or in any order (in file order the ensures find everything in place). Every test must log no error.
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical, roundToStep } from '../../../src/shared/decimal/index.js';
import type { MarketView } from '../../../src/shared/ipc.js';
import { AppHarness, eachTestLogsNoError } from './appHarness.js';

describe('position management through the IPC handlers', () => {
  let h: AppHarness;
  let eth: MarketView;

  const price = (m: MarketView, factor: string, mode: 'up' | 'down' = 'down') => canonical(roundToStep(new Decimal(m.mark!).times(factor), m.tick_size, mode));
  const markOf = async (symbol: string): Promise<MarketView> => (await h.call('markets:list', {})).markets.find((x) => x.symbol === symbol)!;
  const positionOf = async (market: string) => (await h.call('positions:list', {})).positions.find((p) => p.market === market);
  /** The orders open on ETH: resting limits and armed triggers. */
  const ethOrders = async () => [...(await h.call('orders:listOpen', { market: 'ETH' })).orders, ...(await h.call('orders:listTriggers', { market: 'ETH' })).triggers];
  /** What a test of this file starts from at most: the size its first order leaves. */
  const ETH_SIZE = '0.05';

  /** A market order, placed with whatever it asks to confirm, and awaited on the positions. */
  const buyAtMarket = async (market: string, size: string, until: () => Promise<boolean>): Promise<void> => {
    const preview = await h.call('orders:preview', { intent: { kind: 'single', market, side: 'BUY', order_type: 'MARKET', size, leverage: 5 } });
    const codes = preview.confirmations.map((c) => c.code);
    expect((await h.call('orders:place', { preview_id: preview.preview_id, ...(codes.length > 0 ? { confirm: codes } : {}) })).success).toBe(true);
    await h.advanceUntil(`the ${market} buy filled`, until, 100);
  };
  /** An ETH long of at least ETH_SIZE (bought at market when there is none, or a smaller one). */
  const ensureEthLong = async (): Promise<void> => {
    const before = await positionOf('ETH');
    if (before && before.side === 'LONG' && new Decimal(before.size).gte(ETH_SIZE)) return;
    const was = new Decimal(before?.size ?? 0);
    await buyAtMarket('ETH', ETH_SIZE, async () => new Decimal((await positionOf('ETH'))?.size ?? 0).gt(was));
  };
  /** Cancels every open ETH order (resting limits, TP and SL) when there is any, and waits until none is listed. */
  const ensureNoEthOrders = async (): Promise<void> => {
    if ((await ethOrders()).length === 0) return;
    await h.advanceDuring('the ETH orders cancelled', h.call('orders:cancelAll', { market: 'ETH' }));
    await h.advanceUntil('no ETH order listed', async () => (await ethOrders()).length === 0, 100);
  };
  /** An ETH long with no TP, no SL and no resting order. */
  const ensureBareEthLong = async (): Promise<void> => {
    await ensureNoEthOrders();
    await ensureEthLong();
    await h.advanceUntil('the ETH long without TP/SL', async () => {
      const p = await positionOf('ETH');
      return p !== undefined && p.tp === null && p.sl === null;
    }, 100);
  };
  /** An ETH long with its TP and SL armed and no resting limit order. */
  const ensureArmedEthLong = async (): Promise<void> => {
    if ((await h.call('orders:listOpen', { market: 'ETH' })).orders.some((o) => o.order_type === 'LIMIT')) await ensureNoEthOrders();
    await ensureEthLong();
    const p = (await positionOf('ETH'))!;
    if (p.tp !== null && p.sl !== null) return;
    const mark = await markOf('ETH');
    const review = await h.call('positions:previewTpsl', { market: 'ETH', tp: price(mark, '1.1', 'up'), sl: price(mark, '0.9') });
    expect((await h.advanceDuring('the TP/SL applied', h.call('positions:applyTpsl', { preview_id: review.preview_id }))).ok).toBe(true);
    await h.advanceUntil('the ETH TP and SL armed', async () => {
      const q = await positionOf('ETH');
      return q !== undefined && q.tp !== null && q.sl !== null;
    }, 100);
  };
  /** A BTC position (bought at market when there is none). */
  const ensureBtcPosition = async (): Promise<void> => {
    if (await positionOf('BTC')) return;
    await buyAtMarket('BTC', '0.002', async () => (await positionOf('BTC')) !== undefined);
  };
  /** An ETH long with part of it reserved by a resting limit close, as a limit close leaves it. */
  const ensureRestingEthClose = async (): Promise<void> => {
    await ensureEthLong();
    if ((await h.call('orders:listOpen', { market: 'ETH' })).orders.some((o) => o.order_type === 'LIMIT' && o.reduce_only && o.side === 'sell')) return;
    const mark = await markOf('ETH');
    const limit = await h.advanceDuring('the limit close', h.call('positions:close', { market: 'ETH', percent: '50', price: price(mark, '1.05', 'up') }));
    expect(limit).toMatchObject({ resting: true, order_type: 'LIMIT' });
  };

  beforeAll(async () => {
    const main = Wallet.createRandom();
    h = await AppHarness.start('position-mgmt', { env: { PERPS_PM_MAIN_KEY: main.privateKey } });
    await h.connectTrader('PERPS_PM_MAIN_KEY', 'position management', '20000');
    eth = await markOf('ETH');
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    h?.cleanup();
  });

  eachTestLogsNoError(() => h);

  it('a far limit is reviewed with FAR_PRICE to confirm; place refuses until exactly that is confirmed, then places the same review', async () => {
    eth = await markOf('ETH');
    const preview = await h.call('orders:preview', { intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'LIMIT', size: '0.05', limit_price: price(eth, '1.2'), leverage: 5 } });
    expect(preview.confirmations).toEqual([{ code: 'FAR_PRICE', message: expect.stringMatching(/^order: the BUY limit price .* crosses the mark .* by more than ETH's slippage bound of 50 bps/) }]);
    expect(await h.fail('orders:place', { preview_id: preview.preview_id })).toMatchObject({ code: 'VALIDATION', reason: 'CONFIRMATION_REQUIRED', field: 'confirm' });
    expect(await h.fail('orders:place', { preview_id: preview.preview_id, confirm: ['FAR_PRICE', 'LARGE_ORDER'] })).toMatchObject({ code: 'VALIDATION', reason: 'CONFIRMATION_MISMATCH' });
    expect((await h.fail('orders:place', { preview_id: preview.preview_id, confirm: ['NOPE'] })).code).toBe('INVALID_PAYLOAD');
    // Refusals left the review usable: the confirmed place signs exactly it.
    const placed = await h.call('orders:place', { preview_id: preview.preview_id, confirm: ['FAR_PRICE'] });
    expect(placed.legs[0]).toMatchObject({ status: 'SUBMITTED' });
    expect((await h.fail('orders:place', { preview_id: preview.preview_id, confirm: ['FAR_PRICE'] })).code).toBe('REVIEW_EXPIRED');
    await h.advanceUntil('the ETH position', async () => (await h.call('positions:list', {})).positions.some((p) => p.market === 'ETH'), 100);

    // An ordinary order needs no confirmation, and is placed without one.
    const plain = await h.call('orders:preview', { intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'LIMIT', size: '0.01', limit_price: price(eth, '0.8'), leverage: 5 } });
    expect(plain.confirmations).toEqual([]);
    const plainPlaced = await h.call('orders:place', { preview_id: plain.preview_id });
    await h.call('orders:cancel', { order_id: plainPlaced.legs[0]!.order_id!, order_type: 'LIMIT' });
  });

  it('the notional cap (a setting, off by default) makes a larger order ask for LARGE_ORDER', async () => {
    expect((await h.call('settings:get', {})).max_order_notional).toBeNull();
    expect(await h.fail('settings:set', { max_order_notional: '0' })).toMatchObject({ code: 'INVALID_PAYLOAD' });
    expect((await h.call('settings:set', { max_order_notional: '100' })).max_order_notional).toBe('100');
    try {
      const preview = await h.call('orders:preview', { intent: { kind: 'single', market: 'BTC', side: 'BUY', order_type: 'MARKET', size: '0.002', leverage: 5 } });
      expect(preview.confirmations.map((c) => c.code)).toEqual(['LARGE_ORDER']);
      expect(preview.confirmations[0]!.message).toMatch(/above your cap of 100 USDC/);
      const placed = await h.call('orders:place', { preview_id: preview.preview_id, confirm: ['LARGE_ORDER'] });
      expect(placed.success).toBe(true);
    } finally {
      expect((await h.call('settings:set', { max_order_notional: null })).max_order_notional).toBeNull();
    }
    await h.advanceUntil('the BTC position', async () => (await h.call('positions:list', {})).positions.some((p) => p.market === 'BTC'), 100);
  });

  it('TP/SL on the position: a review with the exact typed data and the change in words, applied as reviewed', async () => {
    await ensureBareEthLong();
    eth = await markOf('ETH');
    const [tp, sl] = [price(eth, '1.1', 'up'), price(eth, '0.9')];
    const wrong = await h.fail('positions:previewTpsl', { market: 'ETH', tp: price(eth, '0.95') });
    expect(wrong).toMatchObject({ code: 'VALIDATION', reason: 'TPSL_WRONG_SIDE', field: 'tp' });

    const review = await h.call('positions:previewTpsl', { market: 'ETH', tp, sl });
    expect(review).toMatchObject({ market: 'ETH', side: 'LONG', before: { tp: null, sl: null }, after: { tp, sl } });
    expect(review.changes.map((c) => [c.kind, c.action, c.to])).toEqual([
      ['tp', 'set', tp],
      ['sl', 'set', sl],
    ]);
    expect(review.requests.map((r) => [r.label, r.typed_data.primaryType])).toEqual([
      ['tp', 'Order'],
      ['sl', 'Order'],
    ]);
    expect(review.requests[0]!.typed_data.message).toMatchObject({ market: 'ETH', side: 'SELL', size: '0', reduceOnly: true, orderType: 'TRIGGER', triggerPrice: tp, tpsl: 'TP' });
    const applied = await h.advanceDuring('the TP/SL applied', h.call('positions:applyTpsl', { preview_id: review.preview_id }));
    expect(applied).toMatchObject({ market: 'ETH', ok: true });
    expect(applied.changes.map((c) => c.status)).toEqual(['done', 'done']);
    expect((await h.fail('positions:applyTpsl', { preview_id: review.preview_id })).code).toBe('REVIEW_EXPIRED');

    const sl2 = price(eth, '0.92');
    const move = await h.call('positions:previewTpsl', { market: 'ETH', sl: sl2 });
    expect(move.summary).toEqual([expect.stringMatching(/^Move the stop-loss from [\d,.]+ to [\d,.]+$/)]);
    expect(move.requests.map((r) => r.typed_data.primaryType)).toEqual(['Modify']);
    const moved = await h.advanceDuring('the stop moved', h.call('positions:applyTpsl', { preview_id: move.preview_id }));
    expect(moved.changes[0]).toMatchObject({ kind: 'sl', action: 'move', status: 'done' });
    const triggers = (await h.call('orders:listTriggers', { market: 'ETH' })).triggers;
    expect(triggers.map((x) => [x.tpsl, x.trigger_price]).sort()).toEqual([
      ['sl', sl2],
      ['tp', tp],
    ]);
  });

  it('a partial close says which triggers it cancelled; a far limit close needs FAR_PRICE; a limit close rests', async () => {
    await ensureArmedEthLong();
    eth = await markOf('ETH');
    const before = (await h.call('positions:list', {})).positions.find((p) => p.market === 'ETH')!;
    // While the TP/SL are armed nothing is closeable: the close cancels them first.
    expect(before.closeable).toBe('0');
    const half = await h.advanceDuring('the half close', h.call('positions:close', { market: 'ETH', percent: '50' }));
    expect(half).toMatchObject({ market: 'ETH', closed: false, resting: false, order_type: 'MARKET', cancelled_triggers: 2, order_status: 'FILLED' });
    expect(half.cancelled.map((c) => c.tpsl).sort()).toEqual(['sl', 'tp']);
    expect(new Decimal(half.size).eq(new Decimal(before.size).div(2).toDecimalPlaces(eth.sz_decimals, Decimal.ROUND_DOWN))).toBe(true);

    eth = await markOf('ETH');
    expect(await h.fail('positions:close', { market: 'ETH', price: price(eth, '0.5') })).toMatchObject({ code: 'VALIDATION', reason: 'FAR_PRICE' });
    const limit = await h.advanceDuring('the limit close', h.call('positions:close', { market: 'ETH', percent: '50', price: price(eth, '1.05', 'up') }));
    // The half close re-armed the TP and SL on the rest (issue 35): the limit close lifts them again and
    // re-arms them once it rests.
    expect(limit).toMatchObject({ resting: true, closed: false, order_type: 'LIMIT', limit_price: price(eth, '1.05', 'up'), order_status: 'ACCEPTED' });
    expect(half.rearm?.rearmed.map((r) => r.kind).sort()).toEqual(['sl', 'tp']);
    expect(limit.cancelled.map((c) => c.tpsl).sort()).toEqual(['sl', 'tp']);
    expect(limit.rearm?.rearmed.map((r) => r.kind).sort()).toEqual(['sl', 'tp']);
  });

  it('close all: every position at market, each with its own outcome', async () => {
    await ensureBtcPosition();
    await ensureRestingEthClose();
    const all = await h.advanceDuring('close all', h.call('positions:closeAll', {}));
    const byMarket = Object.fromEntries(all.results.map((r) => [r.market, r]));
    expect(Object.keys(byMarket).sort()).toEqual(['BTC', 'ETH']);
    expect(byMarket['BTC']).toMatchObject({ outcome: 'closed', position_after: null, error: null });
    // The resting limit close keeps its part of ETH reserved: the rest is closed.
    expect(byMarket['ETH']).toMatchObject({ outcome: 'partly_closed', error: null });
    expect(h.logs.filter((l) => l.startsWith('error '))).toEqual([]);
  });
});
