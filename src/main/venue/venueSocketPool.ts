/**
 * One venue WebSocket per URL for a whole session. The order book, the trades tape and the marks pump
 * each follow their own feeds, but the venue serves any number of subscriptions on one connection, and
 * counts connections per address against a limit: so they lease one shared VenueSocket instead of each
 * opening its own (three handshakes, three ping timers, three reconnect loops for one venue).
 *
 * A lease is what one consumer holds: the listeners it added and the subscriptions it made leave with it
 * when it is released, so a released consumer hears nothing more and the venue is unsubscribed from what
 * only it wanted (VenueSocket reference-counts subscriptions, so a feed two consumers share stays). The
 * socket closes when its last lease is released.
 */
import type { VenueSubscription } from './schemas.js';
import { VenueSocket, type VenueSocketEvent, type VenueSocketEvents } from './venueSocket.js';

export interface VenueSocketLease {
  /** Adds a listener for as long as the lease is held. */
  on<K extends VenueSocketEvent>(event: K, listener: (payload: VenueSocketEvents[K]) => void): void;
  /** Subscribes (see VenueSocket.subscribe); the subscription is also released with the lease. */
  subscribe(subscription: VenueSubscription): () => void;
  /** Starts the shared connection if it is not open yet; resolves once it is. */
  connect(): Promise<void>;
  /** Drops this lease's listeners and subscriptions; the last release closes the socket. Idempotent. */
  release(): Promise<void>;
}

interface Shared {
  socket: VenueSocket;
  leases: number;
}

export class VenueSocketPool {
  private readonly shared = new Map<string, Shared>();

  /** `create` makes the socket for a URL the first time one is leased (and again after its last release). */
  constructor(private readonly create: (url: string) => VenueSocket) {}

  /** Sockets open now (one per URL with a lease). */
  get size(): number {
    return this.shared.size;
  }

  lease(url: string): VenueSocketLease {
    let entry = this.shared.get(url);
    if (!entry) {
      entry = { socket: this.create(url), leases: 0 };
      this.shared.set(url, entry);
    }
    entry.leases++;
    const held = entry;
    const offs: (() => void)[] = [];
    const subscriptions = new Set<() => void>();
    let released = false;
    const live = (what: string): void => {
      if (released) throw new Error(`venue socket lease: ${what} after release`);
    };
    return {
      on: (event, listener) => {
        live('a listener added');
        offs.push(held.socket.on(event, listener));
      },
      subscribe: (subscription) => {
        live('a subscription made');
        const unsubscribe = held.socket.subscribe(subscription);
        const once = (): void => {
          if (!subscriptions.delete(once)) return;
          unsubscribe();
        };
        subscriptions.add(once);
        return once;
      },
      connect: () => {
        if (released) return Promise.reject(new Error('venue socket lease: connect after release'));
        return held.socket.connect();
      },
      release: async () => {
        if (released) return;
        released = true;
        for (const off of offs.splice(0)) off();
        for (const unsubscribe of [...subscriptions]) unsubscribe();
        if (--held.leases > 0) return;
        if (this.shared.get(url) === held) this.shared.delete(url);
        await held.socket.close();
      },
    };
  }

  /** Closes every socket still leased (a session closing with a consumer that did not release). */
  async close(): Promise<void> {
    const all = [...this.shared.values()];
    this.shared.clear();
    await Promise.all(all.map((s) => s.socket.close()));
  }
}

/** A session's pool: real sockets, each fault logged once under [venue], whoever holds a lease. */
export function loggingVenueSocketPool(logger: { warn(message: string): void }): VenueSocketPool {
  return new VenueSocketPool((url) => {
    const socket = new VenueSocket({ url, logger: { warn: (m) => logger.warn(`[venue] ${m}`) } });
    socket.on('error', (err) => logger.warn(`[venue] ${err.message}`));
    return socket;
  });
}
