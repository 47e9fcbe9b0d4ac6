/** Trade hotkeys through the real settings handlers: off by default, conflicts refused with nothing changed, a good change kept. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRADE_HOTKEYS } from '../../../src/shared/tradeHotkeys.js';
import { AppHarness } from './appHarness.js';

describe('trade hotkeys settings', () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await AppHarness.start('hotkeys');
  });
  afterAll(async () => {
    await h.stop();
    h.cleanup();
  });

  it('are off by default; a conflicting key is refused and nothing changes; a good change is kept', async () => {
    expect(await h.call('settings:getHotkeys', {})).toEqual(DEFAULT_TRADE_HOTKEYS);
    const builtIn = await h.fail('settings:setHotkeys', { enabled: true, bindings: { market_buy: 'Shift+S' } });
    expect(builtIn).toMatchObject({ code: 'VALIDATION', reason: 'HOTKEY_CONFLICT', field: 'bindings.market_buy' });
    expect(builtIn.message).toMatch(/already an app shortcut/);
    const twice = await h.fail('settings:setHotkeys', { bindings: { close_all: 'Alt+B' } });
    expect(twice).toMatchObject({ code: 'VALIDATION', reason: 'HOTKEY_CONFLICT', field: 'bindings.close_all' });
    expect((await h.fail('settings:setHotkeys', { bindings: { close_all: 'Alt+Ctrl+B' } })).code).toBe('INVALID_PAYLOAD');
    expect(await h.call('settings:getHotkeys', {})).toEqual(DEFAULT_TRADE_HOTKEYS);

    const next = await h.call('settings:setHotkeys', { enabled: true, bindings: { close_all: 'F9', cancel_all: null } });
    expect(next).toEqual({ enabled: true, bindings: { ...DEFAULT_TRADE_HOTKEYS.bindings, close_all: 'F9', cancel_all: null } });
    expect(await h.call('settings:getHotkeys', {})).toEqual(next);
  });
});
