/** The trading key from the vault, as a Signer for order flow (Order, Cancel, Modify, UpdateIsolatedMargin). */
import { TRADING_ACTIONS, type TypedData } from '../../shared/eip712/index.js';
import type { TradingKeyRef, TradingKeyVault } from '../vault/tradingKeyVault.js';
import { VaultError } from '../vault/vaultError.js';
import type { Signer } from './signer.js';

export class TradingKeySigner implements Signer {
  readonly kind = 'trading-key' as const;
  readonly address: string;

  constructor(
    private readonly vault: TradingKeyVault,
    private readonly ref: TradingKeyRef,
  ) {
    this.address = ref.agent;
  }

  async signTypedData(data: TypedData): Promise<string> {
    // A trading key can trade but must never sign custody actions (withdrawals, key changes).
    if (!(TRADING_ACTIONS as readonly string[]).includes(data.primaryType)) {
      throw new VaultError('VALIDATION_ERROR', `a trading key does not sign ${data.primaryType}; that needs the main wallet`);
    }
    return this.vault.signTypedData(this.ref, data);
  }
}
