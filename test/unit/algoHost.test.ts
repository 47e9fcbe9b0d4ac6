/**
 * The app's one algorithm host (src/main/app/algos/algoHost.ts) with fake runners and a fake session:
 * notifications come from typed events by the kind's table, never from the text; the answer to a stop
 * asked here is not news; running ones are background work; after a reset what no process runs is taken
 * up (only for kinds that resume on their own) and what belongs to another wallet or profile is let go;
 * quitting lets go of everything.
 */
import { describe, expect, it } from 'vitest';
import { AlgoHost, type AlgoKindConfig, type HostedRunner } from '../../src/main/app/algos/algoHost.js';
import { BackgroundWork } from '../../src/main/app/backgroundWork.js';
import type { DeskContext } from '../../src/main/app/deskContext.js';
import type { AlgoEvent, AlgoEventListener, StopKind } from '../../src/main/services/algos/engine/index.js';

class FakeRunner implements HostedRunner {
  readonly stops: StopKind[] = [];
  private finish!: () => void;
  private fail!: (err: Error) => void;
  readonly ran = new Promise<void>((resolve, reject) => {
    this.finish = resolve;
    this.fail = reject;
  });
  runs = 0;
  constructor(
    readonly id: string,
    readonly emit: AlgoEventListener = () => undefined,
  ) {}
  run(): Promise<unknown> {
    this.runs++;
    return this.ran;
  }
  requestStop(kind: StopKind = 'interrupt'): void {
    this.stops.push(kind);
    // As a runner does: the stop is answered with its event, then the run ends.
    this.emit({ kind: 'trailing', id: this.id, type: 'stopped', text: `stopped (${kind})`, at: 2 });
    this.finish();
  }
  end(): void {
    this.finish();
  }
  crash(err: Error): void {
    this.fail(err);
  }
}

function fakeSession() {
  const resets: (() => void)[] = [];
  const state = { wallet: FIRST as string | null, profile: 'sim' };
  const notifications: { kind: string; title: string; body: string }[] = [];
  const raised: string[] = [];
  const logs: string[] = [];
  const work = new BackgroundWork();
  const session = {
    logger: { info: (m: string) => logs.push(m), warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m) },
    backgroundWork: work,
    onReset: (l: () => void) => resets.push(l),
    get profile() {
      return { name: state.profile };
    },
    requireProfile: () => ({ name: state.profile }),
    wallet: { address: () => state.wallet },
    ctx: () => ({ profile: { name: state.profile } }),
    raise: (e: { type: string }) => raised.push(e.type),
    notify: (kind: string, title: string, body: string) => notifications.push({ kind, title, body }),
  } as unknown as DeskContext;
  const reset = async (): Promise<void> => {
    for (const l of resets) l();
    await new Promise((r) => setTimeout(r, 0));
  };
  return { session, state, notifications, raised, logs, work, reset };
}

const FIRST = '0xAAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

const event = (over: Partial<AlgoEvent>): AlgoEvent => ({ kind: 'trailing', id: 'aaaaaaaaaaaa', type: 'acted', text: 'x', at: 1, market: 'ETH', ...over });

function trailingConfig(over: Partial<AlgoKindConfig> = {}): AlgoKindConfig {
  return {
    kind: 'trailing',
    work: 'trailing_stop',
    tag: '[trail]',
    label: (i) => `Trailing stop on ${i.market}`,
    notify: { attention: { category: 'trigger_fires', title: (_e, m) => `${m} trailing stop` }, stopped: { category: 'trigger_fires', title: (_e, m) => `${m} trailing ended` }, failed: { category: 'trigger_fires', title: (_e, m) => `${m} trailing stop stopped`, body: (e) => `${e.text} The last level stays armed.` } },
    raise: { acted: [{ type: 'positions.changed' }] },
    perWallet: true,
    ...over,
  };
}

describe('the algorithm host', () => {
  it('notifies from the event type by the kind table, never from the text', () => {
    const f = fakeSession();
    const host = new AlgoHost(f.session);
    host.register(trailingConfig());
    const on = host.listener('trailing');
    // The text a regex used to match, on an event type the table does not notify: nothing.
    on(event({ type: 'acted', text: 'While the desk was away (30 s), ETH made a high of 3,500' }));
    on(event({ type: 'started', text: 'trailing ended: position_closed' }));
    expect(f.notifications).toEqual([]);
    expect(f.raised).toEqual(['positions.changed']);
    // Any text on a notified type: notified, with the rule's title and body.
    on(event({ type: 'attention', text: 'caught up' }));
    on(event({ type: 'failed', text: 'boom.' }));
    expect(f.notifications).toEqual([
      { kind: 'trigger_fires', title: 'ETH trailing stop', body: 'caught up' },
      { kind: 'trigger_fires', title: 'ETH trailing stop stopped', body: 'boom. The last level stays armed.' },
    ]);
    // Every event is logged, with its type.
    expect(f.logs.filter((l) => l.startsWith('[trail] trailing aaaaaaaaaaaa (ETH)'))).toHaveLength(4);
  });

  it('keeps runners as background work until their run ends, and the answer to a stop asked here is not news', async () => {
    const f = fakeSession();
    const host = new AlgoHost(f.session);
    host.register({ kind: 'twap', work: 'twap', tag: '[twap]', label: (i) => `TWAP ${i.id}`, notify: { paused: { category: 'alerts', title: (_e, m) => `TWAP ${m} paused`, when: (e) => e.reason !== 'requested' } }, perWallet: false });
    const on = host.listener('twap');
    const a = new FakeRunner('aaaaaaaaaaaa');
    const b = new FakeRunner('bbbbbbbbbbbb');
    host.keep('twap', a, { market: 'ETH', wallet: f.state.wallet! });
    host.keep('twap', b, { market: 'BTC', wallet: f.state.wallet! });
    expect(f.work.active()).toEqual([
      { kind: 'twap', id: 'aaaaaaaaaaaa', label: 'TWAP aaaaaaaaaaaa' },
      { kind: 'twap', id: 'bbbbbbbbbbbb', label: 'TWAP bbbbbbbbbbbb' },
    ]);
    // The person paused a here: its paused event answers that.
    const stopping = host.stop('twap', 'aaaaaaaaaaaa', 'pause');
    on(event({ kind: 'twap', id: 'aaaaaaaaaaaa', type: 'paused', text: 'paused' }));
    expect(await stopping).toBe(true);
    expect(a.stops).toEqual(['pause']);
    // b paused by something else (a risk limit): news, and its market comes from the host when the event has none.
    // A pause asked elsewhere (a terminal's `perps twap pause`), typed `requested`: not news either.
    on(event({ kind: 'twap', id: 'bbbbbbbbbbbb', type: 'paused', text: 'paused by a risk limit (words do not decide)', reason: 'requested' }));
    const { market: _m, ...noMarket } = event({ kind: 'twap', id: 'bbbbbbbbbbbb', type: 'paused', text: 'paused by a risk limit', reason: 'risk_limit' });
    on(noMarket);
    expect(f.notifications).toEqual([{ kind: 'alerts', title: 'TWAP BTC paused', body: 'paused by a risk limit' }]);
    expect(f.work.active().map((w) => w.id)).toEqual(['bbbbbbbbbbbb']);
    b.crash(new Error('disk full'));
    await new Promise((r) => setTimeout(r, 0));
    expect(f.work.active()).toEqual([]);
    expect(f.logs.some((l) => /\[twap\] twap bbbbbbbbbbbb \(BTC\) stopped on an error: .*disk full/.test(l))).toBe(true);
    expect(await host.stop('twap', 'bbbbbbbbbbbb', 'cancel')).toBe(false);
  });

  it('after a reset takes up what no process runs, for kinds that resume on their own; lets go of another wallet’s', async () => {
    const f = fakeSession();
    const host = new AlgoHost(f.session);
    const opened: FakeRunner[] = [];
    const candidates = [
      { id: 'aaaaaaaaaaaa', market: 'ETH' },
      { id: 'cccccccccccc', market: 'SOL' },
    ];
    host.register(
      trailingConfig({
        resume: {
          candidates: (_ctx, wallet) => (wallet === FIRST ? candidates : []),
          open: (_ctx, id, on) => {
            const r = new FakeRunner(id, on);
            opened.push(r);
            return r;
          },
        },
      }),
    );
    host.register({ kind: 'twap', work: 'twap', tag: '[twap]', label: (i) => `TWAP ${i.id}`, notify: {}, perWallet: false });
    // Already running here: never opened twice.
    const running = new FakeRunner('aaaaaaaaaaaa', host.listener('trailing'));
    host.keep('trailing', running, { market: 'ETH', wallet: f.state.wallet! });
    const twap = new FakeRunner('dddddddddddd');
    host.keep('twap', twap, { market: 'ETH', wallet: f.state.wallet! });
    await f.reset();
    expect(opened.map((r) => r.id)).toEqual(['cccccccccccc']);
    expect(opened[0]!.runs).toBe(1);
    expect(host.of('trailing').map((i) => i.id).sort()).toEqual(['aaaaaaaaaaaa', 'cccccccccccc']);
    // The resumed one's events reach the host.
    opened[0]!.emit(event({ id: 'cccccccccccc', type: 'attention', text: 'While away', market: 'SOL' }));
    expect(f.notifications.at(-1)).toEqual({ kind: 'trigger_fires', title: 'SOL trailing stop', body: 'While away' });

    // Another wallet: the trailing stops (per wallet) are let go, the TWAP (per profile) keeps running.
    f.state.wallet = '0xBBbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
    await f.reset();
    expect(running.stops).toEqual(['interrupt']);
    expect(opened[0]!.stops).toEqual(['interrupt']);
    expect(twap.stops).toEqual([]);
    expect(host.of('trailing')).toEqual([]);
    // Their stopped events answered the let-go: not news (a trailing stop that ended on its own is).
    expect(f.notifications.filter((n) => n.title.endsWith('trailing ended'))).toEqual([]);
    expect(f.logs.filter((l) => /trailing (aaaaaaaaaaaa|cccccccccccc) \((ETH|SOL)\) stopped: stopped \(interrupt\)/.test(l))).toHaveLength(2);

    // Another profile: the TWAP is let go too. Quitting lets go of what is left and waits for it.
    f.state.profile = 'mainnet';
    await f.reset();
    expect(twap.stops).toEqual(['interrupt']);
    const last = new FakeRunner('eeeeeeeeeeee');
    host.keep('twap', last, { market: 'ETH', wallet: f.state.wallet });
    await host.close();
    expect(last.stops).toEqual(['interrupt']);
    expect(f.work.active()).toEqual([]);
  });
});
