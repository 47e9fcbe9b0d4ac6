/**
 * What the command palette lists and says for the typed text: the trade the text reads as comes first
 * (to open its review), views, markets (by the venue's name too) and Settings sections by name; a trade
 * phrase missing a part says so, a word being typed that matches something says nothing.
 */
import { describe, expect, it } from 'vitest';
import { parsePhrase, type CommandMarket } from '../../../src/shared/commands/index.js';
import { paletteItems, paletteStatus } from '../../../src/renderer/src/features/commandPalette/paletteItems.js';
import { isPaletteKey } from '../../../src/renderer/src/features/commandPalette/paletteKey.js';
import { BUILT_IN_KEYS } from '../../../src/shared/tradeHotkeys.js';

const m = (symbol: string, venue = symbol): CommandMarket => ({ symbol, venue_symbol: venue, tick_size: '0.1', px_decimals: 1, sz_decimals: 4, min_order_value: '10', max_notional: '0' });
const MARKETS = [m('BTC'), m('ETH'), m('PEPE', 'kPEPE')];
const list = (text: string) => {
  const parsed = parsePhrase(text, MARKETS);
  const items = paletteItems(text, MARKETS, parsed);
  return { items, labels: items.map((i) => i.label), status: paletteStatus(parsed, items) };
};

describe('command palette list', () => {
  it('puts the typed trade first, as a review to open', () => {
    const { items, status } = list('buy 0.1 btc');
    expect(items[0]).toMatchObject({ kind: 'trade', label: 'Review: Buy 0.1 BTC at market', command: { kind: 'order', side: 'BUY', market: 'BTC', size: '0.1', price: null } });
    expect(status).toBe('Enter opens the review. Nothing is signed from here.');
  });

  it('lists views, markets and settings sections by name, each once, ids unique', () => {
    expect(list('').labels).toEqual(['Go to Trade', 'Go to History', 'Go to Portfolio', 'Go to Withdraw', 'Go to Bridge', 'Go to Swap', 'Go to Points', 'Go to Keys', 'Go to Settings']);
    expect(list('history').labels).toEqual(['Go to History']);
    expect(list('kpe').labels).toEqual(['Open PEPE']);
    expect(list('kpepe').items[0]).toMatchObject({ kind: 'market', market: 'PEPE', detail: 'Market · kPEPE on the venue' });
    expect(list('risk').labels).toEqual(['Settings › Risk']);
    expect(list('sett').labels).toContain('Go to Settings');
    const ids = list('e').items.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('says what a trade phrase lacks, and stays quiet while a word being typed matches', () => {
    expect(list('buy 0.01')).toMatchObject({ labels: [], status: 'Understood “buy 0.01”; missing a market (such as buy 0.01 BTC).' });
    expect(list('close eth 50').status).toMatch(/could be 50% of the position or a size of 50/);
    expect(list('hist').status).toBeNull();
    expect(list('zzz').status).toMatch(/“zzz” is not a command/);
  });

  it('opens on Ctrl+K and Cmd+K only', () => {
    const k = { key: 'k', code: 'KeyK', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false };
    expect(isPaletteKey({ ...k, ctrlKey: true })).toBe(true);
    expect(isPaletteKey({ ...k, metaKey: true })).toBe(true);
    expect(isPaletteKey(k)).toBe(false);
    expect(isPaletteKey({ ...k, ctrlKey: true, shiftKey: true })).toBe(false);
    expect(isPaletteKey({ ...k, ctrlKey: true, altKey: true })).toBe(false);
    // A trade hotkey may not take the palette's key.
    expect(BUILT_IN_KEYS).toEqual(expect.arrayContaining(['Ctrl+K', 'Meta+K']));
  });
});
