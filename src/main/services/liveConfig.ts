/**
 * Live configuration: GET /markets and GET /config behind a short TTL cache. Fees, ratios, limits,
 * minimums and deposit addresses come only from here (the spec: they are live and must never be
 * hardcoded); the cache only spares a round trip per command, it never outlives a few seconds.
 */
import type { FundingConfig, Market } from '../../shared/protocol/index.js';
import type { TradingApiClient } from '../api/tradingApiClient.js';
import { ValidationError } from './errors.js';

export interface LiveConfigOptions {
  ttlMs?: number;
  now?: () => number;
}

export const DEFAULT_CONFIG_TTL_MS = 10_000;

interface Cached<T> {
  value: T;
  at: number;
}

export class LiveConfig {
  private readonly ttlMs: number;
  private readonly now: () => number;
  private marketsCache: Cached<Market[]> | null = null;
  private fundingCache: Cached<FundingConfig> | null = null;
  private marketsInflight: Promise<Market[]> | null = null;
  private fundingInflight: Promise<FundingConfig> | null = null;

  constructor(
    private readonly api: TradingApiClient,
    options: LiveConfigOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? DEFAULT_CONFIG_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  /** Every market the service lists, active or not. */
  async markets(): Promise<Market[]> {
    if (this.marketsCache && this.now() - this.marketsCache.at < this.ttlMs) return this.marketsCache.value;
    // Concurrent callers share one request.
    this.marketsInflight ??= this.api
      .markets()
      .then((value) => {
        this.marketsCache = { value, at: this.now() };
        return value;
      })
      .finally(() => {
        this.marketsInflight = null;
      });
    return this.marketsInflight;
  }

  /**
   * One market by its service symbol. Unknown or inactive markets are refused before anything is signed;
   * reads of existing positions on a market that was deactivated pass { allowInactive: true }.
   */
  async market(symbol: string, options: { allowInactive?: boolean } = {}): Promise<Market> {
    const all = await this.markets();
    // Any case: "btc" is BTC, unless the service lists two symbols differing only in case.
    const m = all.find((x) => x.symbol === symbol) ?? singleOrNone(all.filter((x) => x.symbol.toLowerCase() === symbol.toLowerCase()));
    if (!m) {
      // A user typing the venue symbol is a common slip: say which market they probably meant.
      const byVenue = all.find((x) => x.venue_symbol === symbol || x.symbol.toLowerCase() === symbol.toLowerCase());
      throw new ValidationError(`unknown market '${symbol}'`, {
        field: 'market',
        code: 'UNKNOWN_MARKET',
        hint: byVenue ? `Did you mean '${byVenue.symbol}'? ` : `Markets: ${all.filter((x) => x.is_active).map((x) => x.symbol).join(', ') || '(none)'}. Run \`perps markets\`.`,
      });
    }
    if (!m.is_active && !options.allowInactive) {
      throw new ValidationError(`market '${symbol}' is not active`, { field: 'market', code: 'MARKET_INACTIVE', hint: 'The service has disabled this market; run `perps markets` for the active ones.' });
    }
    return m;
  }

  /** The funding configuration: deposit address and rail minimums, withdrawal minimum and new-wallet fee. */
  async funding(): Promise<FundingConfig> {
    if (this.fundingCache && this.now() - this.fundingCache.at < this.ttlMs) return this.fundingCache.value;
    this.fundingInflight ??= this.api
      .config()
      .then((value) => {
        this.fundingCache = { value, at: this.now() };
        return value;
      })
      .finally(() => {
        this.fundingInflight = null;
      });
    return this.fundingInflight;
  }

  /** Drops both caches: the next read asks the service. */
  invalidate(): void {
    this.marketsCache = null;
    this.fundingCache = null;
  }
}

function singleOrNone<T>(items: readonly T[]): T | undefined {
  return items.length === 1 ? items[0] : undefined;
}
