/**
 * Acts on trade hotkeys in the Trade view (when the person turned them on): buy or sell at market with
 * the ticket's size and leverage, close the selected market's position, close all, cancel all orders
 * (this market or all), flip the selected position. With “Review the exact signing preview before every order”
 * on (the default) each opens the review or the dialog the same action opens from its button; off, it
 * acts at once — except an order that trips the fat-finger guard, whose review always opens. Keys are
 * ignored while typing in a field or with a dialog open.
 */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { MarketView, OrderPreview, PositionView } from '../../../../shared/ipc';
import { TRADE_HOTKEY_LABELS, actionOfKey, hotkeyOf, type TradeHotkeyAction } from '../../../../shared/tradeHotkeys';
import { getUi } from '../../app/uiStore';
import { asIpcError, perps, unwrap } from '../../ipc/client';
import { useMarkets, useOpenOrders, usePositions, useSettings } from '../../ipc/queries';
import { Button } from '../../ui/Button';
import { Dialog, isDialogOpen } from '../../ui/Dialog';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { OrderPreviewDialog } from '../orderTicket/OrderPreviewDialog';
import { usePlaceOrder } from '../orderTicket/placeOrder';
import { CloseAllDialog } from '../positions/CloseAllDialog';
import { CloseDialog } from '../positions/CloseDialog';
import { ReverseDialog } from '../positions/PositionsTable';
import { useInvalidateTrading } from '../positions/useInvalidateTrading';
import { isTyping } from '../shortcuts/shortcuts';
import { useTradeHotkeys } from './hotkeyQueries';

type Open =
  | { kind: 'order'; preview: OrderPreview }
  | { kind: 'close'; position: PositionView; market: MarketView }
  | { kind: 'closeAll' }
  | { kind: 'flip'; position: PositionView; market: MarketView | undefined }
  | { kind: 'cancel'; market: string | null; count: number }
  | null;

export function CancelAllDialog({ market, count, onClose }: { market: string | null; count: number; onClose: () => void }) {
  const refresh = useInvalidateTrading();
  const cancel = useMutation({
    mutationFn: () => unwrap(perps().orders.cancelAll(market ? { market } : {})),
    onSuccess: (r) => {
      refresh();
      pushToast({ tone: 'info', title: `Cancel requested for ${r.results.length} order(s)${market ? ` · ${market}` : ''}` });
      onClose();
    },
  });
  const where = market ? `on ${market}` : 'on every market';
  return (
    <Dialog
      open
      title={`Cancel all orders ${where}`}
      onClose={onClose}
      locked={cancel.isPending}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={cancel.isPending}>
            Keep them
          </Button>
          <Button variant="danger" busy={cancel.isPending} onClick={() => cancel.mutate()}>
            Cancel {count} order{count === 1 ? '' : 's'}
          </Button>
        </>
      }
    >
      <p>
        Cancels every open order {where}: {count} resting order{count === 1 ? '' : 's'} and trigger{count === 1 ? '' : 's'}, with their bracket legs.
      </p>
      {cancel.error && <ErrorLine error={cancel.error} />}
    </Dialog>
  );
}

export function TradeHotkeysHost() {
  const hotkeys = useTradeHotkeys();
  const settings = useSettings();
  const positions = usePositions();
  const markets = useMarkets();
  const open = useOpenOrders();
  const refresh = useInvalidateTrading();
  const [dialog, setDialog] = useState<Open>(null);
  const direct = usePlaceOrder(() => undefined);

  const fail = (what: string, err: unknown) => pushToast({ tone: 'error', title: what, error: asIpcError(err) });
  const run = async (action: TradeHotkeyAction) => {
    const confirm = settings.data?.confirm_orders ?? true;
    const market = getUi().market;
    const marketView = markets.data?.markets.find((m) => m.symbol === market);
    const position = positions.data?.positions.find((p) => p.market === market);
    const label = TRADE_HOTKEY_LABELS[action];
    switch (action) {
      case 'market_buy':
      case 'market_sell': {
        const draft = getUi().ticketDraft;
        if (!draft || !market || draft.market !== market || draft.size.trim() === '') {
          pushToast({ tone: 'warn', title: `${label}: no size`, body: 'Enter a size in the order ticket first; the hotkey uses it.' });
          return;
        }
        const side = action === 'market_buy' ? 'BUY' : 'SELL';
        const slippage = settings.data?.default_slippage_bps ?? null;
        try {
          const preview = await unwrap(perps().orders.preview({ intent: { kind: 'single', market, side, order_type: 'MARKET', size: draft.size.trim(), leverage: draft.leverage, time_in_force: 'IOC', ...(slippage !== null ? { slippage_bps: slippage } : {}) } }));
          if (confirm || preview.confirmations.length > 0) setDialog({ kind: 'order', preview });
          else direct.mutate({ preview, confirm: [] }, { onError: (err) => fail(`${label} failed`, err) });
        } catch (err) {
          fail(`${label} refused`, err);
        }
        return;
      }
      case 'close_selected':
      case 'flip_selected': {
        if (!position || !marketView) {
          pushToast({ tone: 'warn', title: `${label}: no position`, body: market ? `There is no ${market} position.` : 'Choose a market first.' });
          return;
        }
        if (confirm) {
          setDialog(action === 'close_selected' ? { kind: 'close', position, market: marketView } : { kind: 'flip', position, market: marketView });
          return;
        }
        try {
          if (action === 'close_selected') {
            const r = await unwrap(perps().positions.close({ market: position.market }));
            pushToast({ tone: 'success', title: `${r.market} close submitted`, body: r.position_after ? `Left: ${r.position_after.size}` : 'Flat' });
          } else {
            const r = await unwrap(perps().positions.reverse({ market: position.market }));
            pushToast({ tone: 'success', title: `${r.market} reversed`, body: r.position_after ? `Now ${r.position_after.side} ${r.position_after.size}` : 'Exit done; entry submitted' });
          }
          refresh();
        } catch (err) {
          fail(`${label} failed`, err);
        }
        return;
      }
      case 'close_all': {
        if ((positions.data?.positions.length ?? 0) === 0) {
          pushToast({ tone: 'warn', title: `${label}: no positions` });
          return;
        }
        if (confirm) return setDialog({ kind: 'closeAll' });
        try {
          const r = await unwrap(perps().positions.closeAll({}));
          pushToast({ tone: 'success', title: 'Close all submitted', body: r.results.map((m) => `${m.market}: ${m.outcome}`).join(' · ') });
          refresh();
        } catch (err) {
          fail(`${label} failed`, err);
        }
        return;
      }
      case 'cancel_all_market':
      case 'cancel_all': {
        const scope = action === 'cancel_all_market' ? market : null;
        if (action === 'cancel_all_market' && !scope) return;
        const count = (open.data?.orders ?? []).filter((o) => scope === null || o.market === scope).reduce((n, o) => n + 1 + o.legs.length, 0);
        if (count === 0) {
          pushToast({ tone: 'info', title: `${label}: nothing to cancel`, body: scope ? `No open orders on ${scope}.` : 'No open orders.' });
          return;
        }
        if (confirm) return setDialog({ kind: 'cancel', market: scope, count });
        try {
          const r = await unwrap(perps().orders.cancelAll(scope ? { market: scope } : {}));
          pushToast({ tone: 'info', title: `Cancel requested for ${r.results.length} order(s)${scope ? ` · ${scope}` : ''}` });
          refresh();
        } catch (err) {
          fail(`${label} failed`, err);
        }
        return;
      }
    }
  };
  const runRef = useRef(run);
  runRef.current = run;

  const bindings = hotkeys.data;
  useEffect(() => {
    if (!bindings?.enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat || isDialogOpen() || isTyping(e.target) || getUi().view !== 'trade') return;
      const action = actionOfKey(bindings, hotkeyOf(e));
      if (!action) return;
      e.preventDefault();
      void runRef.current(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [bindings]);

  const close = () => setDialog(null);
  return (
    <>
      {dialog?.kind === 'order' && <OrderPreviewDialog key={dialog.preview.preview_id} preview={dialog.preview} onClose={close} />}
      {dialog?.kind === 'close' && <CloseDialog position={dialog.position} market={dialog.market} onClose={close} onSetTpsl={close} />}
      {dialog?.kind === 'closeAll' && <CloseAllDialog onClose={close} />}
      {dialog?.kind === 'flip' && <ReverseDialog position={dialog.position} market={dialog.market} onClose={close} />}
      {dialog?.kind === 'cancel' && <CancelAllDialog market={dialog.market} count={dialog.count} onClose={close} />}
    </>
  );
}
