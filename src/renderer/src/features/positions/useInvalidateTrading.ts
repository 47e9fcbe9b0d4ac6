/** After a position action: positions, orders, triggers and the balance (and with it the health figures) are re-read. */
import { useQueryClient } from '@tanstack/react-query';
import { qk } from '../../ipc/queries';

export function useInvalidateTrading(): () => void {
  const client = useQueryClient();
  return () => {
    for (const k of [qk.positions, qk.openOrders, qk.triggers, qk.balance]) void client.invalidateQueries({ queryKey: k });
  };
}
