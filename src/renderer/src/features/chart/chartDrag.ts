/**
 * Trading from the chart, as pure rules: where a dragged line lands (snapped to the tick), whether that
 * place is allowed, and what the drag asks for. A resting limit moved to the other side of the mark
 * would execute at once, a trigger moved past the mark would fire at once (the service rejects it as
 * trigger_past_mark), so both are refused with the reason and the line goes back. A drag from the
 * position's line makes a take-profit on the profitable side of the mark and a stop-loss on the other.
 */
import { roundToStep } from '../../../../shared/decimal/decimal';
import { Decimal, dec } from '../../lib/decimal';

/** A plotted price (a float from the canvas) as decimal text on the tick. */
export function snapToTick(price: number, tick: string): string {
  return roundToStep(new Decimal(price.toPrecision(12)), tick, 'nearest').toFixed();
}

export type DragVerdict<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A resting limit moved to `price`: refused when it would cross the mark (it would execute at once). */
export function judgeLimitMove(side: 'buy' | 'sell', price: string, mark: string | null): DragVerdict<string> {
  const p = dec(price);
  const m = dec(mark);
  if (!p || p.lte(0)) return { ok: false, reason: 'The price must be above 0.' };
  if (m && (side === 'buy' ? p.gte(m) : p.lte(m))) {
    return { ok: false, reason: `A ${side} limit at ${p.toFixed()} is ${side === 'buy' ? 'at or above' : 'at or below'} the mark ${m.toFixed()}: it would execute at once. Drag it ${side === 'buy' ? 'below' : 'above'} the mark.` };
  }
  return { ok: true, value: p.toFixed() };
}

/**
 * A trigger moved to `trigger`: a SELL trigger closes a long (TP above the mark, SL below), a BUY trigger
 * closes a short (the reverse). Its fire price moves by the same amount (keeping its slippage bound),
 * on the tick and above 0.
 */
export function judgeTriggerMove(
  o: { side: 'buy' | 'sell'; tpsl: 'tp' | 'sl' | null; trigger_price: string; limit_price: string },
  trigger: string,
  mark: string | null,
  tick: string,
): DragVerdict<{ trigger: string; fire: string }> {
  const t = dec(trigger);
  const m = dec(mark);
  if (!t || t.lte(0)) return { ok: false, reason: 'The trigger price must be above 0.' };
  if (m && o.tpsl) {
    const wantAbove = (o.tpsl === 'tp') === (o.side === 'sell');
    if (t.eq(m) || t.gt(m) !== wantAbove) {
      return { ok: false, reason: `A ${o.tpsl === 'tp' ? 'take-profit' : 'stop-loss'} ${o.side} trigger must be ${wantAbove ? 'above' : 'below'} the mark ${m.toFixed()}; at ${t.toFixed()} it would fire at once.` };
    }
  }
  const fire = roundToStep(new Decimal(o.limit_price).plus(t.minus(o.trigger_price)), tick, o.side === 'sell' ? 'down' : 'up');
  if (fire.lte(0)) return { ok: false, reason: `Its fire price would be ${fire.toFixed()}: drag it higher.` };
  return { ok: true, value: { trigger: t.toFixed(), fire: fire.toFixed() } };
}

/** A drag from the position's line to `price`: a TP on the profitable side of the mark, an SL on the other. */
export function judgePositionDrag(side: 'LONG' | 'SHORT', price: string, mark: string | null, liquidation: string | null): DragVerdict<{ kind: 'tp' | 'sl'; price: string }> {
  const p = dec(price);
  const m = dec(mark);
  if (!p || p.lte(0)) return { ok: false, reason: 'The price must be above 0.' };
  if (!m) return { ok: false, reason: 'No mark price yet: a take-profit or stop-loss is judged against it.' };
  if (p.eq(m)) return { ok: false, reason: `At the mark ${m.toFixed()} it would fire at once: drag above or below it.` };
  const long = side === 'LONG';
  const kind = p.gt(m) === long ? 'tp' : 'sl';
  const liq = dec(liquidation);
  if (kind === 'sl' && liq && (long ? p.lte(liq) : p.gte(liq))) {
    return { ok: false, reason: `A stop-loss at ${p.toFixed()} is beyond the liquidation estimate ${liq.toFixed()}: it would never fire before liquidation.` };
  }
  return { ok: true, value: { kind, price: p.toFixed() } };
}
