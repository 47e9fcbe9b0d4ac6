/**
 * What the TWAP tests share: the simulator's own record of a wallet's orders, read over loopback HTTP
 * from its order-history (whose rows carry client_order_id), so "no slice sent twice, none lost" is
 * checked against what the simulator holds, not against what the TWAP believes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../../support/paths.js';
import type { TradingWorld } from '../orders/tradingWorld.js';
export { pausedRecord } from '../../support/twapRecords.js';
import { expect } from 'vitest';

export interface SimOrderRow {
  order_id: string;
  client_order_id: string;
  size: string;
  filled_size: string;
  status: string;
  submitted_at: number;
  avg_fill_price?: string;
}

/** Every order of `wallet` in the simulator: its latest row per order id (history is newest first). */
export async function simOrders(baseUrl: string, wallet: string): Promise<SimOrderRow[]> {
  const latest = new Map<string, SimOrderRow>();
  for (let offset = 0; ; offset += 200) {
    const res = await fetch(`${baseUrl}/account/order-history?wallet=${wallet}&limit=200&offset=${offset}`);
    const body = (await res.json()) as { data: { orders: SimOrderRow[]; total: number } };
    expect(res.status).toBe(200);
    for (const row of body.data.orders) if (!latest.has(row.order_id)) latest.set(row.order_id, row);
    if (offset + body.data.orders.length >= body.data.total || body.data.orders.length === 0) break;
  }
  return [...latest.values()];
}

/** Orders per client order id. */
export function byCloid(rows: readonly SimOrderRow[]): Map<string, SimOrderRow[]> {
  const out = new Map<string, SimOrderRow[]>();
  for (const r of rows) out.set(r.client_order_id, [...(out.get(r.client_order_id) ?? []), r]);
  return out;
}


/** A `perps` child process whose output can be waited on while it runs (a foreground TWAP). */
export class PerpsChild {
  stdout = '';
  stderr = '';
  readonly child: ChildProcess;
  readonly done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  private readonly waiters: (() => void)[] = [];

  constructor(w: TradingWorld, args: string[]) {
    const globals = ['--profile', 'sim', '--base-url', w.sim.urls.base_url, '--venue-url', w.sim.urls.venue_info_url, '--data-dir', w.dataDir];
    this.child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/perps.js'), ...globals, ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, PERPS_KEYCHAIN_SERVICE: w.keychainService },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (d: Buffer) => {
      this.stdout += d.toString('utf8');
      this.wake();
    });
    this.child.stderr!.on('data', (d: Buffer) => {
      this.stderr += d.toString('utf8');
      this.wake();
    });
    const killer = setTimeout(() => this.child.kill('SIGKILL'), 90_000);
    this.done = new Promise((resolve, reject) => {
      this.child.on('error', reject);
      this.child.on('close', (code, signal) => {
        clearTimeout(killer);
        this.wake();
        resolve({ code, signal, stdout: this.stdout, stderr: this.stderr });
      });
    });
  }

  private wake(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves with the first match of `pattern` in stderr (rejects after `timeoutMs` or when the process ends first). */
  async waitForStderr(pattern: RegExp, timeoutMs = 30_000): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = pattern.exec(this.stderr);
      if (m) return m;
      if (this.child.exitCode !== null || this.child.signalCode !== null) throw new Error(`perps ended before ${pattern}:\n${this.stderr}`);
      if (Date.now() > deadline) throw new Error(`no ${pattern} within ${timeoutMs} ms:\n${this.stderr}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }
}

export function perpsJson(run: { stdout: string; stderr: string }): Record<string, any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    return JSON.parse(run.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`stdout is not one JSON document:\n${run.stdout}\nstderr:\n${run.stderr}`);
  }
}
