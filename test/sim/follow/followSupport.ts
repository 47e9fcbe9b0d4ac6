/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers handed to assertions */
/** What the follower's integration tests share: waiting for a condition, and the simulated venue's info API. */
import { expect } from 'vitest';
import type { RunningSimulator } from '../../../src/sim/index.js';

/** Polls `read` until `ok` holds (every 25 ms), or fails saying what it waited for and what it last saw. */
export async function until<T>(read: () => T | Promise<T>, ok: (value: T) => boolean, what: string, timeoutMs = 8000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** POSTs an info request to the simulator's venue; it must answer 200. */
export async function venueInfo(sim: RunningSimulator, body: unknown): Promise<any> {
  const res = await fetch(sim.urls.venue_info_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBe(200);
  return res.json();
}

/** A coin's markPx as metaAndAssetCtxs publishes it. */
export async function publishedMark(sim: RunningSimulator, coin: string): Promise<string> {
  const [meta, ctxs] = await venueInfo(sim, { type: 'metaAndAssetCtxs' });
  return ctxs[meta.universe.findIndex((u: any) => u.name === coin)].markPx;
}
