/**
 * Trailing stops in the app: set from the TP/SL dialog (trail:start), stopped (trail:off), and run here in
 * main with the same runner as `perps position trail` (services/algos/trailing). The data folder is
 * shared with the command line, and one process trails a position (its run lock), so the app never trails
 * a position the command line trails.
 *
 * When the app opens a wallet, the trailing stops it left (closed, crashed, offline) are taken up again:
 * the candles missed are read, the stop is moved to where it should be now, and what happened while it
 * was away is said in a notification. Closing the app stops trailing and leaves the last levels armed.
 */
import type { TrailResult } from '../../../shared/ipc/trail.js';
import { openTrailRunner, prepareTrail, startTrail, trailingViews, trailStoreOf, turnOffTrail } from '../../services/algos/trailing/index.js';
import type { AlgoEventListener } from '../../services/algos/engine/index.js';
import { recordsToTakeUp, type AlgoHost } from '../algos/algoHost.js';
import type { DeskContext } from '../deskContext.js';

const POSITIONS_CHANGED = [{ type: 'positions.changed' }] as const;

export class TrailDesk {
  constructor(
    private readonly session: DeskContext,
    private readonly host: AlgoHost,
  ) {
    host.register({
      kind: 'trailing',
      work: 'trailing_stop',
      tag: '[trail]',
      label: (item) => `Trailing stop on ${item.market}`,
      // What happened while away, trailing ending on its own, and a failure are news; a moved stop is not.
      notify: {
        attention: { category: 'trigger_fires', title: (_e, market) => `${market} trailing stop` },
        stopped: { category: 'trigger_fires', title: (_e, market) => `${market} trailing stop` },
        failed: { category: 'trigger_fires', title: (_e, market) => `${market} trailing stop stopped`, body: (e) => `${e.text} The last level stays armed.` },
      },
      // A moved stop (and what was caught up) changes the position row.
      raise: { acted: POSITIONS_CHANGED, attention: POSITIONS_CHANGED },
      perWallet: true,
      resume: {
        candidates: (ctx, wallet) => {
          return recordsToTakeUp(trailStoreOf(ctx), ctx.profile.name, wallet, (r) => r.status === 'trailing')
            .map((r) => ({ id: r.id, market: r.market }));
        },
        open: (ctx, id, onAlgoEvent) => openTrailRunner(ctx, id, withEvents(onAlgoEvent)),
      },
      onEnded: () => this.session.raise({ type: 'positions.changed' }),
    });
  }

  private result(market: string): TrailResult {
    return { market, trailing: trailingViews(this.session.ctx(), this.session.wallet.requireAddress()).get(market) ?? null };
  }

  /** Arms (or takes up) the position's trailing stop and keeps it trailing here. */
  async start(req: { market: string; distance: string; activate?: string | undefined }): Promise<TrailResult> {
    const ctx = this.session.ctx();
    const wallet = this.session.wallet.requireAddress();
    const prepared = await prepareTrail(ctx, { wallet, market: req.market, distance: req.distance, ...(req.activate !== undefined ? { activate: req.activate } : {}) });
    const runner = await startTrail(ctx, prepared, await ctx.tradingSigner(prepared.wallet), withEvents(this.host.listener('trailing')));
    this.host.keep('trailing', runner, { market: req.market, wallet: prepared.wallet });
    this.session.raise({ type: 'positions.changed' });
    return this.result(req.market);
  }

  /** Stops trailing; the armed level stays. */
  async off(req: { market: string }): Promise<TrailResult> {
    const r = turnOffTrail(this.session.ctx(), { market: req.market, wallet: this.session.wallet.requireAddress() });
    // Asked here: its end is the answer, not news. Not waited for: the record already says it is off.
    void this.host.stop('trailing', r.id, 'interrupt');
    this.session.raise({ type: 'positions.changed' });
    return this.result(req.market);
  }
}

/** A runner's options carrying the host's typed-event listener (a variable, so a runner not yet on the engine compiles too). */
function withEvents(onAlgoEvent: AlgoEventListener) {
  const options = { onAlgoEvent };
  return options;
}
