/**
 * `perps keys list`: what this data folder holds (vault metadata) merged with what the service lists
 * (GET /auth/trading-keys: ACTIVE, unexpired keys only). A key the service does not list cannot sign
 * orders, whatever the local metadata says, so the status comes from the listing first.
 */
import { sameAddress } from '../../../shared/identity/index.js';
import type { ServiceContext } from '../serviceContext.js';
import { checkAddress } from './common.js';

export type TradingKeyStatus =
  /** Listed by the service. */
  | 'ACTIVE'
  /** Stored here but never authorized. */
  | 'NOT_AUTHORIZED'
  /** Stored here; its expiry has passed by the service's clock. */
  | 'EXPIRED'
  /** Stored here with a future expiry, but not listed: revoked elsewhere, or registered for another wallet or environment. */
  | 'NOT_LISTED';

export interface TradingKeyRow {
  agent: string;
  name: string | null;
  status: TradingKeyStatus;
  /** The service lists it (it can authorize orders). */
  listed: boolean;
  /** Its private key is in this data folder's keychain entries (it can sign here). */
  stored_locally: boolean;
  /** Unix ms: the service's value when listed, else the one recorded locally. */
  expires_at: number | null;
  created_at: number | string | null;
}

export interface TradingKeyList {
  wallet: string;
  environment: string;
  keys: TradingKeyRow[];
}

export async function listTradingKeys(ctx: ServiceContext, walletInput: string): Promise<TradingKeyList> {
  const wallet = checkAddress(walletInput, 'wallet');
  const [remote, now] = await Promise.all([ctx.api.tradingKeys(wallet), ctx.clock.now()]);
  const local = ctx.vault.list({ environment: ctx.profile.name, wallet });
  const rows: TradingKeyRow[] = [];
  for (const r of remote) {
    const mine = local.find((l) => sameAddress(l.agent, r.agent_wallet_address));
    const name = (r as { name?: unknown }).name;
    rows.push({
      agent: r.agent_wallet_address,
      name: mine?.name ?? (typeof name === 'string' ? name : null),
      status: 'ACTIVE',
      listed: true,
      stored_locally: mine !== undefined,
      expires_at: r.expires_at,
      created_at: r.created_at,
    });
  }
  for (const l of local) {
    if (rows.some((row) => sameAddress(row.agent, l.agent))) continue;
    const status: TradingKeyStatus = l.expires_at === null ? 'NOT_AUTHORIZED' : l.expires_at <= now ? 'EXPIRED' : 'NOT_LISTED';
    rows.push({ agent: l.agent, name: l.name, status, listed: false, stored_locally: true, expires_at: l.expires_at, created_at: l.created_at });
  }
  return { wallet, environment: ctx.profile.environment, keys: rows };
}
