/**
 * Harness of the key and money integration tests: a simulator over real loopback HTTP (manual clock),
 * service contexts pointed at it with their own data folder and their own keychain service name (the
 * real OS keychain, cleaned up with keytar), and main wallets with counting signers so a test can prove
 * that a refused request signed nothing.
 */
import { Wallet } from 'ethers';
import type { RunningSimulator, SimulatorOptions } from '../../../src/sim/index.js';
import { SimBed, startSimBed } from '../../support/simBed.js';
import { simProfile } from '../../../src/main/profiles/profiles.js';
import { createServiceContext, type ServiceContext } from '../../../src/main/services/serviceContext.js';
import { EnvKeySigner } from '../../../src/main/signers/envKeySigner.js';
import type { Signer } from '../../../src/main/signers/signer.js';
import type { TypedData } from '../../../src/shared/eip712/index.js';
import type { FetchFn } from '../../../src/main/api/http.js';
import type { SleepFn } from '../../../src/main/api/retry.js';
import { tempDir, testService, wipeService } from '../../support/keychain.js';
import { prepareWithdrawForLater, submitWithdraw } from '../../../src/main/services/money/withdrawals/index.js';
import type { TrackedWithdrawal } from '../../../src/main/services/money/withdrawalStore.js';

export const DAY_MS = 86_400_000;

export class SimHarness extends SimBed {
  private constructor(sim: RunningSimulator) {
    super(sim);
  }

  /**
   * Marks are frozen: keys and money do not need a moving market, and a frozen venue lets the manual
   * clock jump days (key expiry) without stepping through millions of venue ticks.
   */
  static async boot(options: SimulatorOptions = {}): Promise<SimHarness> {
    return new SimHarness(await startSimBed({ seed: 7, manualClock: true, freezeMarks: true, ...options }));
  }

  advance(ms: number): Promise<unknown> {
    return this.control('/advance', { ms });
  }

  /** Deposits and advances past the confirmation delay, so the amount is in the free balance. */
  async fund(wallet: string, amount: string): Promise<void> {
    await this.control('/deposit', { wallet, amount });
    await this.advance(this.sim.config.timings.deposit_confirm_ms);
  }

  /** Everything a withdrawal needs to go from REQUESTED to a terminal status. */
  get withdrawalMs(): number {
    const t = this.sim.config.timings;
    return t.withdrawal_accept_ms + t.withdrawal_review_ms + t.withdrawal_complete_ms;
  }

  /**
   * Keeps advancing the simulator clock in steps while `work` runs (a tracker waiting on a manual clock
   * needs time to move), and returns its result.
   */
  async advanceDuring<T>(work: Promise<T>, stepMs = 500, pauseMs = 15): Promise<T> {
    let done = false;
    const settled = work.finally(() => {
      done = true;
    });
    const pump = (async () => {
      while (!done) {
        await this.advance(stepMs);
        await new Promise((r) => setTimeout(r, pauseMs));
      }
    })();
    try {
      return await settled;
    } finally {
      await pump;
    }
  }

  stop(): Promise<void> {
    return this.sim.stop();
  }
}

export interface ContextSetup {
  dataDir: string;
  keychainService: string;
  /** Every URL the context fetched, in order (trading API and clock reads). */
  requests: string[];
}

/** Fast retries: tests should not wait for the app's production backoff. */
const FAST_RETRY = { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 };

export function contextFor(
  h: SimHarness,
  setup: Partial<Pick<ContextSetup, 'dataDir' | 'keychainService'>> & { requests?: string[]; sleep?: SleepFn } = {},
): { ctx: ServiceContext; setup: ContextSetup } {
  const dataDir = setup.dataDir ?? tempDir('keys-money');
  const keychainService = setup.keychainService ?? testService('keys-money');
  const requests = setup.requests ?? [];
  const countingFetch: FetchFn = (input, init) => {
    requests.push(`${init?.method ?? 'GET'} ${String(input)}`);
    return fetch(input, init);
  };
  const ctx = createServiceContext(simProfile(h.urls, dataDir), {
    keychainService,
    fetch: countingFetch,
    timeoutMs: 3_000,
    retry: FAST_RETRY,
    configTtlMs: 0,
    ...(setup.sleep ? { sleep: setup.sleep } : {}),
  });
  return { ctx, setup: { dataDir, keychainService, requests } };
}

export async function cleanupKeychain(...services: string[]): Promise<void> {
  for (const s of services) await wipeService(s);
}

/** A signer that counts what it signs (to prove "nothing was signed"). */
export class CountingSigner implements Signer {
  readonly kind: Signer['kind'];
  readonly address: string;
  readonly signed: TypedData[] = [];

  constructor(private readonly inner: Signer) {
    this.kind = inner.kind;
    this.address = inner.address;
  }

  signTypedData(data: TypedData): Promise<string> {
    this.signed.push(data);
    return this.inner.signTypedData(data);
  }
}

export interface MainWallet {
  address: string;
  privateKey: string;
  signer: CountingSigner;
}

/** A fresh main wallet with an env-key signer (its warning is silenced: this is automation). */
export function newMainWallet(): MainWallet {
  const w = Wallet.createRandom();
  const env = { PERPS_TEST_MAIN_KEY: w.privateKey };
  const inner = EnvKeySigner.fromEnv('PERPS_TEST_MAIN_KEY', { env, logger: { warn: () => undefined } });
  return { address: w.address, privateKey: w.privateKey, signer: new CountingSigner(inner) };
}

/**
 * A withdrawal signed, stored and sent WITHOUT the app's pre-sign checks (balance, minimum), so the
 * service's own verdicts can be tested (BELOW_MIN, an asynchronous insufficient-balance REJECTED, a lost
 * answer while the service is down). It takes the production path of a withdrawal signed for later and
 * submitted as prepared (prepareWithdrawForLater + submitWithdraw); nothing in src exists for tests only.
 */
export async function withdrawUnchecked(ctx: ServiceContext, input: { wallet: string; amount: string; signer: Signer }): Promise<TrackedWithdrawal> {
  const prepared = await prepareWithdrawForLater(ctx, { wallet: input.wallet, amount: input.amount });
  return (await submitWithdraw(ctx, prepared, input.signer)).withdrawal;
}
