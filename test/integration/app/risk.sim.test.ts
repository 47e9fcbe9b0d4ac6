/**
 * Risk and position management through the real IPC handlers (issue 14, points 1 and 2): AppCore on the
 * sim profile, a bracket entry placed through orders:preview / orders:place, then the venue mark moved
 * through the simulator's control API.
 *  - the review carries position_after (size, entry, margin and liquidation estimate of what it leaves);
 *  - positions (stream and positions:list) carry the liquidation estimate and its distance, the armed
 *    whole-position TP and SL, and why closeable is 0;
 *  - account:health computes equity, maintenance margin, margin ratio, leverage and withdrawable, and says so;
 *  - riskWarning lists the positions within the user's distance of their estimate (and clears), and the
 *    liquidation_warning notification fires once per crossing, again only after a recovery, never when
 *    switched off; the distance is the setting liquidation_warning_pct.
 *
 * The simulator runs a manual clock (issue 37): the deposit's credit, the entry's fill and its legs arming
 * come as the test moves it (advanceUntil). A mark set through the control API needs no time: it reaches
 * the venue stream at once, and the positions, the banner and the notification follow it, so those waits
 * are on events.
 *
 * The harness (a connected wallet, an authorized key, 5000 USDC, frozen marks) is shared, but each test
 * builds what it needs: ensure helpers look at the actual positions, orders and settings through IPC and
 * build only what is missing (the bracketed ETH long, the mark outside the warning zone, the default
 * warning settings); the defaults test takes a harness of its own when the shared one already traded.
 * A test that changes a setting restores it in `finally`. So every test passes alone or in any order,
 * and every test must log no error.
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal, canonical, roundToStep } from '../../../src/shared/decimal/index.js';
import type { IpcEventPayload, MarketView, PositionView } from '../../../src/shared/ipc.js';
import { liquidationPrice } from '../../../src/shared/protocol/index.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { SimBed } from '../../support/simBed.js';
import { AppHarness, FAST_SIM_CONFIG, eachTestLogsNoError } from './appHarness.js';

const MAIN = 'PERPS_RISK_MAIN_KEY';
const SYM = 'ETH';

describe('liquidation estimate, account health and the liquidation warning (sim profile, through IPC)', () => {
  let h: AppHarness;
  let sim: RunningSimulator;
  let eth: MarketView;
  let liq: Decimal;

  const control = async (route: string, body: unknown): Promise<void> => {
    await new SimBed(sim).control(route, body);
  };
  /** A mark on the tick grid at `factor` times the estimate. */
  const markAt = (factor: string): string => canonical(roundToStep(liq.mul(factor), eth.tick_size, 'nearest'));
  const lastPositions = (): PositionView[] | undefined => h.eventsOf<IpcEventPayload<'positions'>>('positions').at(-1)?.payload.positions;
  const riskEvents = () => h.eventsOf<IpcEventPayload<'riskWarning'>>('riskWarning').map((e) => e.payload);
  const warningsSent = () => h.notifications.filter((n) => /near liquidation/.test(n.title)).length;
  /** Sets the mark and waits until the positions stream has re-priced at it. */
  const moveMark = async (mark: string): Promise<PositionView> => {
    await control('/mark', { market: SYM, price: mark });
    return h.waitFor(`positions priced at ${mark}`, () => lastPositions()?.find((p) => p.market === SYM && p.mark === mark));
  };
  /** Waits for the latest riskWarning to list the ETH position (or to be empty). */
  const bannerShows = (listed: boolean) =>
    h.waitFor(`a riskWarning ${listed ? 'listing' : 'without'} ${SYM}`, () => {
      const last = riskEvents().at(-1);
      return last !== undefined && last.warnings.some((w) => w.market === SYM) === listed && last;
    });

  /** An AppCore on its own simulator (marks frozen, no funding), its wallet connected, a key authorized and 5000 USDC credited. */
  const setUp = async (label: string): Promise<{ harness: AppHarness; simulator: RunningSimulator }> => {
    let simulator: RunningSimulator | undefined;
    const harness = await AppHarness.start(label, {
      env: { [MAIN]: Wallet.createRandom().privateKey },
      core: {
        startSimulator: async ({ stateFile }) => {
          simulator = await startSimulator({ port: 0, seed: 14, stateFile, manualClock: true, config: FAST_SIM_CONFIG });
          return simulator;
        },
      },
    });
    const bed = new SimBed(simulator!);
    await bed.control('/freeze-marks', {});
    // Funding is paid into isolated margin: a zero rate keeps the estimate where the test put it.
    await bed.control('/funding-rate', { market: SYM, rate: '0' });
    await harness.connectTrader(MAIN, 'risk', '5000');
    return { harness, simulator: simulator! };
  };

  const ethOrders = async () => [...(await h.call('orders:listOpen', { market: SYM })).orders, ...(await h.call('orders:listTriggers', { market: SYM })).triggers];
  const ethPosition = async () => (await h.call('positions:list', {})).positions.find((p) => p.market === SYM);
  /** No ETH order and no ETH position (cancelled and closed at market when there are), on the list and the stream. */
  const ensureFlat = async (): Promise<void> => {
    if ((await ethOrders()).length > 0) {
      await h.advanceDuring('the ETH orders cancelled', h.call('orders:cancelAll', { market: SYM }));
      await h.advanceUntil('no ETH order listed', async () => (await ethOrders()).length === 0, 100);
    }
    if (await ethPosition()) await h.advanceDuring('the ETH position closed', h.call('positions:close', { market: SYM }));
    await h.advanceUntil('no ETH position', async () => (await ethPosition()) === undefined && !lastPositions()?.some((p) => p.market === SYM), 100);
  };
  /** The bracketed ETH long the tests watch (a MARKET entry of 0.5 with TP 1.3x and SL 0.6x the mark), built when missing; `liq` is its estimate. */
  const ensureBracketedLong = async (): Promise<void> => {
    eth = (await h.call('markets:list', {})).markets.find((m) => m.symbol === SYM)!;
    let view = lastPositions()?.find((p) => p.market === SYM && p.side === 'LONG' && p.tp !== null && p.sl !== null);
    if (!view) {
      await ensureFlat();
      eth = (await h.call('markets:list', {})).markets.find((m) => m.symbol === SYM)!;
      const mark = new Decimal(eth.mark!);
      const tp = canonical(roundToStep(mark.mul('1.3'), eth.tick_size, 'down'));
      const sl = canonical(roundToStep(mark.mul('0.6'), eth.tick_size, 'down'));
      const preview = await h.call('orders:preview', { intent: { kind: 'bracket', market: SYM, side: 'BUY', order_type: 'MARKET', size: '0.5', leverage: 5, tp: { trigger_price: tp }, sl: { trigger_price: sl } } });
      expect((await h.call('orders:place', { preview_id: preview.preview_id })).success).toBe(true);
      view = await h.advanceUntil('the ETH long with its armed TP and SL', () => lastPositions()?.find((p) => p.market === SYM && p.tp !== null && p.sl !== null), 100);
    }
    liq = liquidationPrice(view, eth.maintenance_margin_ratio)!;
  };
  /** The warning at its defaults (10 %, notification on), the bracketed long, and its mark 1.3x the estimate: outside the zone and past the recovery. */
  const ensureWatchedOutside = async (): Promise<void> => {
    if ((await h.call('settings:get', {})).liquidation_warning_pct !== 10) await h.call('settings:set', { liquidation_warning_pct: 10 });
    if (!(await h.call('notifications:get', {})).liquidation_warning) await h.call('notifications:set', { liquidation_warning: true });
    await ensureBracketedLong();
    await moveMark(markAt('1.3'));
  };
  /** Waits until the banner lists no ETH: the latest riskWarning does not, or none was ever sent (nothing to clear). */
  const bannerClear = () =>
    h.waitFor(`no riskWarning listing ${SYM}`, () => {
      const last = riskEvents().at(-1);
      return (last === undefined || !last.warnings.some((w) => w.market === SYM)) && (last?.warnings ?? []);
    });
  /** No riskWarning since event `from` listed a position. */
  const noWarningSince = (from: number): boolean => !riskEvents().slice(from).some((e) => e.warnings.length > 0);

  beforeAll(async () => {
    ({ harness: h, simulator: sim } = await setUp('risk'));
    eth = (await h.call('markets:list', {})).markets.find((m) => m.symbol === SYM)!;
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    h?.cleanup();
  });

  eachTestLogsNoError(() => h);

  it('defaults: warn at 10 % of the mark, notification on; health without positions is the free balance', async () => {
    expect((await h.call('settings:get', {})).liquidation_warning_pct).toBe(10);
    expect((await h.call('notifications:get', {})).liquidation_warning).toBe(true);
    // Health without positions needs an account that never traded: the shared one, unless a test traded on it.
    const untouched = (await h.call('positions:list', {})).positions.length === 0 && (await h.call('account:balance', {})).free_balance === '5000';
    const own = untouched ? null : (await setUp('risk-defaults')).harness;
    try {
      const health = await (own ?? h).call('account:health', {});
      expect(health).toMatchObject({ free_balance: '5000', equity: '5000', posted_margin: '0', unrealized_pnl: '0', maintenance_margin: '0', account_leverage: '0', withdrawable: '5000', computed: true });
      expect(health.note).toMatch(/computed/i);
      expect(health.note).toMatch(/no equity endpoint/);
      if (own) expect(own.logs.filter((l) => l.startsWith('error'))).toEqual([]);
    } finally {
      await own?.stop();
      own?.cleanup();
    }
  });

  it('the review shows the position the order leaves; the position then carries its estimate, TP, SL and why it cannot close', async () => {
    await ensureFlat();
    const from = riskEvents().length;
    eth = (await h.call('markets:list', {})).markets.find((m) => m.symbol === SYM)!;
    const mark = new Decimal(eth.mark!);
    const size = '0.5';
    const tp = canonical(roundToStep(mark.mul('1.3'), eth.tick_size, 'down'));
    const sl = canonical(roundToStep(mark.mul('0.6'), eth.tick_size, 'down'));
    const preview = await h.call('orders:preview', { intent: { kind: 'bracket', market: SYM, side: 'BUY', order_type: 'MARKET', size, leverage: 5, tp: { trigger_price: tp }, sl: { trigger_price: sl } } });
    // A MARKET entry is estimated at the mark; the attached TP/SL are left out.
    expect(preview.position_after).toMatchObject({ size, entry_price: canonical(mark) });
    const margin = mark.mul(size).div(5).toDecimalPlaces(6, Decimal.ROUND_UP);
    expect(preview.position_after!.isolated_margin).toBe(canonical(margin));
    expect(preview.position_after!.liquidation_price).toBe(canonical(liquidationPrice({ size, entry_price: mark, isolated_margin: margin }, eth.maintenance_margin_ratio)!));
    const placed = await h.call('orders:place', { preview_id: preview.preview_id });
    expect(placed.success).toBe(true);

    const view = await h.advanceUntil('the ETH long with its armed TP and SL', () => lastPositions()?.find((p) => p.market === SYM && p.tp !== null && p.sl !== null), 100);
    liq = liquidationPrice(view, eth.maintenance_margin_ratio)!;
    expect(view.liquidation_price).toBe(canonical(liq));
    expect(view.liquidation_distance).toBe(canonical(new Decimal(view.mark!).minus(liq).div(view.mark!).toDecimalPlaces(8, Decimal.ROUND_HALF_UP)));
    const { triggers } = await h.call('orders:listTriggers', { market: SYM });
    expect(view.tp).toEqual({ order_id: triggers.find((t) => t.tpsl === 'tp')!.order_id, trigger_price: tp, limit_price: triggers.find((t) => t.tpsl === 'tp')!.limit_price });
    expect(view.sl).toMatchObject({ order_id: triggers.find((t) => t.tpsl === 'sl')!.order_id, trigger_price: sl });
    expect(view).toMatchObject({ closeable: '0', closeable_note: 'Close cancels the armed TP/SL first' });
    // positions:list answers the same view.
    const listed = (await h.call('positions:list', {})).positions.find((p) => p.market === SYM)!;
    expect(listed).toMatchObject({ liquidation_price: view.liquidation_price, tp: view.tp, sl: view.sl, closeable_note: view.closeable_note });
    // About 20 % from its estimate: nothing warned.
    expect(noWarningSince(from)).toBe(true);
  });

  it('account:health: equity = free + posted margin + uPnL at the mark; maintenance, ratio and leverage from it', async () => {
    await ensureBracketedLong();
    const from = riskEvents().length;
    const pos = await moveMark(markAt('1.3'));
    const health = await h.call('account:health', {});
    const free = new Decimal(health.free_balance);
    const equity = free.plus(pos.isolated_margin).plus(pos.unrealized_pnl!);
    const notional = new Decimal(pos.size).abs().mul(pos.mark!);
    const maintenance = notional.mul(eth.maintenance_margin_ratio);
    expect(health).toMatchObject({
      posted_margin: pos.isolated_margin,
      unrealized_pnl: pos.unrealized_pnl,
      equity: canonical(equity),
      open_notional: canonical(notional),
      maintenance_margin: canonical(maintenance.toDecimalPlaces(6, Decimal.ROUND_HALF_UP)),
      margin_ratio: canonical(maintenance.div(equity).toDecimalPlaces(8, Decimal.ROUND_HALF_UP)),
      account_leverage: canonical(notional.div(equity).toDecimalPlaces(8, Decimal.ROUND_HALF_UP)),
      withdrawable: health.free_balance,
      unpriced_markets: [],
    });
    // About 23 % from its estimate: nothing warned.
    expect(noWarningSince(from)).toBe(true);
  });

  it('warns once per crossing: banner and one notification inside 10 %, nothing new while inside, again only after recovering', async () => {
    await ensureWatchedOutside();
    // Outside the zone, the banner lists nothing (the tests that built the position and moved its mark
    // checked that nothing warned on their stretch).
    expect(await bannerClear()).toEqual([]);
    const before = warningsSent();
    const inside = await moveMark(markAt('1.05'));
    const shown = await bannerShows(true);
    expect(shown.threshold_pct).toBe(10);
    expect(shown.warnings.find((w) => w.market === SYM)).toMatchObject({ position_id: inside.id, side: 'LONG', mark: inside.mark, liquidation_price: inside.liquidation_price, distance: inside.liquidation_distance });
    await h.waitFor('the notification', () => warningsSent() === before + 1);
    expect(h.notifications.at(-1)!.body).toContain(inside.liquidation_price!);

    // Deeper inside, then just outside 10 % but short of the 12.5 % recovery, then inside again: no new notification.
    await moveMark(markAt('1.03'));
    await moveMark(markAt('1.12'));
    await bannerShows(false);
    await moveMark(markAt('1.04'));
    await bannerShows(true);
    // The same look at the positions decides the notification and then publishes the banner
    // (pumps/liquidationWatch.ts): once this banner is here, a notification it raised was sent before it.
    expect(warningsSent()).toBe(before + 1);

    // Recovered (past 12.5 %), then crossing again: a second notification.
    await moveMark(markAt('1.3'));
    await bannerShows(false);
    await moveMark(markAt('1.05'));
    await h.waitFor('a second notification after the recovery', () => warningsSent() === before + 2);
  });

  it('switched off, the notification stays silent while the banner still shows; the distance follows the setting', async () => {
    await ensureWatchedOutside();
    try {
      await h.call('notifications:set', { liquidation_warning: false });
      const before = warningsSent();
      await moveMark(markAt('1.3'));
      await bannerClear();
      await moveMark(markAt('1.05'));
      await bannerShows(true);
      // Decided before the banner was published (see above): silent means none was sent.
      expect(warningsSent()).toBe(before);
      await h.call('notifications:set', { liquidation_warning: true });

      // 1.3 x the estimate is about 23 % away: outside the default 10 %, inside 25 %.
      await moveMark(markAt('1.3'));
      await bannerShows(false);
      expect((await h.call('settings:set', { liquidation_warning_pct: 25 })).liquidation_warning_pct).toBe(25);
      const shown = await bannerShows(true);
      expect(shown.threshold_pct).toBe(25);
      await h.waitFor('a notification at the new distance', () => warningsSent() === before + 1);
      expect((await h.fail('settings:set', { liquidation_warning_pct: 0 })).code).toBe('INVALID_PAYLOAD');
      expect((await h.fail('settings:set', { liquidation_warning_pct: 101 })).code).toBe('INVALID_PAYLOAD');
      expect((await h.call('settings:get', {})).liquidation_warning_pct).toBe(25);
    } finally {
      // Back to the defaults, the mark outside the zone again.
      await h.call('notifications:set', { liquidation_warning: true });
      await h.call('settings:set', { liquidation_warning_pct: 10 });
    }
  });

  it('settings:set refuses a default leverage above what the markets allow, as `perps config leverage` does (issue 26.17)', async () => {
    const markets = (await h.call('markets:list', {})).markets;
    const highest = Math.max(...markets.map((m) => m.max_leverage));
    const before = await h.call('settings:get', {});
    try {
      const perMarket = await h.fail('settings:set', { leverage_by_market: { ...before.leverage_by_market, [SYM]: eth.max_leverage + 1 } });
      expect(perMarket).toMatchObject({ code: 'VALIDATION', kind: 'validation' });
      expect(perMarket.message).toContain(`above ${SYM}'s max_leverage ${eth.max_leverage}x`);
      const global = await h.fail('settings:set', { default_leverage: highest + 1 });
      expect(global.message).toContain(`above every market's max_leverage (the highest is ${highest}x`);
      expect(await h.call('settings:get', {})).toEqual(before);
      expect((await h.call('settings:set', { leverage_by_market: { [SYM]: eth.max_leverage } })).leverage_by_market).toEqual({ [SYM]: eth.max_leverage });
      expect((await h.call('settings:set', { default_leverage: highest })).default_leverage).toBe(highest);
    } finally {
      await h.call('settings:set', { default_leverage: before.default_leverage, leverage_by_market: before.leverage_by_market });
    }
  });
});
