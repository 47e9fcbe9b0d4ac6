/**
 * The engine's own events: what one capability tells the others without importing them (matching and
 * liquidation close positions; the order book of triggers reacts). Listeners run synchronously, in the
 * order they registered, at the point the event is raised, and a listener's error reaches the raiser:
 * raising an event behaves as the direct call it replaces.
 */

/** Payloads of every engine event kind. */
export interface EngineEventPayloads {
  /** A wallet's position in a market went to zero (a closing fill, or a liquidation). */
  'position.closed': { wallet: string; market: string };
}

export type EngineEventKind = keyof EngineEventPayloads;

export class EngineEvents {
  private readonly listeners: { [K in EngineEventKind]?: ((payload: EngineEventPayloads[K]) => void)[] } = {};

  /** Registers a listener; returns the function that removes it. */
  on<K extends EngineEventKind>(kind: K, listener: (payload: EngineEventPayloads[K]) => void): () => void {
    const list = (this.listeners[kind] ??= []) as ((payload: EngineEventPayloads[K]) => void)[];
    list.push(listener);
    return () => {
      const index = list.indexOf(listener);
      if (index >= 0) list.splice(index, 1);
    };
  }

  emit<K extends EngineEventKind>(kind: K, payload: EngineEventPayloads[K]): void {
    const list = this.listeners[kind] as ((payload: EngineEventPayloads[K]) => void)[] | undefined;
    if (!list) return;
    // A copy: a listener that removes itself does not make the next one skipped.
    for (const listener of [...list]) listener(payload);
  }
}
