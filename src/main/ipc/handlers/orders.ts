/** orders:* — preview (exact typed data), place a reviewed preview, modify, cancel, cancel all, open orders and triggers. */
import type { AppCore } from '../../app/appCore.js';
import type { HandlerGroup } from './types.js';

export function ordersHandlers(core: AppCore): HandlerGroup<'orders'> {
  return {
    'orders:preview': (r) => core.previewOrder(r),
    'orders:place': (r) => core.placeOrder(r),
    'orders:modify': (r) => core.modifyOrder(r),
    'orders:cancel': (r) => core.cancelOrder(r),
    'orders:cancelAll': (r) => core.cancelAllOrders(r),
    'orders:listOpen': (r) => core.openOrders(r),
    'orders:listTriggers': (r) => core.triggers(r),
  };
}
