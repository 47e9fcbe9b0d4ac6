/**
 * Cancelling an OCO pair: both legs that still rest are cancelled and the pair ends (`cancelled`). The
 * app's Cancel on a pair (oco:cancel); the runner that watched it is stopped first, and the pair's run
 * lock is held while this runs, so a pair a terminal watches is refused (OCO_LOCKED) instead of raced.
 *
 * A stored record never outranks the service: each leg's order id is checked against the pair's market's
 * order history (legDisagreement) before a cancel is sent for it; one that disagrees marks the pair
 * damaged and nothing is sent. A leg whose order id is not known yet (its batch's answer was lost moments
 * ago) is refused with OCO_SETTLING: the runner finds it first, then the pair can be cancelled.
 */
import { Decimal, canonical } from '../../../../shared/decimal/index.js';
import type { OcoLeg, OcoRecord } from '../../../../shared/algos/ocoRecord.js';
import { OperationError, ValidationError } from '../../errors.js';
import { prepareCancelOrders, submitCancel } from '../../orders/cancelOrders.js';
import type { TradingContext } from '../../orders/orderContext.js';
import { serviceAlgoClock } from '../algoClock.js';
import { withAlgoNote } from '../engine/algoNotes.js';
import { acquireRunLock } from '../runLock.js';
import { latestHistoryRow } from '../sentOrderLookup.js';
import { legDisagreement, ocoStoreOf } from './ocoRunner.js';

const CANCEL_NAMING = { what: 'OCO pair', code: 'OCO', stopHint: () => 'Stop it where it runs (Ctrl-C in that terminal), then cancel it here' };

/** Statuses under which a leg may still rest at the service. */
const MAY_REST = new Set<OcoLeg['status']>(['open', 'partial']);

export async function cancelOcoPair(ctx: TradingContext, id: string): Promise<OcoRecord> {
  const store = ocoStoreOf(ctx);
  const lock = acquireRunLock(store.dir, id, CANCEL_NAMING);
  try {
    const r = store.require(id, ctx.profile.name);
    if (r.status !== 'working') throw new OperationError('OCO_FINISHED', `OCO pair ${id} is ${r.status}; there is nothing left to cancel`);
    if (r.legs.some((l) => l.status === 'sending')) {
      throw new OperationError('OCO_SETTLING', `OCO pair ${id} has a leg whose order is not known yet (its answer was lost); it is being looked up`, { kind: 'transient', hint: 'Try again in a few seconds.' });
    }
    const rows = await Promise.all(r.legs.map((l) => (l.order_id && MAY_REST.has(l.status) ? latestHistoryRow(ctx, r.wallet, r.market, l.order_id, r.created_at) : Promise.resolve(null))));
    for (const [i, l] of r.legs.entries()) {
      const row = rows[i];
      if (!row) continue;
      const why = legDisagreement(r, l, row);
      if (why) {
        store.markDamaged(id, `leg ${i + 1} (${l.side.toLowerCase()} ${l.size} at ${l.price}): ${why}`);
        throw new ValidationError(`OCO pair ${id} disagrees with the service: leg ${i + 1}: ${why}; nothing was cancelled`, { code: 'OCO_RECORD_DAMAGED' });
      }
    }
    const targets = r.legs.flatMap((l, i) => (l.order_id && rows[i]?.status === 'open' ? [{ i, order_id: l.order_id }] : []));
    const clock = serviceAlgoClock(ctx);
    let legs = r.legs.map((l, i) => {
      const row = rows[i];
      return row ? { ...l, filled_size: canonical(new Decimal(row.filled_size)) } : l;
    }) as [OcoLeg, OcoLeg];
    const said: string[] = [];
    if (targets.length > 0) {
      const prepared = await prepareCancelOrders(ctx, { wallet: r.wallet, targets: targets.map((t) => ({ order_id: t.order_id, order_type: 'LIMIT' as const })) });
      const res = await submitCancel(ctx, prepared, await ctx.tradingSigner(r.wallet), { confirm: true });
      for (const t of targets) {
        const got = res.results.find((x) => x.order_id === t.order_id);
        const filled = got?.final_status === 'FILLED';
        if (got?.confirmed) legs = legs.map((l, j) => (j === t.i ? { ...l, status: filled ? 'filled' : 'cancelled' } : l)) as [OcoLeg, OcoLeg];
        said.push(`leg ${t.i + 1} ${!got?.confirmed ? 'may still rest (its cancel was not confirmed)' : filled ? 'filled before its cancel landed' : 'cancelled'}`);
      }
    }
    const unconfirmed = legs.some((l, i) => targets.some((t) => t.i === i) && MAY_REST.has(l.status));
    if (unconfirmed) {
      store.update(id, (x) => ({ ...x, legs }));
      throw new OperationError('CANCEL_UNCONFIRMED', `OCO pair ${id}: ${said.join('; ')}. It stays watched; check its legs in Open orders`, { kind: 'transient' });
    }
    const at = await clock.now();
    const text = `cancelled by the person: ${said.length > 0 ? said.join('; ') : 'neither leg rested any more'}`;
    return store.update(id, (x) => ({ ...x, status: 'cancelled', legs, notes: withAlgoNote(x.notes, at, text) }));
  } finally {
    lock.release();
  }
}
