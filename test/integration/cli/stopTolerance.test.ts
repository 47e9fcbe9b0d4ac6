/**
 * `perps config stop-tolerance` (issue 35, item 1): shows 10% by default; sets it globally and per
 * market; refuses a bad percentage or an unknown market with exit 2, changing nothing; --clear resets.
 * The stored value is the one the services fire stop-losses with (test/integration/positions/stopGaps).
 *
 * Where each run happens (issue 37): `perps` in this process (perpsInProcess.ts: same main, output and
 * exit code), but for one child per exit code as a shell sees it: the first show (0) and the unknown
 * market's refusal (2). The simulator keeps a manual clock, the default: nothing here waits, and the two
 * children only read the settings and the market list, so they need no simulator on the wall clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPreferences } from '../../../src/main/services/settings/preferences.js';
import { TradingWorld } from '../orders/tradingWorld.js';
import { perpsOn } from '../../support/perpsWorld.js';
import { PerpsChild, perpsJson } from '../twap/twapWorld.js';

let w: TradingWorld;
beforeAll(async () => {
  w = await TradingWorld.boot('cli-stop-tolerance');
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

const child = (args: string[]) => new PerpsChild(w, args).done;
const perps = perpsOn(() => w);

describe('perps config stop-tolerance', () => {
  it('10% by default; set globally and per market; bad input is exit 2 and changes nothing; --clear resets', async () => {
    const shown = await child(['--json', 'config', 'stop-tolerance']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(perpsJson(shown)).toMatchObject({ stop_tolerance_bps: 1000, stop_tolerance_by_market: {} });
    const table = await perps(['config', 'stop-tolerance']);
    expect(table.stdout).toMatch(/stop tolerance: 10% \(a fired stop-loss fills no further than this past its trigger/);

    expect((await perps(['--json', 'config', 'stop-tolerance', '7.5'])).code).toBe(0);
    const btc = await perps(['--json', 'config', 'stop-tolerance', '5', '--market', 'BTC']);
    expect(btc.code, btc.stderr).toBe(0);
    expect(perpsJson(btc)).toMatchObject({ stop_tolerance_bps: 750, stop_tolerance_by_market: { BTC: 500 } });
    expect(perpsJson(btc).effective).toEqual(expect.arrayContaining([expect.objectContaining({ market: 'BTC', stop_tolerance_bps: 500, own: true }), expect.objectContaining({ market: 'ETH', stop_tolerance_bps: 750, own: false })]));

    for (const bad of [['7.555'], ['ten'], ['60'], ['5', '--market', 'NOPE']]) {
      const r = await (bad.includes('NOPE') ? child : perps)(['--json', 'config', 'stop-tolerance', ...bad]);
      expect(r.code, `${bad.join(' ')}: ${r.stderr}`).toBe(2);
    }
    expect(readPreferences(w.ctx.settings)).toMatchObject({ stop_tolerance_bps: 750, stop_tolerance_by_market: { BTC: 500 } });

    expect((await perps(['config', 'stop-tolerance', '--market', 'BTC', '--clear'])).code).toBe(0);
    expect((await perps(['config', 'stop-tolerance', '--clear'])).code).toBe(0);
    expect(readPreferences(w.ctx.settings)).toMatchObject({ stop_tolerance_bps: 1000, stop_tolerance_by_market: {} });
  }, 60_000);
});
