/**
 * What the command palette lists for the typed text: first the command the text reads as (a trade to
 * review, a view, a market; src/shared/commands reads it, as `perps do` does), then the views, markets
 * and Settings sections whose names contain the text. Pure, so the list is the same for the same text.
 */
import type { MarketView } from '../../../../shared/ipc';
import { COMMAND_VIEWS, describeCommand, isTradeCommand, type CommandView, type PhraseResult, type TradeCommand } from '../../../../shared/commands';

/** The Settings view's sections, by their panel titles (the palette scrolls to the one picked). */
export const SETTINGS_SECTIONS = [
  'Profile',
  'Simulator prices',
  'Main wallet',
  'Offline signer (QR)',
  'Orders and keys',
  'Risk',
  'Trade hotkeys',
  'Notifications and sounds',
  'Running in the background',
  'Companion services',
  'About',
] as const;

export type PaletteItem =
  | { id: string; kind: 'trade'; label: string; detail: string; command: TradeCommand }
  | { id: string; kind: 'view'; label: string; detail: string; view: CommandView }
  | { id: string; kind: 'market'; label: string; detail: string; market: string }
  | { id: string; kind: 'setting'; label: string; detail: string; section: string };

/** Markets listed for a text that names none in full (the palette is not the market list). */
const MAX_MARKETS = 8;

const views: readonly { view: CommandView; label: string; words: readonly string[] }[] = COMMAND_VIEWS;

const idOf = (kind: PaletteItem['kind'], key: string): string => `palette-${kind}-${key.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

const viewItem = (v: (typeof views)[number]): PaletteItem => ({ id: idOf('view', v.view), kind: 'view', label: `Go to ${v.label}`, detail: 'View', view: v.view });
const marketItem = (m: Pick<MarketView, 'symbol' | 'venue_symbol'>): PaletteItem => ({
  id: idOf('market', m.symbol),
  kind: 'market',
  label: `Open ${m.symbol}`,
  detail: m.venue_symbol !== m.symbol ? `Market · ${m.venue_symbol} on the venue` : 'Market',
  market: m.symbol,
});

/** The item of what the text reads as, or null when it reads as nothing (yet). */
function commandItem(parsed: PhraseResult, markets: readonly Pick<MarketView, 'symbol' | 'venue_symbol'>[]): PaletteItem | null {
  if (parsed.status !== 'ok') return null;
  const c = parsed.intent;
  if (isTradeCommand(c)) return { id: idOf('trade', 'command'), kind: 'trade', label: `Review: ${describeCommand(c)}`, detail: 'Trade · opens the review', command: c };
  if (c.kind === 'view') return viewItem(views.find((v) => v.view === c.view)!);
  const m = markets.find((x) => x.symbol === c.market);
  return m ? marketItem(m) : null;
}

export function paletteItems(text: string, markets: readonly Pick<MarketView, 'symbol' | 'venue_symbol'>[], parsed: PhraseResult): PaletteItem[] {
  const q = text.trim().toLowerCase();
  const first = commandItem(parsed, markets);
  const matches: PaletteItem[] = [];
  if (q === '') matches.push(...views.map(viewItem));
  else {
    matches.push(...views.filter((v) => v.label.toLowerCase().includes(q) || v.words.some((w) => w.includes(q))).map(viewItem));
    matches.push(...markets.filter((m) => m.symbol.toLowerCase().includes(q) || m.venue_symbol.toLowerCase().includes(q)).slice(0, MAX_MARKETS).map(marketItem));
    matches.push(...SETTINGS_SECTIONS.filter((s) => s.toLowerCase().includes(q) || (q.length >= 3 && 'settings'.startsWith(q))).map((s): PaletteItem => ({ id: idOf('setting', s), kind: 'setting', label: `Settings › ${s}`, detail: 'Settings section', section: s })));
  }
  return first ? [first, ...matches.filter((m) => m.id !== first.id)] : matches;
}

/** What the palette says under the field: what a trade phrase lacks, or why it cannot be read. */
export function paletteStatus(parsed: PhraseResult, items: readonly PaletteItem[]): string | null {
  if (parsed.status === 'ok') return isTradeCommand(parsed.intent) ? 'Enter opens the review. Nothing is signed from here.' : null;
  if (parsed.status === 'empty') return 'Type a trade (buy 0.1 BTC, sell 2 ETH at 3400, close ETH 50%, cancel all BTC, twap buy 1 BTC over 30m), a view, a market or a setting.';
  // A word being typed ("hist") is a match in the list, not a mistake: say nothing while something matches.
  const trade = parsed.status !== 'invalid' || parsed.understood !== null;
  return trade || items.length === 0 ? parsed.message : null;
}
