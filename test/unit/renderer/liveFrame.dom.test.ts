/**
 * The renderer's live frame (src/renderer/src/ipc/liveFrame.ts) and the mark store on it
 * (features/markets/markStore.ts), issue 29: marks, the watched book and the trades tape asked for in the
 * same 100 ms are handed over on ONE animation frame, each once however often it was asked, at most ten
 * frames a second; the mark store coalesces a storm of marks to the latest per market, losing none.
 * (A .dom.test: typechecked with the renderer's DOM types, tsconfig.web.json.)
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type LiveFrame = typeof import('../../../src/renderer/src/ipc/liveFrame.js');
type MarkStore = typeof import('../../../src/renderer/src/features/markets/markStore.js');
let live: LiveFrame;
let marks: MarkStore;
let frames: number;

beforeEach(async () => {
  vi.useFakeTimers();
  frames = 0;
  // A 60 Hz display: each requested frame runs at the next 16 ms boundary.
  vi.stubGlobal('requestAnimationFrame', (cb: (t: number) => void) => {
    frames++;
    return setTimeout(() => cb(performance.now()), 16 - (performance.now() % 16));
  });
  vi.resetModules();
  live = await import('../../../src/renderer/src/ipc/liveFrame.js');
  marks = await import('../../../src/renderer/src/features/markets/markStore.js');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the live frame', () => {
  it('runs the marks, the book and the tape asked for in one window on one frame, each once', () => {
    const ran: string[] = [];
    const book = () => ran.push('book');
    const tape = () => ran.push('tape');
    for (let i = 0; i < 10; i++) {
      live.onNextLiveFrame(book);
      live.onNextLiveFrame(tape);
      marks.putMarks([['BTC', { mark: String(100 + i), at: 1_000 + i }]]);
    }
    const seen: string[] = [];
    const off = marks.onMarkFrame((changed) => seen.push([...changed].join(',')));
    vi.advanceTimersByTime(20);
    expect(frames).toBe(1);
    expect(ran).toEqual(['book', 'tape']);
    expect(seen).toEqual(['BTC']);
    off();
  });

  it('makes at most one frame per LIVE_FRAME_MS in a storm', () => {
    let runs = 0;
    const f = () => runs++;
    // A thousand requests a second for two seconds.
    for (let t = 0; t < 2_000; t++) {
      live.onNextLiveFrame(f);
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(live.LIVE_FRAME_MS + 20);
    expect(runs).toBeGreaterThanOrEqual(2_000 / live.LIVE_FRAME_MS - 1);
    expect(runs).toBeLessThanOrEqual(2_000 / live.LIVE_FRAME_MS + 1);
    expect(frames).toBe(runs);
  });

  it('does not run a callback cancelled before its frame', () => {
    let runs = 0;
    const cancel = live.onNextLiveFrame(() => runs++);
    cancel();
    vi.advanceTimersByTime(200);
    expect(runs).toBe(0);
  });
});

describe('the mark store in a storm', () => {
  it('keeps the latest mark of every market, notifies each changed market once a frame, and loses none', () => {
    const symbols = Array.from({ length: 200 }, (_, i) => `M${i}`);
    const notified = new Map<string, number>();
    const off = marks.onMarkFrame((changed) => changed.forEach((s) => notified.set(s, (notified.get(s) ?? 0) + 1)));
    // 1,000 separate mark events a second for one second, round-robin over 200 markets.
    const last = new Map<string, string>();
    for (let i = 0; i < 1_000; i++) {
      const s = symbols[i % symbols.length]!;
      const mark = (100 + i / 100).toFixed(2);
      marks.putMarks([[s, { mark, at: 1_000 + i }]]);
      last.set(s, mark);
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(live.LIVE_FRAME_MS + 20);
    for (const s of symbols) expect(marks.getMark(s)?.mark).toBe(last.get(s));
    // Ten frames a second at most: each market is notified at most once per frame, and at least once.
    for (const s of symbols) {
      expect(notified.get(s)).toBeGreaterThanOrEqual(1);
      expect(notified.get(s)).toBeLessThanOrEqual(1_000 / live.LIVE_FRAME_MS + 1);
    }
    expect(frames).toBeLessThanOrEqual(1_000 / live.LIVE_FRAME_MS + 1);
    off();
  });

  it('keeps a newer mark over an older one that arrives after it', () => {
    marks.putMarks([['BTC', { mark: '101', at: 2_000 }]]);
    marks.putMarks([['BTC', { mark: '99', at: 1_999 }]]);
    vi.advanceTimersByTime(200);
    expect(marks.getMark('BTC')?.mark).toBe('101');
  });
});
