/** orders:* — preview (exact typed data), place a reviewed preview, modify, cancel, cancel all, open orders and triggers. */
import type { OrdersDesk } from '../../app/desks/ordersDesk.js';
import type { HandlerGroup } from './types.js';

export function ordersHandlers(desk: OrdersDesk): HandlerGroup<'orders'> {
  return {
    'orders:preview': (r) => desk.preview(r),
    'orders:place': (r) => desk.place(r),
    'orders:modify': (r) => desk.modify(r),
    'orders:cancel': (r) => desk.cancel(r),
    'orders:cancelAll': (r) => desk.cancelAll(r),
    'orders:listOpen': (r) => desk.openOrders(r),
    'orders:listTriggers': (r) => desk.triggers(r),
  };
}
