/**
 * One clock for everything live on the screen: marks, the watched book and the trades tape are handed to
 * React on the same animation frame, at most once every LIVE_FRAME_MS, and rendered in one pass.
 *
 * Why one clock (issue 29): each stream used to take its own next frame, so in a storm the marks, the book
 * and the tape (each up to ten a second, on their own phases) made up to thirty frames a second that
 * each restyled, laid out and painted the trade view, and the book's and tape's state updates were
 * rendered after the frame they were set in (a later task), a frame of their own. On one clock, everything
 * that changed in 100 ms is written in one render and one layout. Nothing is dropped: each stream keeps
 * its latest value (marks per market) until the frame takes it.
 */
import { flushSync } from 'react-dom';

/** Minimum time between two live frames: ten a second, as often as main delivers each stream. */
export const LIVE_FRAME_MS = 100;

const queued = new Set<() => void>();
let pending = false;
let lastFrame = -Infinity;

function run(): void {
  pending = false;
  lastFrame = performance.now();
  const due = [...queued];
  queued.clear();
  // One synchronous render of every update the callbacks make (useState and external stores alike), in
  // this frame, before its layout and paint.
  flushSync(() => {
    for (const f of due) f();
  });
}

function onFrame(): void {
  // rAF pauses in a hidden window, which is what we want (nothing to paint); without rAF (tests), at once.
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(run);
  else run();
}

/**
 * Runs `f` on the next live frame (once, however often it is asked before then). Returns a cancel
 * function for a component that leaves before the frame.
 */
export function onNextLiveFrame(f: () => void): () => void {
  queued.add(f);
  if (!pending) {
    pending = true;
    const wait = lastFrame + LIVE_FRAME_MS - performance.now();
    if (wait <= 0) onFrame();
    else setTimeout(onFrame, wait);
  }
  return () => queued.delete(f);
}
