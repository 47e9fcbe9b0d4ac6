/**
 * The venue's book as a chase follows it: the l2Book subscription of its coin on the venue WebSocket
 * (the same socket, leased from the session's pool, that the app's book and the alerts use), every
 * message checked as a whole (src/shared/algos/chase/chaseBook.ts) before a price in it is used.
 *
 * A message that fails, whether the socket's own schema refused it or the whole-book check did, is passed
 * on as `bad`: the chase freezes (sends nothing) until the next good book. So a glitch in the feed can
 * stop a chase from following, never make it trade on a price that is not a book.
 */
import { checkChaseBook } from '../../../../shared/algos/chase/chaseBook.js';
import type { BestPrices } from '../../../../shared/algos/chase/chasePrice.js';
import { DecodeError } from '../../../../shared/protocol/index.js';
import type { VenueSocketLease } from '../../../venue/venueSocketPool.js';

export type ChaseBookEvent = { best: BestPrices; time: number; receivedAt: number } | { bad: string; receivedAt: number };

export interface ChaseBookSource {
  /** Follows `coin`'s book; every message (good or bad) goes to `listener`. Returns the release. */
  follow(coin: string, listener: (event: ChaseBookEvent) => void): () => void;
}

/** Books from a leased venue socket (connected on the first follow). */
export function venueChaseBooks(lease: VenueSocketLease, onError: (err: Error) => void = () => undefined): ChaseBookSource {
  return {
    follow(coin, listener) {
      let live = true;
      lease.on('l2Book', (raw) => {
        if (!live || (raw as { coin?: unknown }).coin !== coin) return;
        const checked = checkChaseBook(raw, coin);
        listener(checked.ok ? { best: checked.best, time: checked.time, receivedAt: performance.now() } : { bad: checked.problem, receivedAt: performance.now() });
      });
      // The socket reports a message that fails its schema here (which channel it was cannot be told):
      // the chase freezes until a good book comes, rather than trade on a feed that misbehaves.
      lease.on('error', (err) => {
        if (!live) return;
        if (err instanceof DecodeError) listener({ bad: err.message.slice(0, 300), receivedAt: performance.now() });
        else onError(err);
      });
      const release = lease.subscribe({ type: 'l2Book', coin });
      lease.connect().catch((err: unknown) => onError(err as Error));
      return () => {
        live = false;
        release();
      };
    },
  };
}
