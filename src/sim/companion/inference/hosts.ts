/**
 * Hosts behind each inference model, with failover.
 *
 * Spec: when a model's host fails, the service retries on another host of the same model before returning
 * an error, and a host's own error is never passed on. The simulator tries the model's hosts in round-robin
 * order starting one further each request (load spreading), skipping to the next on failure. A failed host
 * fails in one of three ways, set through the control module:
 * - unreachable: no answer, nothing done;
 * - error: answers with an error before doing any work;
 * - partial: fails partway through generation; the work done is charged (spec: "a request failing partway is
 *   charged for what the model already did").
 * When every host fails: 503 host_unavailable if none answered at all (all unreachable), otherwise 502.
 */
export type HostFailure = 'unreachable' | 'error' | 'partial';

export interface HostState {
  up: boolean;
  failure: HostFailure;
}

export interface HostsState {
  hosts: Record<string, HostState>;
  cursors: Record<string, number>;
}

export interface Attempt {
  host: string;
  failure: HostFailure | null;
}

export class HostPool {
  private hosts = new Map<string, HostState>();
  private cursors = new Map<string, number>();

  constructor(private readonly models: ReadonlyMap<string, readonly string[]>) {}

  has(model: string, host: string): boolean {
    return this.models.get(model)?.includes(host) ?? false;
  }

  set(model: string, host: string, state: HostState): void {
    if (!this.has(model, host)) throw new Error(`no host ${host} for model ${model}`);
    this.hosts.set(`${model}\u0000${host}`, { ...state });
  }

  state(model: string, host: string): HostState {
    return this.hosts.get(`${model}\u0000${host}`) ?? { up: true, failure: 'unreachable' };
  }

  /** The hosts of `model` in the order this request tries them. */
  order(model: string): string[] {
    const hosts = this.models.get(model);
    if (!hosts || hosts.length === 0) throw new Error(`model ${model} has no hosts`);
    const start = (this.cursors.get(model) ?? 0) % hosts.length;
    this.cursors.set(model, start + 1);
    return [...hosts.slice(start), ...hosts.slice(0, start)];
  }

  exportState(): HostsState {
    return { hosts: Object.fromEntries([...this.hosts].map(([k, v]) => [k, { ...v }])), cursors: Object.fromEntries(this.cursors) };
  }

  importState(s: HostsState): void {
    this.hosts = new Map(Object.entries(s.hosts).map(([k, v]) => [k, { ...v }]));
    this.cursors = new Map(Object.entries(s.cursors));
  }
}
