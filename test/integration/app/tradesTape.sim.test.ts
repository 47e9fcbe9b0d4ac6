/**
 * The trades tape through the IPC handlers: markets:watchTrades follows the venue WebSocket's `trades`
 * channel of one market (served by the simulator, which publishes its walk's background volume and its
 * own fills there) and the `trades` stream carries the latest trades newest first, keyed by the
 * service's symbol. Switching market or stopping releases the previous one.
 *
 * The simulator runs a manual clock (issue 37): the walk's trades, the marks and our fill come as the test
 * moves it (advanceUntil; the venue ticks every 250 ms here).
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { TAPE_LENGTH, type TradesEvent } from '../../../src/shared/ipc.js';
import { AppHarness } from './appHarness.js';

const MAIN = 'PERPS_TAPE_MAIN_KEY';

describe('trades tape (sim profile)', () => {
  let h: AppHarness;
  const tapes = () => h.eventsOf<TradesEvent>('trades').map((e) => e.payload);

  beforeAll(async () => {
    h = await AppHarness.start('tape', { env: { [MAIN]: Wallet.createRandom().privateKey } });
    await h.call('wallet:connectEnv', { variable: MAIN });
    const { agent } = await h.call('keys:create', { name: 'tape' });
    await h.call('keys:authorize', { review_id: (await h.call('keys:review', { action: 'authorize', agent })).review_id });
    await h.call('funding:faucet', { amount: '20000' });
    await h.advanceUntil('the deposit to be credited', async () => (await h.call('account:balance', {})).free_balance === '20000', 100);
  }, 60_000);
  afterAll(async () => {
    await h.stop();
    h.cleanup();
  });

  it('streams the watched market newest first, on the tick, without duplicates; a fill of ours shows on it', async () => {
    expect(await h.call('markets:watchTrades', { market: 'ETH' })).toEqual({ watching: 'ETH', live: true });
    const tape = await h.advanceUntil('an ETH tape of a few trades', () => {
      const t = tapes().filter((x) => x.market === 'ETH').at(-1);
      return t && t.trades.length >= 5 && t;
    }, 250);
    const markets = await h.call('markets:list', {});
    const eth = markets.markets.find((m) => m.symbol === 'ETH')!;
    for (let i = 1; i < tape.trades.length; i++) {
      const [a, b] = [tape.trades[i - 1]!, tape.trades[i]!];
      expect(a.time > b.time || (a.time === b.time && a.tid > b.tid)).toBe(true);
    }
    expect(new Set(tape.trades.map((t) => t.tid)).size).toBe(tape.trades.length);
    expect(tape.trades.length).toBeLessThanOrEqual(TAPE_LENGTH);
    for (const t of tape.trades) {
      expect(['BUY', 'SELL']).toContain(t.side);
      expect(new Decimal(t.size).gt(0)).toBe(true);
      expect(new Decimal(t.price).mod(eth.tick_size).isZero()).toBe(true);
      // Recent on the service's clock (the simulator's, which the test moves).
      expect(Math.abs(t.time - h.simulator().clock.now())).toBeLessThan(60_000);
    }
    // Both sides show up as the mark walks.
    const sides = await h.advanceUntil('both sides on the tape', () => {
      const s = new Set(tapes().filter((x) => x.market === 'ETH').at(-1)!.trades.map((t) => t.side));
      return s.size === 2 && s;
    }, 250);
    expect([...sides].sort()).toEqual(['BUY', 'SELL']);

    // Our market sell fills against the book: its fill is a SELL on the tape at the fill's price and size.
    const preview = await h.call('orders:preview', { intent: { kind: 'single', market: 'ETH', side: 'SELL', order_type: 'MARKET', size: '0.0137', leverage: 5 } });
    const placed = await h.call('orders:place', { preview_id: preview.preview_id });
    const fill = await h.advanceUntil('our fill', async () => (await h.call('history:fills', { market: 'ETH', offset: 0, limit: 50 })).rows.find((f) => f.order_id === placed.legs[0]!.order_id), 100);
    const ours = await h.advanceUntil(
      'our fill on the tape',
      () =>
        tapes()
          .filter((x) => x.market === 'ETH')
          .at(-1)!
          .trades.find((t) => t.size === fill.size && t.price === fill.price && t.side === 'SELL'),
      100,
    );
    expect(Math.abs(ours.time - fill.filled_at)).toBeLessThan(1_000);
  }, 30_000);

  it('after a switch only the new market arrives; a stop ends the stream', async () => {
    expect(await h.call('markets:watchTrades', { market: 'BTC' })).toEqual({ watching: 'BTC', live: true });
    await h.advanceUntil('a BTC tape', () => tapes().some((t) => t.market === 'BTC'), 250);
    const switchedAt = h.events.length;
    const tapesSince = (at: number) => h.events.slice(at).filter((e) => e.channel === 'event:trades').map((e) => (e.payload as TradesEvent).market);
    // Three more BTC tapes: had the ETH feed stayed on, its tapes would be among them.
    await h.advanceUntil('three more BTC tapes', () => tapesSince(switchedAt).filter((m) => m === 'BTC').length >= 3, 250);
    expect(tapesSince(switchedAt).every((m) => m === 'BTC')).toBe(true);

    expect((await h.fail('markets:watchTrades', { market: 'NOPE' })).reason).toBe('UNKNOWN_MARKET');
    const [watched, stopped] = await Promise.all([h.call('markets:watchTrades', { market: 'ETH' }), h.call('markets:watchTrades', { market: null })]);
    expect(watched.watching).toBe('ETH');
    expect(stopped).toEqual({ watching: null, live: false });
    const stoppedAt = h.events.length;
    // The venue keeps streaming the marks on the same connection: three of their updates after the stop (three
    // ticks of the clock at least, each with its walk's trades), and no tape among them.
    await h.advanceUntil('three mark updates after the stop', () => h.events.slice(stoppedAt).filter((e) => e.channel === 'event:marks').length >= 3, 250);
    expect(tapesSince(stoppedAt)).toEqual([]);
  });
});
