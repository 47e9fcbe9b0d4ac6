/**
 * Small in-memory stand-ins for what the prepare steps read (the API, live config, the service's clock,
 * nonces, the vault, the settings store), so a prepare step is tested in milliseconds with no simulator.
 * Every call is recorded: a test proves "nothing was asked or sent" from `calls`, "no nonce was taken"
 * from `issued`, and "nothing was signed" from a CountingSigner.
 *
 * The services only read from these; the integration tests (test/integration/...) cover the same steps
 * against the simulator over real HTTP.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Wallet } from 'ethers';
import type { Profile } from '../../../src/main/profiles/profiles.js';
import type { ServiceContext } from '../../../src/main/services/serviceContext.js';
import { EnvKeySigner } from '../../../src/main/signers/envKeySigner.js';
import type { Signer } from '../../../src/main/signers/signer.js';
import type { TradingKeyMetadata, TradingKeyRef } from '../../../src/main/vault/tradingKeyVault.js';
import type { TypedData } from '../../../src/shared/eip712/index.js';
import type { Deposit, Withdrawal, WithdrawBody, WithdrawResult } from '../../../src/shared/protocol/index.js';

export const SIM_PROFILE: Profile = {
  name: 'sim',
  network: 'testnet',
  environment: 'Testnet',
  tradingChainId: 998,
  baseUrl: 'http://127.0.0.1:9/api/v1',
  venueInfoUrl: 'http://127.0.0.1:9/venue/info',
  dataDir: '/nonexistent/perps-unit',
};

/** Nonces as NonceSource issues them (strictly increasing), with the list of those issued. */
export class FakeNonces {
  readonly issued: { wallet: string; nonce: number }[] = [];
  private last = 1_700_000_000_000;

  async next(wallet: string): Promise<number> {
    this.last += 1;
    this.issued.push({ wallet, nonce: this.last });
    return this.last;
  }
}

/** The vault's metadata reads (and the writes a submit makes), over a list. */
export class FakeVault {
  constructor(readonly keys: TradingKeyMetadata[] = []) {}

  private find(ref: TradingKeyRef): TradingKeyMetadata | undefined {
    return this.keys.find((k) => k.environment === ref.environment && k.wallet.toLowerCase() === ref.wallet.toLowerCase() && k.agent.toLowerCase() === ref.agent.toLowerCase());
  }

  get(ref: TradingKeyRef): TradingKeyMetadata | undefined {
    return this.find(ref);
  }

  list(filter: { environment?: string; wallet?: string } = {}): TradingKeyMetadata[] {
    return this.keys.filter((k) => (filter.environment === undefined || k.environment === filter.environment) && (filter.wallet === undefined || k.wallet.toLowerCase() === filter.wallet.toLowerCase()));
  }

  setExpiry(ref: TradingKeyRef, expiresAt: number): TradingKeyMetadata {
    const k = this.find(ref)!;
    k.expires_at = expiresAt;
    return k;
  }

  async delete(ref: TradingKeyRef): Promise<boolean> {
    const k = this.find(ref);
    if (!k) return false;
    this.keys.splice(this.keys.indexOf(k), 1);
    return true;
  }
}

export class FakeSettings {
  readonly values = new Map<string, unknown>();
  /** A fresh folder each: stores that keep files beside settings.json (withdrawal records) never share one. */
  readonly path = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'perps-unit-')), 'settings.json');
  get(key: string): unknown {
    // A deep copy, as a JSON file would give: no caller can change a stored value in place.
    const v = this.values.get(key);
    return v === undefined ? undefined : (JSON.parse(JSON.stringify(v)) as unknown);
  }
  set(key: string, value: unknown): void {
    this.values.set(key, JSON.parse(JSON.stringify(value)));
  }
  has(key: string): boolean {
    return this.values.has(key);
  }
  delete(key: string): void {
    this.values.delete(key);
  }
}

export interface FakeWorld {
  ctx: ServiceContext;
  nonces: FakeNonces;
  vault: FakeVault;
  settings: FakeSettings;
  /** Every API call, as `method arg`. */
  calls: string[];
  /** Bodies sent to POST /account/withdraw. */
  withdrawals: WithdrawBody[];
}

export interface FakeWorldOptions {
  /** The service's clock (Unix ms). */
  now?: number;
  keys?: TradingKeyMetadata[];
  freeBalance?: string;
  minAmount?: string;
  newWalletFee?: string;
  /** Withdrawal history of every account. */
  history?: Withdrawal[];
  /** Deposit history of every account (a wallet that deposited has history: no new-wallet fee). */
  deposits?: Deposit[];
  profile?: Profile;
}

/** A ServiceContext whose api/config/clock/nonces/vault/settings are the fakes above. */
export function fakeWorld(options: FakeWorldOptions = {}): FakeWorld {
  const nonces = new FakeNonces();
  const vault = new FakeVault(options.keys ?? []);
  const settings = new FakeSettings();
  const calls: string[] = [];
  const withdrawals: WithdrawBody[] = [];
  let withdrawalSeq = 0;
  const history = options.history ?? [];
  const api = {
    async balance(accountId: string) {
      calls.push(`balance ${accountId}`);
      return { account: accountId, free_balance: options.freeBalance ?? '100' };
    },
    async depositHistory(accountId: string) {
      calls.push(`depositHistory ${accountId}`);
      return { account: accountId, deposits: options.deposits ?? [] };
    },
    async *withdrawalHistoryPages(accountId: string) {
      calls.push(`withdrawalHistoryPages ${accountId}`);
      yield history;
    },
    async withdraw(body: WithdrawBody): Promise<WithdrawResult> {
      calls.push(`withdraw ${body.nonce}`);
      withdrawals.push(body);
      withdrawalSeq += 1;
      return { status: 'REQUESTED', withdrawal_id: `w-${withdrawalSeq}` };
    },
  };
  const config = {
    async funding() {
      calls.push('config');
      return { withdrawal: { min_amount: options.minAmount ?? '2', new_wallet_fee: options.newWalletFee ?? '1' }, deposit: {} };
    },
  };
  const now = options.now ?? 1_700_000_000_000;
  const clock = {
    async now() {
      calls.push('clock');
      return now;
    },
    invalidate() {},
  };
  const ctx = {
    profile: options.profile ?? SIM_PROFILE,
    api,
    config,
    clock,
    nonces,
    vault,
    settings,
    sleep: async () => undefined,
    async tradingSigner() {
      throw new Error('no trading signer in these tests');
    },
  } as unknown as ServiceContext;
  return { ctx, nonces, vault, settings, calls, withdrawals };
}

/** A main wallet whose signer counts what it signs. */
export class CountingSigner implements Signer {
  readonly kind: Signer['kind'] = 'env';
  readonly address: string;
  readonly signed: TypedData[] = [];
  private readonly inner: Signer;

  constructor(readonly wallet: Wallet = Wallet.createRandom() as unknown as Wallet) {
    this.inner = EnvKeySigner.fromEnv('PERPS_UNIT_KEY', { env: { PERPS_UNIT_KEY: wallet.privateKey }, logger: { warn: () => undefined } });
    this.address = this.inner.address;
  }

  signTypedData(data: TypedData): Promise<string> {
    this.signed.push(data);
    return this.inner.signTypedData(data);
  }
}

/** A stored trading key's metadata (what the vault lists). */
export function storedKey(wallet: string, agent: string, over: Partial<TradingKeyMetadata> = {}): TradingKeyMetadata {
  return { environment: 'sim', wallet, agent, name: 'desk', expires_at: null, created_at: 1_600_000_000_000, ...over };
}
