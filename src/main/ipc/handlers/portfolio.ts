/** portfolio:* — the report rebuilt from the service's records (its progress on the portfolioProgress stream, cancel), and CSV export of its tables. */
import type { PortfolioDesk } from '../../app/desks/portfolioDesk.js';
import type { HandlerGroup } from './types.js';

export function portfolioHandlers(desk: PortfolioDesk): HandlerGroup<'portfolio'> {
  return {
    'portfolio:get': (r) => desk.get(r),
    'portfolio:exportCsv': (r) => desk.exportCsv(r),
    'portfolio:cancel': async () => desk.cancel(),
  };
}
