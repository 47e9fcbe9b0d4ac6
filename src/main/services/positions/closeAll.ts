/**
 * Closing every open position at once (the app's "Close all", one confirmation; `perps position
 * close-all`): one Prepared over all of them, each market closed exactly as `prepareClose` closes one
 * (lifecycle rule 4: its armed triggers cancelled first, then one reduce-only MARKET leg sized from what
 * will be closeable).
 *
 * A market that cannot be closed now (nothing closeable: resting reduce-only orders reserve all of it) is
 * listed as skipped with the reason instead of holding the others back: close-all is what a trader
 * reaches for when things go wrong, and every position it can close should close. For the same reason the
 * markets are submitted side by side, and one market's failure is reported in its own result without
 * stopping the rest.
 */
import { Decimal } from '../../../shared/decimal/index.js';
import type { Signer } from '../../signers/signer.js';
import { describeFailure, toAppError } from '../errors.js';
import { walletIds, type TradingContext } from '../orders/orderContext.js';
import { assertPreparedFor, type PreparedBase } from '../signing/prepared.js';
import { prepareClose, submitClose, type CloseOptions, type ClosePositionResult, type PreparedClose } from './closePosition.js';

export interface CloseAllInput {
  wallet: string;
  /** Tolerance of every MARKET leg's bound; default each market's slippage_bps. */
  slippageBps?: number;
  /** A tolerance per market (panic closes with each market's stop tolerance); wins over slippageBps. */
  slippageBpsFor?: (market: string) => number;
}

export interface SkippedClose {
  market: string;
  code: string;
  message: string;
  hint: string | null;
}

export interface PreparedCloseAll extends PreparedBase<'close-all'> {
  /** One prepared close per market that can be closed now, in the order /positions lists them. */
  readonly closes: readonly PreparedClose[];
  readonly skipped: readonly SkippedClose[];
  readonly view: {
    wallet: string;
    closes: PreparedClose['view'][];
    skipped: SkippedClose[];
    summary: string[];
  };
}

export type CloseAllOutcome = 'closed' | 'partly_closed' | 'failed';

export interface CloseAllMarketResult {
  market: string;
  /** closed: flat; partly_closed: filled, but resting reduce-only orders kept part of it open; failed: see error. */
  outcome: CloseAllOutcome;
  result: ClosePositionResult | null;
  error: { code: string; message: string; hint: string | null; cancelled_triggers: string[] } | null;
}

export interface CloseAllResult {
  wallet: string;
  results: CloseAllMarketResult[];
  skipped: SkippedClose[];
}

export async function prepareCloseAll(ctx: TradingContext, input: CloseAllInput): Promise<PreparedCloseAll> {
  const { wallet, accountId } = walletIds(input.wallet);
  const signer = await ctx.tradingSigner(wallet);
  const { positions } = await ctx.api.positions(accountId);
  const closes: PreparedClose[] = [];
  const skipped: SkippedClose[] = [];
  for (const p of positions.filter((x) => !new Decimal(x.size).isZero())) {
    try {
      const slippageBps = input.slippageBpsFor?.(p.market) ?? input.slippageBps;
      closes.push(await prepareClose(ctx, { wallet, market: p.market, ...(slippageBps !== undefined ? { slippageBps } : {}) }));
    } catch (err) {
      // Only input-level refusals of one market (nothing closeable, an inactive market, ...) skip it; a
      // failure to read the service stops the whole prepare, as it would any other.
      const e = toAppError(err);
      if (e.kind !== 'validation') throw err;
      skipped.push({ market: p.market, code: e.code, message: e.message, hint: e.hint ?? null });
    }
  }
  const summary = closes.length === 0 ? ['no open position can be closed now'] : closes.flatMap((c) => c.view.summary);
  for (const s of skipped) summary.push(`Skip ${s.market}: ${s.message}`);
  return {
    action: 'close-all',
    profile: ctx.profile.name,
    wallet,
    signer: { role: 'trading-key', address: signer.address },
    requests: closes.flatMap((c) => c.requests),
    closes,
    skipped,
    view: { wallet, closes: closes.map((c) => c.view), skipped, summary },
  };
}

/** Submits every prepared close side by side; each market's outcome (or failure) is reported on its own. */
export async function submitCloseAll(ctx: TradingContext, prepared: PreparedCloseAll, signer: Signer, options: CloseOptions = {}): Promise<CloseAllResult> {
  assertPreparedFor(prepared, ctx.profile.name);
  const settled = await Promise.allSettled(
    prepared.closes.map((c) => submitClose(ctx, c, signer, { ...options, ...(options.onProgress ? { onProgress: (t: string) => options.onProgress!(`${c.market}: ${t}`) } : {}) })),
  );
  const results = settled.map((s, i): CloseAllMarketResult => {
    const market = prepared.closes[i]!.market;
    if (s.status === 'fulfilled') return { market, outcome: s.value.closed ? 'closed' : 'partly_closed', result: s.value, error: null };
    const f = describeFailure(s.reason);
    const details = toAppError(s.reason).details;
    const cancelled = Array.isArray(details?.['cancelled_triggers']) ? (details['cancelled_triggers'] as unknown[]).filter((x): x is string => typeof x === 'string') : [];
    return { market, outcome: 'failed', result: null, error: { code: f.code, message: f.message, hint: f.hint ?? null, cancelled_triggers: cancelled } };
  });
  return { wallet: prepared.wallet, results, skipped: [...prepared.skipped] };
}
