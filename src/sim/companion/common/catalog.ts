/**
 * Lookups over the companion configuration: chains, tokens, protocols and partner codes.
 * Every service resolves ids through this one place so that lowercase-only chain ids and
 * case-insensitive token addresses are treated the same everywhere.
 */
import { NATIVE_TOKEN, type ChainConfig, type CompanionConfig, type PartnerConfig, type ProtocolConfig, type TokenConfig } from '../config.js';
import { Dec, unitsToUsd } from './amounts.js';

export class Catalog {
  private readonly chains: Map<string, ChainConfig>;
  private readonly tokens: Map<string, TokenConfig>;
  private readonly protocols: Map<string, ProtocolConfig>;
  private readonly partners: Map<string, PartnerConfig>;

  constructor(readonly config: CompanionConfig) {
    this.chains = new Map(config.chains.map((c) => [c.id, c]));
    this.tokens = new Map(config.tokens.map((t) => [tokenKey(t.chain, t.address), t]));
    this.protocols = new Map(config.protocols.map((p) => [p.id, p]));
    this.partners = new Map(config.partners.map((p) => [p.code, p]));
  }

  /** Exact, case-sensitive match: the spec's chain ids are lowercase and `Arbitrum` is not one of them. */
  chain(id: string): ChainConfig | undefined {
    return this.chains.get(id);
  }

  evmChains(): ChainConfig[] {
    return this.config.chains.filter((c) => c.evmChainId !== null);
  }

  token(chain: string, address: string): TokenConfig | undefined {
    return this.tokens.get(tokenKey(chain, address));
  }

  tokensOn(chain: string): TokenConfig[] {
    return this.config.tokens.filter((t) => t.chain === chain);
  }

  native(chain: string): TokenConfig | undefined {
    return this.token(chain, NATIVE_TOKEN);
  }

  protocol(id: string): ProtocolConfig | undefined {
    return this.protocols.get(id);
  }

  /** Partner codes match exactly: a code is an identifier handed out to a partner, not free text. */
  partner(code: string): PartnerConfig | undefined {
    return this.partners.get(code);
  }

  usdValue(token: TokenConfig, amount: bigint): InstanceType<typeof Dec> {
    return unitsToUsd(amount, token.decimals, token.usdPrice);
  }
}

function tokenKey(chain: string, address: string): string {
  return `${chain}:${address.toLowerCase()}`;
}

export function isNativeAddress(address: string): boolean {
  return address.toLowerCase() === NATIVE_TOKEN.toLowerCase();
}
