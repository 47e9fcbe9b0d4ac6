/** risk:* — the wallet's risk limits (read, change under the cool-down rule) and the panic action. */
import type { RiskDesk } from '../../app/desks/riskDesk.js';
import type { HandlerGroup } from './types.js';

export function riskHandlers(desk: RiskDesk): HandlerGroup<'risk'> {
  return {
    'risk:getLimits': () => desk.getLimits(),
    'risk:setLimits': (r) => desk.setLimits(r),
    'risk:panic': () => desk.panic(),
  };
}
