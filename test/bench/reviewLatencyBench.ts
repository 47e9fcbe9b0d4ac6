/**
 * Input to review in a storm (issue 29 item 2): from the click on Buy to the order review dialog painted,
 * on the trade view of the BUILT renderer in Chromium, with the real preload bridged to the real IPC
 * dispatch (rendererBench's synthetic main, listing the venue's 200 markets, answering orders:preview
 * with a review built from the intent as main builds its typed data).
 *
 * The page is fed the renderer's storm (rendererStorm.ts: 1,000 mark events a second over 200 markets,
 * the book and the tape at main's cap of ten a second) or calm (a tenth of it), played in the page, and
 * the order ticket is submitted again and again while it plays. Each sample is measured in the page: the
 * click event's time to the frame after the dialog appeared (a requestAnimationFrame once it is in the
 * document: the dialog has been laid out and painted by then). Calm and storm alternate on the same
 * page, round by round (interleaved, order rotated); each side's p95 is taken over all its clicks.
 *
 *  - gated: the p95 in the storm over the p95 in calm (the issue's 1.5x), measured again before a miss fails;
 *  - REPORT: the absolute p95 in the storm (the issue's 100 ms, RAIL's response budget: a machine's figure).
 */
import type { Browser, Page } from 'playwright-core';
import type { Handlers } from '../../src/main/ipc/registerHandlers.js';
import { digestHex } from '../../src/main/services/signing/prepared.js';
import { orderTypedData } from '../../src/shared/eip712/index.js';
import type { IpcRequest, IpcResponse } from '../../src/shared/ipc.js';
import { typedDataView } from '../../src/shared/signingViews.js';
import type { StaticServer } from '../e2e/harness/staticServer.js';
import { measureRounds, median, spreadOf, type Attempt, type GateResult } from './measure.js';
import { open, stormMarkets, VENUE_SCALE, WATCHED } from './rendererBench.js';
import { CALM, installPlayer, load, STORM, stormTicks, type StormRates } from './rendererStorm.js';

const ROUNDS = Number(process.env['BENCH_REVIEW_ROUNDS'] ?? 5);
/** Clicks on Buy per side and round. */
const SAMPLES = Number(process.env['BENCH_REVIEW_SAMPLES'] ?? 20);
/** The issue's ratio of the storm's p95 to calm's. */
const RATIO_TARGET = 1.5;
const WALLET = '0x5ec6b8eef87319d7f9035260faee6f8ee2405ae1';
const AGENT = '0x1111111111111111111111111111111111111111';
const SIZE = '0.5';

let previews = 0;
/** orders:preview as main answers it for one market order: one leg, its typed data and digest. */
async function preview(r: IpcRequest<'orders:preview'>): Promise<IpcResponse<'orders:preview'>> {
  const intent = r.intent as { market: string; side: 'BUY' | 'SELL'; size: string };
  const nonce = String(Date.now() * 1000 + (previews++ % 1000));
  const leg = { market: intent.market, side: intent.side, size: intent.size, limit_price: '104.5', order_type: 'MARKET', time_in_force: 'IOC', reduce_only: false, leverage: 1, nonce };
  const typed = orderTypedData(`${WALLET}${'0'.repeat(24)}`, leg, 'testnet');
  return {
    kind: 'single',
    wallet: WALLET,
    signer: AGENT,
    market: intent.market,
    mark: '100',
    legs: [
      {
        label: 'order',
        client_order_id: `c${nonce}`,
        market: intent.market,
        side: intent.side,
        order_type: 'MARKET',
        size: intent.size,
        limit_price: '104.5',
        time_in_force: 'IOC',
        reduce_only: false,
        leverage: 1,
        trigger: null,
        parent_client_order_id: null,
        notional: '52.25',
        fee_kind: 'taker',
        fee_rate: '0.00045',
        fee_estimate: '0.02',
        description: `Buy ${intent.size} ${intent.market} at market (worst 104.5)`,
        summary: Object.entries(typed.message).map(([k, v]) => `${k}: ${String(v)}`),
        digest: digestHex(typed),
        typed_data: typedDataView(typed),
      },
    ],
    total_notional: '52.25',
    total_fee_estimate: '0.02',
    margin_required: '52.25',
    free_balance: '100000',
    position_after: null,
    warnings: [],
    confirmations: [],
    preview_id: `p${nonce}`,
    valid_until: Date.now() + 30_000,
  };
}

/**
 * Records, in the page, the time from each click on the ticket's Buy button to the frame after the review
 * dialog appeared. A script string (this process's TypeScript loader would wrap named functions in a
 * helper the page lacks).
 */
async function installProbe(page: Page, market: string): Promise<void> {
  await page.evaluate(`(() => {
    const probe = (window.__review = { clickAt: null, samples: [] });
    document.addEventListener('click', (e) => {
      const b = e.target instanceof Element ? e.target.closest('button[type="submit"]') : null;
      if (b && b.closest('form[aria-label="Order ticket"]')) probe.clickAt = e.timeStamp;
    }, true);
    const title = ${JSON.stringify(`Review order · ${market}`)};
    const shown = () => [...document.querySelectorAll('[role="dialog"]')].some((d) => d.getAttribute('aria-label') === title || d.textContent.includes(title));
    new MutationObserver(() => {
      if (probe.clickAt === null || !shown()) return;
      const at = probe.clickAt;
      probe.clickAt = null;
      requestAnimationFrame(() => probe.samples.push(performance.now() - at));
    }).observe(document.body, { childList: true, subtree: true });
  })()`);
}

/**
 * Seconds of events loaded for one side: more than its clicks take on a loaded machine (about half a second
 * a click, and the pauses); a side whose storm ended before its last click fails the run rather than
 * measure calm clicks as storm ones.
 */
const SIDE_SECONDS = Math.max(20, Math.ceil(SAMPLES * 1.5));

/** `samples` clicks on Buy while `rates` play; returns the p95 of the click-to-painted times (ms). */
async function sampleSide(page: Page, rates: StormRates, all: number[], samples = SAMPLES): Promise<number> {
  await load(page, stormTicks({ seconds: SIDE_SECONDS, rates, markets: stormMarkets(), watched: WATCHED, t0: Date.now() }));
  await page.evaluate('window.__review.samples = []; window.__benchStop = false; window.__benchEnded = false; window.__benchPlaying = window.__benchPlay().then((ms) => { window.__benchEnded = true; return ms; }); undefined');
  // The storm is on before the first click.
  await page.waitForTimeout(500);
  const ticket = page.getByRole('form', { name: 'Order ticket' });
  const buy = ticket.getByRole('button', { name: `Buy / Long ${WATCHED}` });
  const review = page.getByRole('dialog', { name: `Review order · ${WATCHED}` });
  // The button is where it was for every click (the ticket does not move): its centre is read once, after
  // Playwright's checks that it is visible, enabled and not covered, and each click is then one trusted
  // mouse press and release there (the same input events as a locator's click, without its per-click
  // checks, which cost about a tenth of a second of round trips each).
  await buy.click({ trial: true });
  const box = await buy.boundingBox();
  if (!box) throw new Error(`the ticket's Buy / Long ${WATCHED} button has no box`);
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  for (let i = 0; i < samples; i++) {
    await page.mouse.click(at.x, at.y);
    await page.waitForFunction((n) => (globalThis as unknown as { __review: { samples: number[] } }).__review.samples.length >= n, i + 1, { timeout: 10_000 }).catch((err: unknown) => {
      throw new Error(`click ${i + 1} on Buy did not bring up the review within 10 s (${(err as Error).message.split('\n')[0]})`);
    });
    // Closed with Esc, pressed again while the review is still up: the dialog hears keys from its passive
    // effect, which a page busy with a storm can run after the frame the probe saw it in, and an Esc in
    // that gap is lost (a fresh-clone CI's lane broke on one). What is measured is the click to the paint.
    for (let tries = 1; ; tries++) {
      await page.keyboard.press('Escape');
      const closed = await review.waitFor({ state: 'hidden', timeout: 2_000 }).then(
        () => true,
        () => false,
      );
      if (closed) break;
      if (tries >= 5) throw new Error(`the review stayed open through ${tries} presses of Esc over ${tries * 2} s`);
    }
    // A person's pace, and a varied phase against the live frames.
    await page.waitForTimeout(120 + ((i * 37) % 90));
  }
  if ((await page.evaluate('window.__benchEnded')) === true) throw new Error(`the ${rates.marksPerSecond} marks/s side's ${SIDE_SECONDS} s of events ended before its ${samples} clicks did: raise SIDE_SECONDS`);
  await page.evaluate('window.__benchStop = true; window.__benchPlaying');
  const taken = (await page.evaluate('window.__review.samples')) as number[];
  all.push(...taken);
  return p95(taken);
}

function p95(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
}

export async function runReviewLatencyGates(browser: Browser, server: StaticServer): Promise<GateResult[]> {
  const extra: Partial<Handlers> = { 'orders:preview': preview };
  const s = await open(browser, server, 1_000, { markets: VENUE_SCALE, threadTicks: true, handlers: extra });
  try {
    await installPlayer(s.page);
    await installProbe(s.page, WATCHED);
    const ticket = s.page.getByRole('form', { name: 'Order ticket' });
    await ticket.getByRole('radio', { name: 'Buy' }).click();
    await ticket.getByRole('radio', { name: 'Market' }).click();
    await ticket.getByLabel(`Size (${WATCHED})`).fill(SIZE);
    // Warm-up: the dialog's chunk is loaded and its code compiled before anything is measured.
    await sampleSide(s.page, CALM, [], 5);
    /**
     * One measurement: ROUNDS interleaved rounds of SAMPLES clicks a side; the p95 of each side over all
     * its clicks (ROUNDS x SAMPLES). A p95 per round is its second-slowest click, which one stall of a
     * loaded machine decides (0.4x to 3.2x per round under a CPU hog); over a hundred clicks it is the
     * fifth-slowest, and the interleaving still gives both sides the same machine.
     */
    const measure = async (): Promise<Attempt & { storm: number[] }> => {
      const samples = { calm: [] as number[], storm: [] as number[] };
      await measureRounds({ rounds: ROUNDS, gates: [], sides: { calm: () => sampleSide(s.page, CALM, samples.calm), storm: () => sampleSide(s.page, STORM, samples.storm) } });
      const storm = p95(samples.storm);
      const calm = p95(samples.calm);
      const ratio = storm / calm;
      return {
        spread: { median: ratio, q1: ratio, q3: ratio, min: ratio, max: ratio, rounds: ROUNDS },
        passed: ratio <= RATIO_TARGET,
        detail: `p95 ${storm.toFixed(0)} ms in the storm vs ${calm.toFixed(0)} ms calm over ${samples.storm.length} clicks a side; medians ${median(samples.storm).toFixed(0)} vs ${median(samples.calm).toFixed(0)} ms`,
        storm: samples.storm,
      };
    };
    const attempts = [await measure()];
    if (!attempts[0]!.passed) attempts.push(await measure());
    const last = attempts[attempts.length - 1]!;
    const absolute = p95(last.storm);
    return [
      {
        name: `input to review (click on Buy to the review dialog painted) p95, ${STORM.marksPerSecond} mark events/s over ${VENUE_SCALE} markets / calm`,
        target: { op: '<=', value: RATIO_TARGET },
        unit: 'x',
        attempts: attempts.map(({ spread, passed, detail }) => ({ spread, passed, detail })),
        passed: last.passed,
      },
      {
        name: 'input to review p95 in the storm (absolute, ms)',
        target: { op: '<=', value: 100 },
        unit: '',
        attempts: [{ spread: spreadOf([absolute]), passed: absolute <= 100, detail: `longest ${Math.max(...last.storm).toFixed(0)} ms of ${last.storm.length} clicks` }],
        passed: absolute <= 100,
        // A machine's figure, not the app's: printed, never gated.
        reportOnly: true,
      },
    ];
  } finally {
    await s.close();
  }
}
