/**
 * From nothing to a paper trade in one step, on the simulator profile only (`perps quickstart`, the app's
 * "Create a paper wallet"):
 *
 *  1. a paper main wallet: a key generated here and kept in the OS keychain like the trading keys, marked
 *     paper and bound to the simulator (vault/paperWalletVault.ts); or, when asked, one made before;
 *  2. a trading key for it, created in the keychain (create.ts);
 *  3. its authorization, prepared and signed by the paper wallet and registered (authorize.ts), exactly as
 *     any main wallet authorizes a key;
 *  4. paper USDC from the simulator's faucet, followed until it is credited (sim/faucet.ts).
 *
 * Everything is refused up front (ValidationError NOT_SIM_PROFILE, nothing created) on any other profile.
 * A reused wallet that already has a usable trading key keeps it rather than piling up keys. A failure
 * after the wallet exists names it, so the next run can pick it up with `reuse` or `wallet`.
 */
import { sameAddress } from '../../../shared/identity/index.js';
import type { ActiveProfile } from '../../signers/paperWalletSigner.js';
import { AppError, toAppError } from '../errors.js';
import { requirePaperWalletProfile, type ServiceContext } from '../serviceContext.js';
import { checkFaucetAmount, checkFaucetRequest, DEFAULT_PAPER_AMOUNT, simFaucet } from '../sim/faucet.js';
import { requireSimProfile, type SimControlTransport } from '../sim/controlApi.js';
import { prepareAuthorize, submitAuthorize } from './authorize.js';
import { checkAddress, checkLifetimeDays } from './common.js';
import { createTradingKey } from './create.js';

/** The trading key's label (the register body's `name` too). */
export const PAPER_KEY_NAME = 'Perps Desk paper';

export interface QuickstartInput {
  /** Paper USDC from the faucet (default DEFAULT_PAPER_AMOUNT, at most FAUCET_MAX). */
  amount?: string | undefined;
  /** Use the newest paper wallet of this data folder instead of creating one (creates one when there is none). */
  reuse?: boolean | undefined;
  /** Use this paper wallet of this data folder (it must be one). */
  wallet?: string | undefined;
  /** Trading key lifetime in days (default 90). */
  expiresInDays?: number | undefined;
  /** The profile in force when the paper wallet signs (the app passes its session's). */
  activeProfile?: (() => ActiveProfile | null) | undefined;
  /** Deposit credit wait (default the faucet's). */
  creditTimeoutMs?: number | undefined;
}

export interface QuickstartResult {
  /** The paper main wallet. */
  wallet: string;
  /** Its trading key, authorized and held in this keychain. */
  agent: string;
  /** The account's free balance once the faucet's deposit was credited. */
  free_balance: string;
  /** True when this run made the paper wallet. */
  created_wallet: boolean;
  /** True when this run created and authorized the trading key (false: a usable one was kept). */
  created_key: boolean;
  /** Unix ms the trading key expires. */
  expires_at: number;
  /** The faucet deposit. */
  funded: { amount: string; tx_hash: string };
}

export async function quickstart(ctx: ServiceContext, input: QuickstartInput = {}, faucet: SimControlTransport = {}): Promise<QuickstartResult> {
  // Every check comes first, the network-free ones before the rest: a refused run creates nothing.
  requireSimProfile(ctx.profile, 'a paper wallet');
  // On the URL itself, not only the profile's name: a sim profile aimed at another host gets no paper wallet.
  requirePaperWalletProfile(ctx.profile);
  checkFaucetAmount(input.amount ?? DEFAULT_PAPER_AMOUNT);
  const days = checkLifetimeDays(input.expiresInDays);
  const named = input.wallet !== undefined ? checkAddress(input.wallet, 'wallet') : undefined;
  if (named !== undefined) ctx.paperSigner(named); // refuses an address that is not a paper wallet here
  // The live deposit minimum; reading it also shows the simulator is up before a wallet is made for nothing.
  const amount = await checkFaucetRequest(ctx, input.amount ?? DEFAULT_PAPER_AMOUNT);

  let wallet: string;
  let createdWallet = false;
  if (named !== undefined) wallet = named;
  else {
    const newest = input.reuse === true ? ctx.paperWallets.list(ctx.profile.name).at(-1) : undefined;
    if (newest) wallet = newest.wallet;
    else {
      wallet = (await ctx.paperWallets.create(ctx.profile.name)).wallet;
      createdWallet = true;
    }
  }

  try {
    const signer = ctx.paperSigner(wallet, input.activeProfile);
    let agent: string;
    let expiresAt: number;
    let createdKey = false;
    const usable = createdWallet ? null : await usableTradingKey(ctx, wallet);
    if (usable) {
      ({ agent, expiresAt } = usable);
    } else {
      agent = (await createTradingKey(ctx, { wallet, name: PAPER_KEY_NAME })).agent;
      const prepared = await prepareAuthorize(ctx, { wallet, agent, expiresInDays: days });
      expiresAt = (await submitAuthorize(ctx, prepared, signer)).expires_at;
      createdKey = true;
    }
    const funded = await simFaucet(ctx, { wallet, amount, ...(input.creditTimeoutMs !== undefined ? { timeoutMs: input.creditTimeoutMs } : {}) }, faucet);
    return {
      wallet,
      agent,
      free_balance: funded.free_balance!,
      created_wallet: createdWallet,
      created_key: createdKey,
      expires_at: expiresAt,
      funded: { amount: funded.amount, tx_hash: funded.tx_hash },
    };
  } catch (err) {
    throw mentioningWallet(err, wallet);
  }
}

/** The wallet's trading key that can sign orders now (stored here, registered, unexpired), if any. */
async function usableTradingKey(ctx: ServiceContext, wallet: string): Promise<{ agent: string; expiresAt: number } | null> {
  const now = await ctx.clock.now();
  const keys = ctx.vault.list({ environment: ctx.profile.name, wallet }).filter((k) => k.expires_at !== null && k.expires_at > now);
  if (keys.length === 0) return null;
  // The service must still list it: a key revoked elsewhere cannot trade whatever the local record says.
  const listed = await ctx.api.tradingKeys(wallet);
  const best = keys
    .filter((k) => listed.some((l) => sameAddress(l.agent_wallet_address, k.agent)))
    .sort((a, b) => (b.expires_at ?? 0) - (a.expires_at ?? 0))[0];
  return best ? { agent: best.agent, expiresAt: best.expires_at! } : null;
}

/** The same failure, saying which paper wallet now exists and how to carry on with it. */
function mentioningWallet(err: unknown, wallet: string): AppError {
  const e = toAppError(err);
  if (e.kind === 'internal') return e;
  return new AppError(e.code, e.kind, `${e.message} (paper wallet ${wallet} is kept)`, {
    hint: `${e.hint ? e.hint + ' ' : ''}Carry on with the same wallet: \`perps quickstart --wallet ${wallet}\`.`,
    field: e.field,
    status: e.status,
    details: { ...e.details, wallet },
    cause: err,
  });
}
