/**
 * What the order, position and margin use cases share: the slice of the ServiceContext they use, the
 * wallet/account resolution, venue marks joined to market records, and the waiting helper every
 * poll loop uses (so a test can drive time through the simulator instead of the wall clock).
 */
import { parseDecimal, type Decimal } from '../../../shared/decimal/index.js';
import { accountIdFromWallet, toChecksumAddress } from '../../../shared/identity/index.js';
import type { Market } from '../../../shared/protocol/index.js';
import { isTransientFailure } from '../../api/errors.js';
import type { SleepFn } from '../../api/retry.js';
import { joinMarkets } from '../../venue/marketJoin.js';
import type { ServiceContext } from '../serviceContext.js';
import { OperationError, ValidationError } from '../errors.js';

/** The parts of a ServiceContext the trading use cases need (a ServiceContext satisfies it). */
// vault and clock: a 403 on a trading route is explained from the key listing and the local key record.
// settings: the user's order defaults (leverage) apply when an intent leaves them out.
export type TradingContext = Pick<ServiceContext, 'profile' | 'api' | 'venue' | 'config' | 'nonces' | 'sleep' | 'tradingSigner' | 'vault' | 'clock' | 'settings'>;

export interface WalletIds {
  wallet: string;
  accountId: string;
}

/** The checksummed wallet and its account_id; a malformed address is a ValidationError (nothing sent). */
export function walletIds(wallet: string, field = 'wallet'): WalletIds {
  try {
    const checksummed = toChecksumAddress(wallet, field);
    return { wallet: checksummed, accountId: accountIdFromWallet(checksummed) };
  } catch (err) {
    throw new ValidationError((err as Error).message, { cause: err, hint: 'Pass the main wallet address (0x followed by 40 hex characters).' });
  }
}

/**
 * Current venue marks of the given markets, keyed by service symbol. One venue request for all of them;
 * the join is on venue_asset_index / venue_symbol (never on symbol). A market the venue cannot join or
 * has no mark for is an operation failure: every computation needing a mark (slippage bounds, trigger
 * sides, bracket references) would otherwise guess.
 */
export async function readMarks(ctx: Pick<TradingContext, 'venue'>, markets: readonly Market[]): Promise<Map<string, Decimal>> {
  const out = new Map<string, Decimal>();
  if (markets.length === 0) return out;
  const [meta, ctxs] = await ctx.venue.metaAndAssetCtxs();
  const join = joinMarkets(markets, meta, ctxs);
  for (const m of markets) {
    const j = join.bySymbol.get(m.symbol);
    if (!j?.ctx) {
      const why = join.unjoined.find((u) => u.market.symbol === m.symbol)?.reason ?? 'the venue sent no asset context for it';
      throw new OperationError('NO_MARK', `no venue mark for market ${m.symbol}: ${why}`, {
        hint: 'The venue info API did not list this market; check --venue-url and try again.',
      });
    }
    out.set(m.symbol, parseDecimal(j.ctx.markPx, `${m.symbol} markPx`));
  }
  return out;
}

export async function readMark(ctx: Pick<TradingContext, 'venue'>, market: Market): Promise<Decimal> {
  const marks = await readMarks(ctx, [market]);
  return marks.get(market.symbol)!;
}

/** Raised by a wait that ran out of time; the last known state is in `details`. */
export class WaitTimeoutError extends OperationError {
  constructor(what: string, timeoutMs: number, details?: Record<string, unknown>) {
    super('WAIT_TIMEOUT', `${what}: still not done after ${Math.round(timeoutMs / 1000)} s`, {
      kind: 'transient',
      hint: 'Nothing was cancelled: the request is still on the service. Check it again later (e.g. `perps order get ID --wait`).',
      ...(details ? { details } : {}),
    });
    this.name = 'WaitTimeoutError';
  }
}

export interface PollOptions {
  /** Consecutive transient read failures (network, timeout, 5xx after the client's retries) tolerated. */
  maxConsecutiveFailures?: number;
  /** Total time to wait before giving up, default 120 s. */
  timeoutMs?: number;
  /** First wait between polls. */
  minIntervalMs?: number;
  /** Longest wait between polls once nothing changes. */
  maxIntervalMs?: number;
  signal?: AbortSignal;
}

export const DEFAULT_WAIT_TIMEOUT_MS = 120_000;

/**
 * Elapsed time of a wait: the larger of the time spent sleeping and the wall-clock time. Sleeping is
 * counted because a test's sleep advances a simulated clock without real time passing; wall time is
 * counted because slow answers (latency) must count against the budget too.
 */
export class WaitBudget {
  private slept = 0;
  private readonly startedAt = Date.now();

  constructor(
    private readonly sleepFn: SleepFn,
    readonly timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {}

  get elapsedMs(): number {
    return Math.max(this.slept, Date.now() - this.startedAt);
  }

  get expired(): boolean {
    return this.elapsedMs >= this.timeoutMs;
  }

  async sleep(ms: number): Promise<void> {
    const left = Math.max(0, this.timeoutMs - this.elapsedMs);
    const wait = Math.min(ms, left);
    this.slept += wait;
    await this.sleepFn(wait, this.signal);
  }
}

/**
 * Polls `check` until it returns a value, backing off (doubling up to maxIntervalMs) while nothing
 * changes. `check` reports progress through its return: undefined = not yet. Throws WaitTimeoutError.
 */
export async function pollUntil<T>(sleep: SleepFn, what: string, check: () => Promise<T | undefined>, options: PollOptions = {}): Promise<T> {
  const budget = new WaitBudget(sleep, options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS, options.signal);
  let interval = options.minIntervalMs ?? 200;
  const maxInterval = options.maxIntervalMs ?? 2_000;
  const maxFailures = options.maxConsecutiveFailures ?? 5;
  let failures = 0;
  for (;;) {
    let v: T | undefined;
    try {
      v = await check();
      failures = 0;
    } catch (err) {
      // A read that failed in transit did not change anything being waited for: poll again, unless the
      // service looks unreachable (several in a row), which waiting longer would only hide.
      if (!isTransientFailure(err) || ++failures >= maxFailures) throw err;
    }
    if (v !== undefined) return v;
    if (budget.expired) throw new WaitTimeoutError(what, budget.timeoutMs);
    await budget.sleep(interval);
    interval = Math.min(maxInterval, interval * 2);
  }
}
