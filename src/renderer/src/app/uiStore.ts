/**
 * Small UI state shared across features (which view, which market, what the keyboard asked for), kept
 * outside React state so a shortcut handler can change it without prop-drilling and so only the
 * components that read a slice re-render.
 */
import type { BookGrouping } from '../features/orderBook/bookModel';
import type { ChartAction } from '../features/chart/chartActionTypes';
import { useSyncExternalStore } from 'react';

export type View = 'trade' | 'history' | 'portfolio' | 'withdraw' | 'bridge' | 'swap' | 'points' | 'keys' | 'settings';

/** The views in the order the top bar shows them; Ctrl+1… number them in this order (features/shortcuts). */
export const VIEWS: readonly { id: View; label: string }[] = [
  { id: 'trade', label: 'Trade' },
  { id: 'history', label: 'History' },
  { id: 'portfolio', label: 'Portfolio' },
  { id: 'withdraw', label: 'Withdraw' },
  { id: 'bridge', label: 'Bridge' },
  { id: 'swap', label: 'Swap' },
  { id: 'points', label: 'Points' },
  { id: 'keys', label: 'Keys' },
  { id: 'settings', label: 'Settings' },
];
export type TicketSide = 'BUY' | 'SELL';
export type { BookGrouping };

export interface UiState {
  view: View;
  market: string | null;
  /** Bumped by B/S shortcuts: the ticket focuses its size field for that side each time it changes. */
  ticketFocus: { side: TicketSide; seq: number };
  /** Bumped by '/': the market list focuses its search field. */
  searchFocusSeq: number;
  shortcutSheet: boolean;
  /**
   * Price clicked in the order book/chart, offered to the ticket. `limit`: always as a Limit price (the
   * book's levels); otherwise a trigger ticket takes it as its trigger price (the chart).
   */
  pickedPrice: { price: string; seq: number; limit?: boolean } | null;
  /** The order book's grouping, kept across markets and while the book is out of sight. */
  bookGrouping: BookGrouping;
  /** The assistant side panel is open. */
  assistantOpen: boolean;
  /** A view asked Settings to edit one chain's JSON-RPC URL (bumped each time, so a repeat still scrolls). */
  rpcFocus: { chain: string; seq: number } | null;
  /** The Scale ticket's ladder as it would be sent, drawn on that market's chart (null: none). */
  ladder: { market: string; rungs: { price: string; size: string }[] } | null;
  /** What the order ticket holds now (its market, size, leverage): the trade hotkeys' market orders use it. */
  ticketDraft: { market: string; size: string; leverage: number } | null;
  /** A chart action waiting for its review (ChartActionDialogs), and the line held where it was dropped meanwhile. */
  chartAction: ChartAction | null;
  chartHeld: { key: string; price: string } | null;
}

let state: UiState = {
  view: 'trade',
  market: null,
  ticketFocus: { side: 'BUY', seq: 0 },
  searchFocusSeq: 0,
  shortcutSheet: false,
  pickedPrice: null,
  bookGrouping: null,
  assistantOpen: false,
  rpcFocus: null,
  ladder: null,
  ticketDraft: null,
  chartAction: null,
  chartHeld: null,
};
const subs = new Set<() => void>();

export function getUi(): UiState {
  return state;
}

export function setUi(patch: Partial<UiState> | ((s: UiState) => Partial<UiState>)): void {
  const p = typeof patch === 'function' ? patch(state) : patch;
  state = { ...state, ...p };
  subs.forEach((f) => f());
}

function subscribe(f: () => void): () => void {
  subs.add(f);
  return () => subs.delete(f);
}

/** Reads one slice; the component re-renders only when that slice changes (by Object.is). */
export function useUi<T>(select: (s: UiState) => T): T {
  return useSyncExternalStore(subscribe, () => select(state));
}

export const goTo = (view: View): void => setUi({ view });
// A price picked on one market's chart means nothing on another's.
export const selectMarket = (market: string): void => setUi((s) => (s.market === market ? {} : { market, pickedPrice: null }));
/** A book level's price into the ticket as its Limit price (the ticket switches to Limit). */
export const pickLimitPrice = (price: string): void => setUi((s) => ({ view: 'trade', pickedPrice: { price, seq: (s.pickedPrice?.seq ?? 0) + 1, limit: true } }));
export const focusTicket = (side: TicketSide): void => setUi((s) => ({ view: 'trade', ticketFocus: { side, seq: s.ticketFocus.seq + 1 } }));
export const focusSearch = (): void => setUi((s) => ({ view: 'trade', searchFocusSeq: s.searchFocusSeq + 1 }));
export const toggleAssistant = (): void => setUi((s) => ({ assistantOpen: !s.assistantOpen }));
/** Opens Settings on the JSON-RPC URL of `chain`, ready to edit. */
export const editRpcUrl = (chain: string): void => setUi((s) => ({ view: 'settings', rpcFocus: { chain, seq: (s.rpcFocus?.seq ?? 0) + 1 } }));
