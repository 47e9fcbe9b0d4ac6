/**
 * A read repeated on a timer for the command line's watchers (`perps alert watch`): the first run at once,
 * the next one `everyMs` after the previous finished (never two at a time), a failure passed to onError and
 * the polling kept up, until stop().
 */
export function pollEvery(poll: () => Promise<void>, everyMs: number, onError: (err: Error) => void): { stop(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const tick = (delay: number): void => {
    timer = setTimeout(() => {
      void poll()
        .catch((err: unknown) => onError(err as Error))
        .finally(() => {
          if (!stopped) tick(everyMs);
        });
    }, delay);
  };
  tick(0);
  return {
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
