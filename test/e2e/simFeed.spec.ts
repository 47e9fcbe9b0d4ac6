/**
 * Paper trading on live market data, in the app: Settings › Simulator prices refuses a URL that is not
 * http(s) as it is typed, then follows a loopback venue (Hyperliquid-shaped, test/sim/follow/upstreamVenue.ts)
 * once saved, naming the markets that keep the walk; a market the venue sends a refused book for (frozen)
 * or an unconfirmed mark spike for (held) is named in a banner with why and since when, which leaves
 * once the venue sends valid, confirmed data (issue 26); when the venue goes away the banner says prices
 * are paused, and it leaves by itself when the venue answers again. Screenshots at 1440x900 and 1024x680.
 */
import type { Page } from '@playwright/test';
import { expect, openApp, test } from './harness/fixtures.js';
import type { E2eApp } from './harness/appHarness.js';
import { screenshotBothSizes } from './harness/riskSteps.js';
import { HostileVenue } from '../sim/follow/hostileVenue.js';

let app: E2eApp | undefined;
let upstream: HostileVenue | undefined;
test.afterEach(async () => {
  await app?.stop();
  app = undefined;
  await upstream?.stop();
  upstream = undefined;
});

const nav = (page: Page, name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();

test('simulator prices live from a venue: the setting, the feed state and the outage banner', async ({ page, server, pageErrors }) => {
  test.setTimeout(120_000);
  upstream = new HostileVenue();
  await upstream.start();
  upstream.setBook('ETH', [{ px: '3499.0', sz: '10.0', n: 3 }], [{ px: '3501.0', sz: '10.0', n: 3 }]);
  app = await openApp(page, server, 'simfeed', { onboard: true });
  await expect(page.getByRole('option', { name: /^ETH / })).toBeVisible();
  await expect(page.locator('.statusbar')).toContainText('prices: simulated');

  await nav(page, 'Settings');
  const form = page.getByRole('form', { name: 'Simulator prices' });
  await form.getByRole('radio', { name: 'Live from the venue at' }).check();
  const url = form.getByLabel('Venue info URL');
  await url.fill('api.hyperliquid.xyz/info');
  await url.blur();
  await expect(form.getByText('An http or https URL, such as https://api.hyperliquid.xyz/info')).toBeVisible();
  await form.getByRole('button', { name: 'Save prices' }).click();
  // Refused as typed: nothing was stored.
  await expect(form.getByText('simulated', { exact: true })).toBeVisible();

  await url.fill(upstream.infoUrl);
  await form.getByRole('button', { name: 'Save prices' }).click();
  await expect(form.getByText('live', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(form).toContainText('WIF (not listed by the upstream)');
  await expect(form).toContainText('MATIC (delisted upstream)');
  await expect(page.locator('.statusbar')).toContainText(`prices: live from 127.0.0.1:${upstream.port}`);
  await form.scrollIntoViewIfNeeded();
  await screenshotBothSizes(page, 'sim-prices-settings');

  // The venue's mark reaches the market list.
  upstream.setCtx('ETH', { markPx: '3512.5', midPx: '3512.5' });
  await nav(page, 'Trade');
  await expect(page.getByRole('option', { name: /^ETH / })).toContainText('3,512.5', { timeout: 20_000 });

  // A crossed ETH book freezes ETH; a BTC mark spike its info API does not confirm holds BTC.
  upstream.failInfo = true;
  upstream.setBook('ETH', [{ px: '3600.0', sz: '10.0', n: 3 }], [{ px: '3400.0', sz: '10.0', n: 3 }]);
  upstream.spikeCtx('BTC', { markPx: '970000.0', midPx: '970000.0', oraclePx: '970000.0' });
  const held = page.getByRole('alert', { name: 'Live prices held' });
  await expect(held).toContainText('ETH frozen since', { timeout: 20_000 });
  await expect(held).toContainText('BTC held since');
  await expect(held).toContainText('book refused: the book is crossed');
  await expect(held).toContainText('mark 970000 moved');
  await expect(page.locator('.statusbar')).toContainText('ETH frozen');
  await expect(page.getByRole('option', { name: /^ETH / })).toContainText('3,512.5');
  await screenshotBothSizes(page, 'sim-feed-held-banner');
  // Valid data ends both: a sane book, and the info API that answers again discards the spike.
  upstream.failInfo = false;
  upstream.setBook('ETH', [{ px: '3512.0', sz: '10.0', n: 3 }], [{ px: '3513.0', sz: '10.0', n: 3 }]);
  await expect(held).toBeHidden({ timeout: 20_000 });

  upstream.goDown();
  const banner = page.getByRole('alert', { name: 'Live prices paused' });
  await expect(banner).toBeVisible({ timeout: 20_000 });
  await expect(banner).toContainText(`The venue at ${upstream.infoUrl} has not answered since`);
  await expect(page.locator('.statusbar')).toContainText('prices: frozen');
  await screenshotBothSizes(page, 'sim-feed-outage-banner');

  upstream.comeBack();
  await expect(banner).toBeHidden({ timeout: 30_000 });
  await expect(page.locator('.statusbar')).toContainText('prices: live');
  expect(pageErrors).toEqual([]);
});
