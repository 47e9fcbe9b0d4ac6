/**
 * A position closed at market tells the trader it filled, as any order does: the close's fill arrives as a
 * `fills` event and its own "Order filled" notification at once. Before, only a resting limit close was
 * followed by the orders pump; a market close's fill waited for the next fill the pump read and then came
 * merged into it ("Orders filled: 2 new fills"), however much later that was.
 *
 * Through the REAL registered IPC handlers on an AppCore with its in-process simulator (manual clock) and
 * the real keychain. Each test builds the position it closes.
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import type { IpcEventPayload } from '../../../src/shared/ipc.js';
import { AppHarness, eachTestLogsNoError } from './appHarness.js';

describe('a market close is notified as its own fill', () => {
  let h: AppHarness;
  const MAIN = 'PERPS_CLOSE_FILL_MAIN_KEY';

  const positionOf = async (market: string) => (await h.call('positions:list', {})).positions.find((p) => p.market === market);
  const fillNotices = (from: number) => h.notifications.slice(from).filter((n) => n.title === 'Order filled' || n.title === 'Orders filled');
  const fillsOf = (orderId: string) =>
    h
      .eventsOf<IpcEventPayload<'fills'>>('fills')
      .flatMap((e) => e.payload.fills)
      .filter((f) => f.order_id === orderId);

  /** A long of `size` bought at market, its own fill notified before the test goes on. */
  const openLong = async (market: string, size: string): Promise<void> => {
    const from = h.notifications.length;
    const was = new Decimal((await positionOf(market))?.size ?? 0);
    const preview = await h.call('orders:preview', { intent: { kind: 'single', market, side: 'BUY', order_type: 'MARKET', size, leverage: 5 } });
    const codes = preview.confirmations.map((c) => c.code);
    expect((await h.call('orders:place', { preview_id: preview.preview_id, ...(codes.length > 0 ? { confirm: codes } : {}) })).success).toBe(true);
    await h.advanceUntil(`the ${market} buy on the position`, async () => new Decimal((await positionOf(market))?.size ?? 0).gt(was), 100);
    await h.advanceUntil(`the ${market} buy notified`, () => fillNotices(from).length > 0, 100);
  };

  beforeAll(async () => {
    h = await AppHarness.start('close-fill', { env: { [MAIN]: Wallet.createRandom().privateKey } });
    await h.connectTrader(MAIN, 'close fill', '20000');
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    h?.cleanup();
  });

  eachTestLogsNoError(() => h);

  it('closing a long at market: its fill event and its own "Order filled" notification, naming the close', async () => {
    await openLong('ETH', '0.05');
    const size = (await positionOf('ETH'))!.size;
    const from = h.notifications.length;
    const closed = await h.advanceDuring('the market close', h.call('positions:close', { market: 'ETH' }));
    expect(closed).toMatchObject({ resting: false, order_type: 'MARKET' });
    const orderId = closed.order_id!;
    // Nothing else fills meanwhile: the notification can only be the close's, and it is alone.
    const [notice] = await h.advanceUntil('the close notified', () => fillNotices(from).length > 0 && fillNotices(from), 100);
    expect(notice).toEqual({ title: 'Order filled', body: expect.stringMatching(new RegExp(`^Close Long ${size.replace('.', '\\.')} ETH at \\d`)) });
    expect(fillsOf(orderId).map((f) => f.size)).toEqual([size]);
    expect(await positionOf('ETH')).toBeUndefined();
  });

  it('the next fill after a market close is notified alone, not merged with the close', async () => {
    await openLong('BTC', '0.002');
    const closed = await h.advanceDuring('the market close', h.call('positions:close', { market: 'BTC' }));
    expect(closed).toMatchObject({ resting: false });
    await h.advanceUntil('the close notified', () => fillsOf(closed.order_id!).length > 0, 100);
    const from = h.notifications.length;
    await openLong('BTC', '0.002');
    expect(fillNotices(from)).toEqual([{ title: 'Order filled', body: expect.stringMatching(/^Open Long 0\.002 BTC at \d/) }]);
  });
});
