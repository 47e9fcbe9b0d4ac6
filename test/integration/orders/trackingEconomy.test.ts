/**
 * The order tracker reads order-history once per poll for all the orders it follows, so following 50
 * open orders costs at most twice the requests of following 1 over the same simulated window. A
 * deterministic count (manual clock, fixed seed), so a test rather than a bench (issue 37).
 */
import { describe, expect, it } from 'vitest';
import { requestsWhileTracking, WINDOW_MS } from './trackingEconomySetup.js';

describe('order tracking economy', () => {
  it(`follows 50 open orders for ${WINDOW_MS / 1000} s simulated with at most twice the requests of 1`, async () => {
    const one = await requestsWhileTracking(1);
    const fifty = await requestsWhileTracking(50);
    // The window is long enough for many polls: a tracker that never polled would pass the ratio trivially.
    expect(one).toBeGreaterThan(5);
    expect(fifty / one, `${fifty} requests for 50 orders vs ${one} for 1`).toBeLessThanOrEqual(2);
  }, 120_000);
});
