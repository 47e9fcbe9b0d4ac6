/**
 * Opens the command palette on Ctrl+K (Cmd+K on macOS) and runs what is picked: a view, a market or a
 * Settings section is gone to at once; a trade opens the review the ticket, the position row and the
 * trade hotkeys open for it — the order review (orders:preview), the TWAP review (twap:preview), the
 * close dialog (preset to the percentage asked), close all, cancel all. Those reviews sign; the palette
 * only prepares them. The palette stands down while another dialog is open.
 */
import { useEffect, useState } from 'react';
import type { MarketView, OrderPreview, PositionView, TwapPreview } from '../../../../shared/ipc';
import { orderIntentOf, twapRequestOf, type CommandView, type TradeCommand } from '../../../../shared/commands';
import { sizeFromUsd } from '../../../../shared/orders/usdSizing';
import { goTo, selectMarket, type View } from '../../app/uiStore';
import { asIpcError, perps, unwrap } from '../../ipc/client';
import { useMarkets, useOpenOrders, usePositions, useSettings } from '../../ipc/queries';
import { isDialogOpen } from '../../ui/Dialog';
import { CancelAllDialog } from '../hotkeys/TradeHotkeysHost';
import { OrderPreviewDialog } from '../orderTicket/OrderPreviewDialog';
import { CloseAllDialog } from '../positions/CloseAllDialog';
import { CloseDialog } from '../positions/CloseDialog';
import { TwapReviewDialog } from '../twap/TwapReviewDialog';
import { CommandPalette } from './CommandPalette';
import type { PaletteItem } from './paletteItems';
import { isPaletteKey } from './paletteKey';

type Review =
  | { kind: 'order'; preview: OrderPreview }
  | { kind: 'twap'; preview: TwapPreview }
  | { kind: 'close'; position: PositionView; market: MarketView; percent: string | null }
  | { kind: 'closeAll' }
  | { kind: 'cancel'; market: string | null; count: number };

// Every view of the app can be named in a command: a view added to uiStore and not to the shared
// command views fails to compile here.
const VIEWS_NAMED: Exclude<View, CommandView> extends never ? true : never = true;
void VIEWS_NAMED;

/** Scrolls Settings to a section (the view loads on demand: wait for it briefly) and focuses its title. */
function showSettingsSection(title: string): void {
  let tries = 0;
  const look = (): void => {
    const heading = Array.from(document.querySelectorAll<HTMLElement>('main .panel-title')).find((h) => h.textContent === title);
    if (heading) {
      heading.tabIndex = -1;
      heading.scrollIntoView({ block: 'start' });
      heading.focus();
    } else if (++tries < 40) setTimeout(look, 50);
  };
  look();
}

export function CommandPaletteHost() {
  const [open, setOpen] = useState(false);
  const [review, setReview] = useState<Review | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const settings = useSettings();
  const positions = usePositions();
  const markets = useMarkets();
  const orders = useOpenOrders();

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.defaultPrevented || e.repeat || !isPaletteKey(e) || isDialogOpen()) return;
      e.preventDefault();
      setError(null);
      setOpen(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const close = (): void => setOpen(false);
  /** Swaps the palette for the review (the review returns the focus where it was before the palette). */
  const show = (r: Review): void => {
    setOpen(false);
    setReview(r);
  };

  const prepare = async (c: TradeCommand): Promise<void> => {
    const slippage = settings.data?.default_slippage_bps ?? null;
    const bps = slippage !== null ? { slippage_bps: slippage } : {};
    switch (c.kind) {
      case 'order': {
        // "250 usd of btc": the size in BTC at the limit price, or at the mark for a market order, rounded
        // down to sz_decimals (the review shows the size that is signed).
        let size = c.size;
        if (c.usd) {
          const market = markets.data?.markets.find((m) => m.symbol === c.market);
          const price = c.price ?? market?.mark ?? null;
          if (!market || price === null) return setError(`No ${c.market} mark yet to size ${c.size} USD by.`);
          const r = sizeFromUsd(c.size, price, market);
          if (!r.ok) return setError(`${r.reason.charAt(0).toUpperCase()}${r.reason.slice(1)}.`);
          size = r.sizing.size;
        }
        return show({ kind: 'order', preview: await unwrap(perps().orders.preview({ intent: { ...orderIntentOf(c, size), ...(c.price === null ? bps : {}) } })) });
      }
      case 'twap':
        return show({ kind: 'twap', preview: await unwrap(perps().twap.preview({ ...twapRequestOf(c), ...bps })) });
      case 'close': {
        const position = positions.data?.positions.find((p) => p.market === c.market);
        const market = markets.data?.markets.find((m) => m.symbol === c.market);
        if (!position || !market) return setError(`There is no ${c.market} position to close.`);
        return show({ kind: 'close', position, market, percent: c.percent });
      }
      case 'close_all':
        if ((positions.data?.positions.length ?? 0) === 0) return setError('There are no open positions to close.');
        return show({ kind: 'closeAll' });
      case 'cancel_all': {
        const count = (orders.data?.orders ?? []).filter((o) => c.market === null || o.market === c.market).reduce((n, o) => n + 1 + o.legs.length, 0);
        if (count === 0) return setError(c.market ? `There are no open orders on ${c.market}.` : 'There are no open orders.');
        return show({ kind: 'cancel', market: c.market, count });
      }
    }
  };

  const run = (item: PaletteItem): void => {
    setError(null);
    switch (item.kind) {
      case 'view':
        close();
        return goTo(item.view);
      case 'market':
        close();
        selectMarket(item.market);
        return goTo('trade');
      case 'setting':
        close();
        goTo('settings');
        return showSettingsSection(item.section);
      case 'trade':
        setBusy(true);
        prepare(item.command)
          .catch((err: unknown) => {
            const e = asIpcError(err);
            setError(`${e.message}${e.hint ? ` ${e.hint}` : ''}`);
          })
          .finally(() => setBusy(false));
    }
  };

  const done = (): void => setReview(null);
  return (
    <>
      {open && <CommandPalette onClose={close} onRun={run} busy={busy} error={error} onEdit={() => setError(null)} />}
      {review?.kind === 'order' && <OrderPreviewDialog key={review.preview.preview_id} preview={review.preview} onClose={done} />}
      {review?.kind === 'twap' && <TwapReviewDialog preview={review.preview} onClose={done} onStarted={done} />}
      {review?.kind === 'close' && <CloseDialog position={review.position} market={review.market} initialPercent={review.percent} onClose={done} onSetTpsl={done} />}
      {review?.kind === 'closeAll' && <CloseAllDialog onClose={done} />}
      {review?.kind === 'cancel' && <CancelAllDialog market={review.market} count={review.count} onClose={done} />}
    </>
  );
}
