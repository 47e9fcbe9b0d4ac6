/**
 * The trade view's order book through the IPC handlers: a snapshot from the venue's info API and the live
 * l2Book feed of the one watched market over the venue WebSocket (both served by the simulator), keyed by
 * the service's symbol.
 *
 * The simulator runs a manual clock (issue 37): the venue's book and marks move on its ticks (250 ms
 * here), which come as the test moves the clock (advanceUntil, a tick at a time).
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import type { BookView } from '../../../src/shared/ipc.js';
import { AppHarness } from './appHarness.js';

const MAIN = 'PERPS_BOOK_MAIN_KEY';

function expectOrdered(book: BookView): void {
  expect(book.bids.length).toBeGreaterThan(0);
  expect(book.asks.length).toBeGreaterThan(0);
  for (let i = 1; i < book.bids.length; i++) expect(new Decimal(book.bids[i - 1]!.price).gt(book.bids[i]!.price)).toBe(true);
  for (let i = 1; i < book.asks.length; i++) expect(new Decimal(book.asks[i - 1]!.price).lt(book.asks[i]!.price)).toBe(true);
  expect(new Decimal(book.bids[0]!.price).lt(book.asks[0]!.price)).toBe(true);
  for (const l of [...book.bids, ...book.asks]) expect(new Decimal(l.size).gt(0)).toBe(true);
}

describe('order book (sim profile)', () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await AppHarness.start('book', { env: { [MAIN]: Wallet.createRandom().privateKey } });
    await h.call('wallet:connectEnv', { variable: MAIN });
  });
  afterAll(async () => {
    await h.stop();
    h.cleanup();
  });

  it('a snapshot is best first on both sides, keyed by the service symbol; grouping aggregates levels', async () => {
    const full = await h.call('markets:book', { market: 'ETH' });
    expect(full.market).toBe('ETH');
    expect(full.n_sig_figs).toBeNull();
    expectOrdered(full);
    const grouped = await h.call('markets:book', { market: 'ETH', n_sig_figs: 2 });
    expectOrdered(grouped);
    expect(grouped.n_sig_figs).toBe(2);
    for (const l of [...grouped.bids, ...grouped.asks]) expect(new Decimal(l.price).toSignificantDigits(2).eq(l.price)).toBe(true);
    expect((await h.fail('markets:book', { market: 'NOPE' })).reason).toBe('UNKNOWN_MARKET');
    expect((await h.fail('markets:book', { market: 'ETH', n_sig_figs: 7 })).code).toBe('INVALID_PAYLOAD');
  });

  it('watching streams the one watched market live; switching market or stopping releases the previous one', async () => {
    const books = () => h.eventsOf<BookView>('book').map((e) => e.payload);
    expect(await h.call('markets:watchBook', { market: 'ETH' })).toEqual({ watching: 'ETH', live: true });
    await h.advanceUntil('an ETH book', () => books().some((b) => b.market === 'ETH'), 250);
    expectOrdered(books().filter((b) => b.market === 'ETH').at(-1)!);

    expect(await h.call('markets:watchBook', { market: 'BTC', n_sig_figs: 3 })).toEqual({ watching: 'BTC', live: true });
    await h.advanceUntil('a BTC book', () => books().some((b) => b.market === 'BTC'), 250);
    const switchedAt = h.events.length;
    const booksSince = (at: number) => h.events.slice(at).filter((e) => e.channel === 'event:book').map((e) => (e.payload as BookView).market);
    // Three more BTC books: had the ETH feed stayed on, its books would be among them.
    await h.advanceUntil('three more BTC books', () => booksSince(switchedAt).filter((m) => m === 'BTC').length >= 3, 250);
    expect(booksSince(switchedAt).every((m) => m === 'BTC')).toBe(true);

    // A watch and a stop sent together end stopped: the calls are applied in the order they were sent.
    const [watched, stopped] = await Promise.all([h.call('markets:watchBook', { market: 'ETH' }), h.call('markets:watchBook', { market: null })]);
    expect(watched.watching).toBe('ETH');
    expect(stopped).toEqual({ watching: null, live: false });
    const stoppedAt = h.events.length;
    // The venue keeps streaming the marks on the same connection: three of their updates after the stop (three
    // ticks of the clock at least), and no book among them.
    await h.advanceUntil('three mark updates after the stop', () => h.events.slice(stoppedAt).filter((e) => e.channel === 'event:marks').length >= 3, 250);
    expect(booksSince(stoppedAt)).toEqual([]);
  });

  it('the book, the trades tape and the marks share one venue connection, which outlives either feed', async () => {
    const sim = h.sim!;
    expect(await h.call('markets:watchBook', { market: 'ETH' })).toEqual({ watching: 'ETH', live: true });
    expect(await h.call('markets:watchTrades', { market: 'ETH' })).toEqual({ watching: 'ETH', live: true });
    // The marks pump (running since the wallet connected) streams marks over the venue socket too.
    const marksAt = h.events.length;
    await h.advanceUntil('marks after the feeds started', () => h.events.slice(marksAt).some((e) => e.channel === 'event:marks'), 250);
    await h.advanceUntil('an ETH book', () => h.eventsOf<BookView>('book').some((b) => b.payload.market === 'ETH'), 250);
    expect(sim.venueSockets.clientCount).toBe(1);

    // Stopping the book and the tape releases their feeds, not the connection the marks still use.
    await h.call('markets:watchBook', { market: null });
    await h.call('markets:watchTrades', { market: null });
    const afterStop = h.events.length;
    await h.advanceUntil('marks after both feeds stopped', () => h.events.slice(afterStop).some((e) => e.channel === 'event:marks'), 250);
    expect(sim.venueSockets.clientCount).toBe(1);
  });
});
