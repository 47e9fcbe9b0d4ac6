/**
 * The one simulator bed of the tests: a simulator of the service started in this process on loopback
 * (port 0), its control API (/sim/...) and its companion control API, and a stop. Every world the tests
 * build (the trading world, the API world, the keys-and-money harness, the companion world, the app
 * harness) stands on it, so the control calls every test makes (set a mark, inject chaos, deposit) are
 * written once and fail the same way: an answer other than 200 with `success` is an error naming the route.
 */
import { startSimulator, type ChaosSettings, type RunningSimulator, type SimulatorOptions } from '../../src/sim/index.js';

export interface SimBedOptions extends SimulatorOptions {
  /** Freezes the venue's random walk: marks move only through /sim/mark (default false). */
  freezeMarks?: boolean;
}

/** Starts a simulator on a free loopback port (and freezes its marks when asked). */
export async function startSimBed(options: SimBedOptions = {}): Promise<RunningSimulator> {
  const { freezeMarks, ...sim } = options;
  const running = await startSimulator({ port: 0, ...sim });
  if (freezeMarks) await postControl(running.urls.control_url, '/freeze-marks', {});
  return running;
}

async function postControl(root: string, route: string, body: unknown): Promise<{ success?: boolean; data?: unknown }> {
  const res = await fetch(root + route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as { success?: boolean; data?: unknown; error?: { message?: string } };
  if (res.status !== 200 || json.success === false) throw new Error(`control ${route}: HTTP ${res.status}: ${json.error?.message ?? JSON.stringify(json)}`);
  return json;
}

export class SimBed {
  constructor(readonly sim: RunningSimulator) {}

  get urls(): RunningSimulator['urls'] {
    return this.sim.urls;
  }

  /** POST /sim<route>: the data of its answer. */
  async control(route: string, body: unknown): Promise<unknown> {
    return (await postControl(this.sim.urls.control_url, route, body)).data;
  }

  /** POST to the companion services' control API: its whole answer. */
  async companionControl(route: string, body: unknown): Promise<unknown> {
    return postControl(this.sim.urls.companion_control_url, route, body);
  }

  setMark(symbol: string, price: string): Promise<unknown> {
    return this.control('/mark', { market: symbol, price });
  }

  chaos(settings: Partial<ChaosSettings>): Promise<unknown> {
    return this.control('/chaos', settings);
  }

  resetChaos(): Promise<unknown> {
    return this.chaos({ error_rate: 0, latency_ms: 0, persist_lag_ms: 0, drop_rate: 0 });
  }
}
