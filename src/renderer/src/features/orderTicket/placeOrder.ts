/**
 * Placing a reviewed order (orders:place): what the ticket, the hotkeys and the review dialog share. Kept
 * apart from the review dialog (OrderPreviewDialog.tsx), which is loaded after the first frame, so the
 * ticket can place an order without a review (the "confirm orders" setting off) from its first frame.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ConfirmationCode, OrderPreview, PlaceOrdersResult } from '../../../../shared/ipc';
import { explainReason } from '../../ipc/events';
import { perps, unwrap } from '../../ipc/client';
import { recordActivity } from '../../ipc/orderActivity';
import { qk } from '../../ipc/queries';
import { pushToast } from '../../ui/toast';

const LEG_TITLES: Record<string, string> = { order: 'Order', entry: 'Entry', tp: 'Take profit', sl: 'Stop loss', close: 'Close' };
/** A leg's title: the known labels in words, any other (a ladder's rung, say) as it is. */
export const legTitle = (label: string): string => LEG_TITLES[label] ?? label;

/** A placement that lifted the position's TP/SL and could not put every level back (main's re-arm outcome). */
export function protectionLost(r: PlaceOrdersResult): boolean {
  return r.rearm ? r.rearm.past_mark.length + r.rearm.failed.length > 0 : false;
}

/** A reviewed order to place, with the guard codes the person confirmed (exactly the review's). */
export interface Placement {
  preview: OrderPreview;
  confirm: ConfirmationCode[];
}

export function usePlaceOrder(onPlaced: (r: PlaceOrdersResult) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ preview, confirm }: Placement) => unwrap(perps().orders.place({ preview_id: preview.preview_id, ...(confirm.length > 0 ? { confirm } : {}) })),
    onSuccess: (r, { preview }) => {
      recordActivity(
        r.legs
          .filter((l) => l.order_id)
          .map((l) => {
            const leg = preview.legs.find((p) => p.client_order_id === l.client_order_id);
            return {
              order_id: l.order_id as string,
              market: preview.market,
              order_type: leg?.order_type ?? null,
              status: l.status === 'SUBMITTED' ? (leg?.parent_client_order_id ? 'PENDING_PARENT' : 'SUBMITTED') : l.status === 'REJECTED' ? 'REJECTED' : 'UNKNOWN',
              list_status: null,
              reason: l.reason,
              filled_size: null,
              avg_fill_price: null,
              armed: false,
              terminal: l.status === 'REJECTED',
              replaced_by: null,
              label: l.label,
              side: leg?.side,
            };
          }),
      );
      void client.invalidateQueries({ queryKey: qk.openOrders });
      void client.invalidateQueries({ queryKey: qk.triggers });
      const rejected = r.legs.filter((l) => l.status === 'REJECTED');
      // One leg: its plain line says what was submitted; several: each leg's name and state.
      const only = r.legs.length === 1 ? preview.legs.find((p) => p.client_order_id === r.legs[0]!.client_order_id) : undefined;
      if (rejected.length === 0) pushToast({ tone: 'success', title: `Order submitted · ${preview.market}`, body: only ? only.description : r.legs.map((l) => `${legTitle(l.label)} ${l.status.toLowerCase()}`).join(' · '), announce: 'polite' });
      else pushToast({ tone: 'error', title: `${rejected.length} leg${rejected.length > 1 ? 's' : ''} rejected · ${preview.market}`, body: rejected.map((l) => `${legTitle(l.label)}: ${explainReason(l.reason)}`).join('\n'), announce: 'polite' });
      // A scale-out lifted the position's TP/SL: said either way; a level not back is an assertive alert.
      if (r.rearm) {
        if (protectionLost(r)) pushToast({ tone: 'error', title: `TP/SL not restored · ${preview.market}`, body: `${r.rearm.summary.join(' ')} Set the level again from the position's TP/SL, or close the rest.`, announce: 'assertive' });
        else if (r.rearm.summary.length > 0) pushToast({ tone: 'success', title: `TP/SL re-armed · ${preview.market}`, body: r.rearm.summary.join(' '), announce: 'polite' });
      }
      onPlaced(r);
    },
  });
}

