/**
 * Alerts in the app (issue 27, item 2) through the real IPC handlers: AppCore on the sim profile, the
 * venue mark moved through the simulator's control API. Main evaluates the alerts on the venue's stream
 * (the page never does): a crossing raises the native notification through the shell's notification port
 * (the harness records what the adapter was asked to show), an `alertFired` event for the toast, and one
 * line of the alerts log; the `alerts` stream follows each change; a new level (a dragged line) is stored
 * in main's store; a PnL alert watches the connected wallet's position. Bad input through IPC is the
 * same refusal as the command line's, and stores nothing.
 *
 * The simulator runs a manual clock (issue 37): the deposit's credit and the fill move as the test moves
 * it. A crossing needs no time: a mark set through the control API reaches the venue stream at once, and
 * main evaluates on that stream, so those waits are on events.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import type { IpcEventPayload } from '../../../src/shared/ipc.js';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { SimBed } from '../../support/simBed.js';
import { AlertStore, type StoredAlert } from '../../../src/main/services/alerts/alertStore.js';
import { AppHarness, FAST_SIM_CONFIG } from './appHarness.js';

const MAIN = 'PERPS_ALERTS_MAIN_KEY';

describe('alerts in the app (sim profile, through IPC)', () => {
  let h: AppHarness;
  let sim: RunningSimulator;

  const control = async (route: string, body: unknown): Promise<void> => {
    await new SimBed(sim).control(route, body);
  };
  const firings = () => h.eventsOf<IpcEventPayload<'alertFired'>>('alertFired').flatMap((e) => e.payload.firings);
  const alertNotifications = () => h.notifications.filter((n) => n.title.startsWith('Alert: '));
  const logLines = () => {
    const file = path.join(h.dataDir, 'alerts.log');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean) : [];
  };

  beforeAll(async () => {
    h = await AppHarness.start('alerts', {
      env: { [MAIN]: Wallet.createRandom().privateKey },
      core: {
        startSimulator: async ({ stateFile }) => {
          sim = await startSimulator({ port: 0, seed: 27, stateFile, manualClock: true, config: FAST_SIM_CONFIG });
          return sim;
        },
      },
    });
    await control('/freeze-marks', {});
    await control('/mark', { market: 'ETH', price: '3400' });
    await control('/funding-rate', { market: 'ETH', rate: '0' });
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    h?.cleanup();
  });

  it('refuses bad input as the command line does, storing nothing', async () => {
    const stored = await h.call('alerts:list', {});
    expect(await h.fail('alerts:add', { market: 'NOPE', kind: 'price_above', value: '1' })).toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/^market: 'NOPE' is not a market/) });
    expect((await h.fail('alerts:add', { market: 'ETH', kind: 'price_above', value: '0' })).message).toMatch(/above: a price level must be above 0/);
    expect((await h.fail('alerts:add', { market: 'ETH', kind: 'price_below', value: '1e400' })).message).toMatch(/'1e400' is not a decimal/);
    expect((await h.fail('alerts:add', { market: 'ETH', kind: 'move', value: '2', window: '0' })).message).toMatch(/window: '0' is not a duration/);
    expect((await h.fail('alerts:add', { market: 'ETH', kind: 'price_above', value: '1', evil: true })).code).toBe('INVALID_PAYLOAD');
    expect((await h.fail('alerts:setLevel', { id: '0123456789ab', level: '1' })).code).toBe('ALERT_NOT_FOUND');
    const after = await h.call('alerts:list', {});
    expect(after.alerts).toEqual(stored.alerts);
    expect(after.damaged).toEqual(stored.damaged);
  });

  it('a crossing fires once: native notification, alertFired event, one log line; the alerts stream follows', async () => {
    await control('/mark', { market: 'ETH', price: '3400' });
    const [firedBefore, notifiedBefore] = [firings().length, alertNotifications().length];
    const a = await h.call('alerts:add', { market: 'ETH', kind: 'price_above', value: '3500', note: 'take profit' });
    expect(a).toMatchObject({ status: 'active', armed: true, repeat: false });
    await h.waitFor('the alerts stream with the new alert', () => h.eventsOf<IpcEventPayload<'alerts'>>('alerts').some((e) => e.payload.alerts.some((x) => x.id === a.id)));
    // An active alert is background work: closing the window would keep the app in the tray, naming it.
    expect(h.core.backgroundWork.active()).toContainEqual({ kind: 'alert', id: a.id, label: 'ETH mark above 3500' });

    await control('/mark', { market: 'ETH', price: '3505' });
    const [fired] = await h.waitFor('the firing', () => firings().length > firedBefore && firings().slice(firedBefore));
    expect(fired).toMatchObject({ id: a.id, market: 'ETH', kind: 'price_above', value: '3505', note: 'take profit', done: true, profile: 'sim', title: 'Alert: ETH mark above 3500' });
    expect(alertNotifications().slice(notifiedBefore)).toEqual([{ title: 'Alert: ETH mark above 3500', body: 'ETH mark 3505 is at or above 3500\ntake profit' }]);
    // Back and across again: a one-shot is done. A second alert at 3510 fires on the same crossing (3520):
    // once it has fired, the evaluator has seen 3520 for every alert, so the first one's silence is
    // checked after an event, not after a sleep.
    await h.waitFor('the stream to carry the done alert', () => h.eventsOf<IpcEventPayload<'alerts'>>('alerts').at(-1)?.payload.alerts.find((x) => x.id === a.id)?.status === 'done');
    const marker = await h.call('alerts:add', { market: 'ETH', kind: 'price_above', value: '3510' });
    await control('/mark', { market: 'ETH', price: '3400' });
    await control('/mark', { market: 'ETH', price: '3520' });
    await h.waitFor('the second alert firing on 3520', () => firings().some((f) => f.id === marker.id));
    // Done, it no longer keeps the app in the tray.
    expect(h.core.backgroundWork.active().filter((w) => w.id === a.id)).toEqual([]);
    expect(firings().filter((f) => f.id === a.id)).toHaveLength(1);
    expect(alertNotifications().filter((n) => n.title === 'Alert: ETH mark above 3500')).toHaveLength(1);
    expect(logLines().filter((l) => l.includes(a.id))).toHaveLength(1);
    const list = await h.call('alerts:list', {});
    // The newest firings first: these two (another test's may follow).
    expect(list.recent.map((f) => f.id).slice(0, 2)).toEqual([marker.id, a.id]);
    await h.call('alerts:remove', { id: marker.id });
  });

  it('a new level (a dragged line) is stored in main; switched-off notifications still toast', async () => {
    // The mark above the line dragged to 3450.5, so a "below" line stays one (below the mark it would turn round).
    await control('/mark', { market: 'ETH', price: '3520' });
    await h.call('notifications:set', { alerts: false });
    try {
      const a = await h.call('alerts:add', { market: 'ETH', kind: 'price_below', value: '3000', repeat: true });
      const moved = await h.call('alerts:setLevel', { id: a.id, level: '3450.5' });
      expect(moved).toMatchObject({ id: a.id, rule: { kind: 'price_below', level: '3450.5' }, armed: true });
      expect((await h.fail('alerts:setLevel', { id: a.id, level: '-3' })).message).toMatch(/above 0/);
      expect((await h.call('alerts:list', {})).alerts.find((x) => x.id === a.id)?.rule).toEqual({ kind: 'price_below', level: '3450.5' });
      const before = firings().length;
      const notified = alertNotifications().length;
      await control('/mark', { market: 'ETH', price: '3440' });
      await h.waitFor('the firing at the dragged level', () => firings().length > before);
      expect(firings().at(-1)).toMatchObject({ id: a.id, value: '3440', done: false });
      expect(alertNotifications()).toHaveLength(notified);
      await h.call('alerts:remove', { id: a.id });
      // A price line dragged to the other side of the mark (3440) turns round: it fires when the mark gets there.
      const up = await h.call('alerts:add', { market: 'ETH', kind: 'price_above', value: '4000' });
      expect(await h.call('alerts:setLevel', { id: up.id, level: '3000' })).toMatchObject({ rule: { kind: 'price_below', level: '3000' }, armed: true });
      await h.call('alerts:remove', { id: up.id });
    } finally {
      await h.call('notifications:set', { alerts: true });
    }
  });

  it("a PnL alert watches the connected wallet's position", async () => {
    await h.call('wallet:connectEnv', { variable: MAIN });
    const { agent } = await h.call('keys:create', { name: 'alerts' });
    const review = await h.call('keys:review', { action: 'authorize', agent, expires_in_days: 30 });
    await h.call('keys:authorize', { review_id: review.review_id });
    await h.call('funding:faucet', { amount: '5000' });
    await h.advanceUntil('the deposit', async () => (await h.call('account:balance', {})).free_balance === '5000', 100);
    const preview = await h.call('orders:preview', { intent: { kind: 'single', market: 'ETH', side: 'BUY', order_type: 'MARKET', size: '0.1', leverage: 5 } });
    await h.call('orders:place', { preview_id: preview.preview_id });
    const pnl = await h.call('alerts:add', { market: 'ETH', kind: 'pnl_above', value: '5', note: 'scale out' });
    expect(pnl.wallet).toBe((await h.call('wallet:current', {})).address!.toLowerCase());
    await h.advanceUntil('the position', async () => (await h.call('positions:list', {})).positions.some((p) => p.market === 'ETH'), 100);
    const entry = (await h.call('positions:list', {})).positions.find((p) => p.market === 'ETH')!;
    // +100 USDC a coin on 0.1: +10 USDC.
    await control('/mark', { market: 'ETH', price: new Decimal(entry.entry_price).plus(100).toFixed() });
    await h.waitFor('the PnL firing', () => firings().some((f) => f.id === pnl.id));
    expect(firings().find((f) => f.id === pnl.id)).toMatchObject({ kind: 'pnl_above', note: 'scale out', done: true });
    expect(alertNotifications().at(-1)?.title).toBe('Alert: ETH unrealized PnL above 5 USDC');
  }, 60_000);

  it('damaged stored alerts are listed apart with why, never evaluated, on the stream, and removable', async () => {
    // Written past the rules of a new alert, as a hand edit or an older version would: a move of 0 % that
    // repeats, a level of -5, a note carrying an OSC 52 clipboard write, a market the service does not list.
    const base = { profile: 'sim', created_at: 1, status: 'active' as const, armed: true, fired_count: 0, last_fired_at: null, last_fired_value: null, wallet: null };
    const planted: StoredAlert[] = [
      { ...base, id: 'dddddddddd01', market: 'ETH', rule: { kind: 'move', pct: '0', window_ms: 60_000 }, armed: null, repeat: true, note: '' },
      { ...base, id: 'dddddddddd02', market: 'ETH', rule: { kind: 'price_above', level: '-5' }, repeat: false, note: '' },
      { ...base, id: 'dddddddddd03', market: 'ETH', rule: { kind: 'price_above', level: '3600' }, repeat: false, note: 'pay \u001b]52;c;ZXZpbA==\u0007\u202e' },
      { ...base, id: 'dddddddddd04', market: 'DOGE', rule: { kind: 'price_below', level: '1' }, repeat: false, note: '' },
    ];
    new AlertStore(h.dataDir).transact((file) => ({ next: { ...file, alerts: [...file.alerts, ...planted] }, result: null }));
    const list = await h.call('alerts:list', {});
    expect(list.alerts.filter((a) => a.id.startsWith('dddddddddd'))).toEqual([]);
    expect(list.damaged).toEqual([
      { id: 'dddddddddd01', market: 'ETH', kind: 'move', problems: [expect.stringMatching(/above 0/)] },
      { id: 'dddddddddd02', market: 'ETH', kind: 'price_above', problems: [expect.stringMatching(/above 0/)] },
      { id: 'dddddddddd03', market: 'ETH', kind: 'price_above', problems: ['note: no control characters or line breaks'] },
      { id: 'dddddddddd04', market: 'DOGE', kind: 'price_below', problems: ["market: 'DOGE' is not a market this service lists"] },
    ]);
    // eslint-disable-next-line no-control-regex
    expect(JSON.stringify(list.damaged)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    // Never evaluated: the 0 % move and the crossed 3600 do not fire, and they keep nothing in the tray.
    expect(h.core.backgroundWork.active().filter((w) => w.id.startsWith('dddddddddd'))).toEqual([]);
    const before = firings().length;
    await control('/mark', { market: 'ETH', price: '3700' });
    // The stream carries them apart too: another process wrote the file, and the evaluator re-reads it at
    // an observation (a mark) once its look at the file is due.
    let tick = 0;
    await h.waitFor('the stream with the damaged alerts', async () => {
      if (h.eventsOf<IpcEventPayload<'alerts'>>('alerts').at(-1)?.payload.damaged.length === 4) return true;
      // The evaluator looks at the file at most every 500 ms of observations: the marks keep coming, as they do live.
      await control('/mark', { market: 'ETH', price: tick++ % 2 === 0 ? '3701' : '3700' });
      return false;
    });
    const streamed = h.eventsOf<IpcEventPayload<'alerts'>>('alerts').at(-1)!.payload;
    expect(streamed.damaged.map((d) => d.id)).toEqual(['dddddddddd01', 'dddddddddd02', 'dddddddddd03', 'dddddddddd04']);
    expect(streamed.alerts.some((a) => a.id.startsWith('dddddddddd'))).toBe(false);
    await control('/mark', { market: 'ETH', price: '3400' });
    await control('/mark', { market: 'ETH', price: '3650' });
    // A healthy alert added after them fires on the next crossing: the marks were evaluated, the damaged ones were not.
    const probe = await h.call('alerts:add', { market: 'ETH', kind: 'price_above', value: '3660' });
    await control('/mark', { market: 'ETH', price: '3670' });
    await h.waitFor('the healthy alert to fire', () => firings().some((f) => f.id === probe.id));
    expect(firings().slice(before).map((f) => f.id)).toEqual([probe.id]);
    await h.call('alerts:remove', { id: probe.id });
    // Removable from the app, as `perps alert rm` removes them.
    for (const d of planted) expect(await h.call('alerts:remove', { id: d.id })).toMatchObject({ id: d.id });
    expect((await h.call('alerts:list', {})).damaged).toEqual([]);
    await h.waitFor('the stream without them', () => h.eventsOf<IpcEventPayload<'alerts'>>('alerts').at(-1)?.payload.damaged.length === 0);
  });
});
