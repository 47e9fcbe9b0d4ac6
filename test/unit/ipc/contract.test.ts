/**
 * Contract completeness: the channel list, the schema table, the handler table and the BUILT preload all
 * name exactly the same channels, and the events agree too. The preload is checked as shipped: the real
 * out/preload/index.cjs is evaluated with a fake `electron` module (a tiny require shim), and what it
 * passes to contextBridge.exposeInMainWorld is compared with the contract.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  CANDLE_INTERVALS,
  CHANNEL_NAMES,
  PRELOADED_CHANNELS,
  EVENT_NAMES,
  IPC_CHANNELS,
  IPC_EVENTS,
  LEDGER_SCHEMES,
  PROMPT_EVENT_NAMES,
  STREAM_EVENT_NAMES,
  eventWireChannel,
} from '../../../src/shared/ipc.js';
import { createHandlers } from '../../../src/main/ipc/handlers/index.js';
import type { AppCore } from '../../../src/main/app/appCore.js';
import { DERIVATION_SCHEMES } from '../../../src/main/signers/ledger/derivationPaths.js';
import { CANDLE_INTERVALS as VENUE_CANDLE_INTERVALS } from '../../../src/main/venue/schemas.js';
import { REPO_ROOT } from '../../support/paths.js';

const PRELOAD = path.join(REPO_ROOT, 'out/preload/index.cjs');

interface FakeElectron {
  exposed: Map<string, unknown>;
  invoked: { channel: string; payload: unknown }[];
  listeners: Map<string, Set<(...args: unknown[]) => void>>;
  required: string[];
}

/** Evaluates the built preload as Electron would (CommonJS, sandboxed: only `electron` may be required). */
function loadBuiltPreload(): FakeElectron {
  const fake: FakeElectron = { exposed: new Map(), invoked: [], listeners: new Map(), required: [] };
  const electron = {
    contextBridge: {
      exposeInMainWorld: (key: string, api: unknown) => fake.exposed.set(key, api),
    },
    ipcRenderer: {
      invoke: async (channel: string, payload: unknown) => {
        fake.invoked.push({ channel, payload });
        return { ok: true, value: null };
      },
      on: (channel: string, fn: (...args: unknown[]) => void) => {
        if (!fake.listeners.has(channel)) fake.listeners.set(channel, new Set());
        fake.listeners.get(channel)!.add(fn);
      },
      removeListener: (channel: string, fn: (...args: unknown[]) => void) => fake.listeners.get(channel)?.delete(fn),
    },
  };
  const shimRequire = (name: string): unknown => {
    fake.required.push(name);
    if (name === 'electron') return electron;
    throw new Error(`the preload required '${name}': a sandboxed preload may only require electron`);
  };
  const module = { exports: {} };
  const code = fs.readFileSync(PRELOAD, 'utf8');
  vm.runInNewContext(`(function (require, module, exports) {\n${code}\n})`, {}, { filename: PRELOAD })(shimRequire, module, module.exports);
  return fake;
}

function channelsOfApi(api: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [group, value] of Object.entries(api)) {
    if (group === 'on' || group === 'preloaded') continue;
    for (const [name, fn] of Object.entries(value as Record<string, unknown>)) {
      expect(typeof fn, `${group}.${name}`).toBe('function');
      out.push(`${group}:${name}`);
    }
  }
  return out.sort();
}

describe('the IPC contract', () => {
  beforeAll(() => {
    // The suite runs after `electron-vite build` (scripts/test.sh); build here only when run on its own.
    if (!fs.existsSync(PRELOAD)) execFileSync(path.join(REPO_ROOT, 'node_modules/.bin/electron-vite'), ['build'], { cwd: REPO_ROOT, stdio: 'ignore' });
  }, 120_000);

  it('names every channel once, each with a request and a response schema', () => {
    expect(new Set(CHANNEL_NAMES).size).toBe(CHANNEL_NAMES.length);
    expect(Object.keys(IPC_CHANNELS).sort()).toEqual([...CHANNEL_NAMES].sort());
    for (const c of CHANNEL_NAMES) {
      expect(c).toMatch(/^[a-z]+:[a-zA-Z]+$/);
      expect(typeof IPC_CHANNELS[c].request.safeParse).toBe('function');
      expect(typeof IPC_CHANNELS[c].response.safeParse).toBe('function');
    }
  });

  it('has no generic passthrough: every request schema is a strict object (or a union of them)', () => {
    interface Def {
      type: string;
      catchall?: { _zod: { def: Def } };
      options?: { _zod: { def: Def } }[];
    }
    const strict = (def: Def): boolean =>
      def.type === 'object' ? def.catchall?._zod.def.type === 'never' : def.type === 'union' ? (def.options ?? []).every((o) => strict(o._zod.def)) : false;
    for (const c of CHANNEL_NAMES) {
      const def = (IPC_CHANNELS[c].request as unknown as { _zod: { def: Def } })._zod.def;
      // An unknown key is refused, never ignored.
      expect(strict(def), c).toBe(true);
      expect(IPC_CHANNELS[c].request.safeParse({ __unknown_key__: 1 }).success, c).toBe(false);
    }
  });

  it('names every event once with a payload schema; streams and prompts are disjoint', () => {
    expect(Object.keys(IPC_EVENTS).sort()).toEqual([...EVENT_NAMES].sort());
    expect(STREAM_EVENT_NAMES.filter((e) => (PROMPT_EVENT_NAMES as readonly string[]).includes(e))).toEqual([]);
  });

  it('has a handler for every channel, and no other', () => {
    const calls: string[] = [];
    const core = new Proxy({}, { get: (_t, prop) => (...args: unknown[]) => (calls.push(String(prop)), Promise.resolve(args)) }) as unknown as AppCore;
    const handlers = createHandlers(core);
    expect(Object.keys(handlers).sort()).toEqual([...CHANNEL_NAMES].sort());
    for (const c of CHANNEL_NAMES) expect(typeof handlers[c], c).toBe('function');
  });

  it('the built preload exposes exactly the contract: one function per channel, plus on() and preloaded()', () => {
    const fake = loadBuiltPreload();
    expect([...fake.exposed.keys()]).toEqual(['perps']);
    expect(fake.required).toEqual(['electron']);
    const api = fake.exposed.get('perps') as Record<string, unknown>;
    expect(channelsOfApi(api)).toEqual([...CHANNEL_NAMES].sort());
    expect(typeof api['on']).toBe('function');
    expect(typeof api['preloaded']).toBe('function');
    expect(Object.keys(api).filter((k) => typeof api[k] === 'function').sort()).toEqual(['on', 'preloaded']);
    // Nothing of Electron or Node is reachable from what the page gets.
    const text = JSON.stringify(Object.keys(api));
    expect(text).not.toMatch(/ipcRenderer|invoke|send|require|process/);
  });

  it('each preload function invokes its own channel with the payload, and nothing else', async () => {
    const fake = loadBuiltPreload();
    const api = fake.exposed.get('perps') as Record<string, Record<string, (p?: unknown) => Promise<unknown>>>;
    // Asked as the page is created, before any call: the preloaded reads (they take no request).
    expect(fake.invoked).toEqual(PRELOADED_CHANNELS.map((channel) => ({ channel, payload: {} })));
    fake.invoked.length = 0;
    const preloaded = new Set<string>(PRELOADED_CHANNELS);
    for (const c of CHANNEL_NAMES) {
      const [group, name] = c.split(':') as [string, string];
      await api[group]![name]!({ probe: c });
    }
    // A preloaded channel's first call gets the answer asked at load; every other call invokes its channel.
    expect(fake.invoked.map((i) => i.channel)).toEqual(CHANNEL_NAMES.filter((c) => !preloaded.has(c)));
    expect(fake.invoked.every((i) => (i.payload as { probe: string }).probe === i.channel)).toBe(true);
    for (const c of PRELOADED_CHANNELS) {
      const [group, name] = c.split(':') as [string, string];
      await api[group]![name]!();
      expect(fake.invoked.at(-1)).toEqual({ channel: c, payload: {} });
    }
    // A call without a payload sends an empty object (the schemas of request-less channels expect one).
    await api['app']!['getInfo']!();
    expect(fake.invoked.at(-1)).toEqual({ channel: 'app:getInfo', payload: {} });
  });

  it('preloaded(channel) hands over an answer asked at load once it has arrived, once; later calls ask again', async () => {
    const fake = loadBuiltPreload();
    const api = fake.exposed.get('perps') as { preloaded: (c: string) => unknown; app: Record<string, () => Promise<unknown>> };
    expect(() => api.preloaded('wallet:current')).toThrow(/not asked by the preload/);
    // The fake main answers at once; the answer is there after the microtasks that deliver it.
    await Promise.resolve();
    await Promise.resolve();
    expect(api.preloaded('app:firstScreen')).toEqual({ ok: true, value: null });
    expect(api.preloaded('app:firstScreen')).toBeNull();
    const before = fake.invoked.length;
    await api.app['firstScreen']!();
    expect(fake.invoked.slice(before)).toEqual([{ channel: 'app:firstScreen', payload: {} }]);
  });

  it('on(event) delivers only the payload and unsubscribes; unknown events are refused', () => {
    const fake = loadBuiltPreload();
    const api = fake.exposed.get('perps') as { on: (e: string, fn: (p: unknown) => void) => () => void };
    for (const event of EVENT_NAMES) {
      const got: unknown[] = [];
      const off = api.on(event, (p) => got.push(p));
      const wire = eventWireChannel(event);
      const listeners = [...(fake.listeners.get(wire) ?? [])];
      expect(listeners).toHaveLength(1);
      listeners[0]!({ sender: 'the IpcRendererEvent must not reach the page' }, { hello: event });
      expect(got).toEqual([{ hello: event }]);
      off();
      expect(fake.listeners.get(wire)?.size).toBe(0);
    }
    expect(() => api.on('not-an-event', () => undefined)).toThrow(/unknown event/);
  });

  it('mirrors the Ledger derivation schemes and the venue candle intervals main uses', () => {
    expect(LEDGER_SCHEMES.map((s) => ({ ...s }))).toEqual(DERIVATION_SCHEMES.map((s) => ({ ...s })));
    expect([...CANDLE_INTERVALS]).toEqual([...VENUE_CANDLE_INTERVALS]);
  });
});
