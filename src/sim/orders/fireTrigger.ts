/**
 * Firing an armed trigger: SUBMITTED -> ACCEPTED (listed as `triggered`), then executed as an IOC market
 * order bounded by limit_price once the venue's fire delay has passed. Its own module, because marks
 * (triggers.ts), bracket legs arming past their level (brackets.ts) and modifies (modify.ts) all fire.
 */
import type { SimContext } from '../context.js';
import type { SimOrder } from '../state/model.js';
import { transition } from './stateMachine.js';

export function fireTrigger(ctx: SimContext, order: SimOrder): void {
  order.fired_at = ctx.clock.now();
  transition(ctx, order, 'ACCEPTED');
  ctx.jobs.add('order.execute', ctx.timings.trigger_fire_ms, { order_id: order.order_id });
}
