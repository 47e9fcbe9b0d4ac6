/**
 * The preload: exposes window.perps, one function per channel of the IPC contract, plus on(event) for
 * main-to-renderer events and preloaded(channel) for the answers it asked for at load, and nothing else
 * (no ipcRenderer, no Node). Built as one CommonJS file because it runs sandboxed; it imports only the
 * zod-free channel list (src/shared/ipc/channels.ts) and types, so the bundle stays small.
 *
 * Payloads are passed through unchanged: main validates every one of them with the channel's schema, so
 * validating here too would only duplicate the check on the side a compromised page controls anyway.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CHANNEL_NAMES, EVENT_NAMES, PRELOADED_CHANNELS, eventWireChannel, splitChannel, type ChannelName, type EventName } from '../shared/ipc/channels.js';
import type { PerpsApi } from '../shared/ipc.js';

/** An answer the preload asked for as the page was created; `arrived` once it has come. */
interface EarlyAnswer {
  answer: Promise<unknown>;
  arrived: { value: unknown } | null;
}

/**
 * Asks the PRELOADED_CHANNELS now, as the page is created: main's answer travels while the page's script
 * loads (issue 17). The page takes it once, either synchronously with preloaded() when it has arrived, or
 * as the promise its first call of the channel returns; later calls ask again.
 */
function askEarly(): Map<ChannelName, EarlyAnswer> {
  const early = new Map<ChannelName, EarlyAnswer>();
  for (const channel of PRELOADED_CHANNELS) {
    const entry: EarlyAnswer = { answer: ipcRenderer.invoke(channel, {}), arrived: null };
    // A failure is not swallowed: the page's first call receives this same promise, rejection included.
    // This handler only records an answer that came, and keeps a failure from being reported as
    // unhandled while the page's script is still loading.
    entry.answer.then(
      (value) => (entry.arrived = { value }),
      () => undefined,
    );
    early.set(channel, entry);
  }
  return early;
}

function buildApi(early: Map<ChannelName, EarlyAnswer>): PerpsApi {
  const groups: Record<string, Record<string, (request?: unknown) => Promise<unknown>>> = {};
  for (const channel of CHANNEL_NAMES) {
    const [group, name] = splitChannel(channel);
    const target = (groups[group] ??= {});
    // One closure per channel, bound to that channel's name: the page cannot choose a channel.
    target[name] = (request?: unknown) => {
      const asked = early.get(channel);
      if (asked) {
        early.delete(channel);
        return asked.answer;
      }
      return ipcRenderer.invoke(channel, request ?? {});
    };
  }
  const preloaded = (channel: unknown): unknown => {
    if (!(PRELOADED_CHANNELS as readonly unknown[]).includes(channel)) throw new Error(`${String(channel)} is not asked by the preload`);
    const asked = early.get(channel as ChannelName);
    if (!asked?.arrived) return null;
    early.delete(channel as ChannelName);
    return asked.arrived.value;
  };
  const on = (event: EventName, listener: (payload: unknown) => void): (() => void) => {
    if (!(EVENT_NAMES as readonly string[]).includes(event)) throw new Error(`unknown event ${String(event)}`);
    if (typeof listener !== 'function') throw new Error('listener must be a function');
    const wire = eventWireChannel(event);
    // The IpcRendererEvent (with its sender) never reaches the page: only the payload does.
    const wrapped = (_event: IpcRendererEvent, payload: unknown): void => listener(payload);
    ipcRenderer.on(wire, wrapped);
    return () => {
      ipcRenderer.removeListener(wire, wrapped);
    };
  };
  return { ...groups, on, preloaded } as unknown as PerpsApi;
}

contextBridge.exposeInMainWorld('perps', buildApi(askEarly()));
