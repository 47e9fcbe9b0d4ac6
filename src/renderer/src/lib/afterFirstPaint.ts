/**
 * Progressive first render: what is urgent (the order ticket) paints first; the rest is loaded and
 * mounted right after that frame, as a transition, which React renders in slices that yield to input,
 * so keys typed into the ticket are not held up by the tables behind it.
 *
 * Not React.lazy with Suspense: a Suspense boundary revealed within a transition waits out React's
 * reveal throttle (300 ms), which would hold the panels back long after their code is in.
 */
import { startTransition, useEffect, useState } from 'react';

/**
 * A window that is not shown yet (or a background tab) may not produce frames at all: mount anyway after
 * this long rather than wait for a frame that never comes.
 */
const FRAME_WAIT_LIMIT_MS = 200;

/** Resolves once the frame being prepared now has been produced (or FRAME_WAIT_LIMIT_MS passed). */
export function afterNextFrame(): { done: Promise<void>; cancel: () => void } {
  let frame = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fallback: ReturnType<typeof setTimeout> | undefined;
  const done = new Promise<void>((resolve) => {
    // rAF runs before the frame is drawn; a task queued from it runs after.
    frame = requestAnimationFrame(() => {
      clearTimeout(fallback);
      timer = setTimeout(resolve, 0);
    });
    fallback = setTimeout(() => {
      cancelAnimationFrame(frame);
      resolve();
    }, FRAME_WAIT_LIMIT_MS);
  });
  return {
    done,
    cancel: () => {
      cancelAnimationFrame(frame);
      clearTimeout(fallback);
      clearTimeout(timer);
    },
  };
}

/** A module (or anything) loaded once; `loaded()` has it synchronously after that. */
export interface Loader<T> {
  load(): Promise<T>;
  loaded(): T | null;
}

/** Loads once and remembers; a failed load may be tried again. */
export function loaderOf<T>(load: () => Promise<T>): Loader<T> {
  let value: T | null = null;
  let pending: Promise<T> | null = null;
  return {
    load: () =>
      (pending ??= load().then(
        (v) => (value = v),
        (err: unknown) => {
          pending = null;
          throw err;
        },
      )),
    loaded: () => value,
  };
}

/**
 * `loader`'s value once the component's first frame has been drawn and it has loaded (the load starts
 * after that frame); null until then. Already loaded (the view opened again): at once. A failed load is
 * thrown in render, to the nearest error boundary.
 */
export function useAfterFirstPaint<T>(loader: Loader<T>): T | null {
  const [value, setValue] = useState<{ loaded: T } | null>(() => {
    const loaded = loader.loaded();
    return loaded === null ? null : { loaded };
  });
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  if (failure) throw failure.error;
  useEffect(() => {
    if (value !== null) return;
    let live = true;
    const frame = afterNextFrame();
    // The load starts once the frame is out: its module-preload links and requests would otherwise be
    // added to the document, and fetched, while that frame is being prepared.
    frame.done
      .then(() => loader.load())
      .then(
        (loaded) => {
          if (live) startTransition(() => setValue({ loaded }));
        },
        (error: unknown) => {
          if (live) setFailure({ error });
        },
      );
    return () => {
      live = false;
      frame.cancel();
    };
    // Once per mount: `loader` is module-level, and `value` only goes from null to loaded.
  }, []);
  return value?.loaded ?? null;
}
