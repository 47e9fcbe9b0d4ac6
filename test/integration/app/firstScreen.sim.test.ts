/**
 * app:firstScreen through the real handlers over the simulator: each part is what its own channel answers
 * (value or error), before and after a wallet is chosen, so the page can take the one answer in place of
 * the nine reads (src/renderer/src/ipc/firstScreenRead.ts).
 */
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FirstScreen } from '../../../src/shared/ipc.js';
import { FIRST_SCREEN_READS, type ChannelName } from '../../../src/shared/ipc/channels.js';
import { AppHarness } from './appHarness.js';

/** Market fields that move between two reads (the simulator's prices tick): compared by rules only. */
const LIVE = ['mark', 'oracle', 'mid', 'prev_day_px', 'change_24h', 'funding_rate', 'open_interest', 'day_volume', 'at'];
const rulesOnly = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (k, v: unknown) => (LIVE.includes(k) ? undefined : v)));

describe('the first screen in one answer', () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await AppHarness.start('first-screen');
  });
  afterAll(async () => {
    await h.stop();
    h.cleanup();
  });

  async function expectEachPartAsItsChannel(): Promise<FirstScreen> {
    const whole = await h.call('app:firstScreen', {});
    for (const [part, channel] of Object.entries(FIRST_SCREEN_READS) as [keyof FirstScreen, ChannelName][]) {
      const alone = await h.invoke(channel, {});
      expect(rulesOnly(whole[part]), `${part} (${channel})`).toEqual(rulesOnly(alone));
    }
    return whole;
  }

  it('before onboarding: no wallet, and the keys part is their own NO_WALLET refusal; the rest answer', async () => {
    const whole = await expectEachPartAsItsChannel();
    expect(whole.wallet).toEqual({ ok: true, value: expect.objectContaining({ address: null }) });
    expect(whole.keys).toMatchObject({ ok: false, error: { code: 'NO_WALLET' } });
    expect(whole.markets.ok && whole.markets.value.markets.length).toBeGreaterThan(0);
    expect(whole.profile).toMatchObject({ ok: true, value: { active: 'sim' } });
  });

  it('with a wallet: its address and its keys listing, each as its channel answers', async () => {
    const main = Wallet.createRandom();
    h.env['PERPS_FIRST_SCREEN_KEY'] = main.privateKey;
    await h.call('wallet:connectEnv', { variable: 'PERPS_FIRST_SCREEN_KEY' });
    const whole = await expectEachPartAsItsChannel();
    expect(whole.wallet).toMatchObject({ ok: true, value: { address: main.address } });
    expect(whole.keys).toMatchObject({ ok: true, value: { wallet: main.address, keys: [] } });
    // Nothing secret crosses: the main wallet's key is not in the answer.
    expect(JSON.stringify(whole)).not.toContain(main.privateKey.slice(2));
  });
});
