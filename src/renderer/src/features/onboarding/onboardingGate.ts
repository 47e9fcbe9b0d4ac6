/**
 * What the root needs to decide between onboarding and the terminal, apart from the onboarding screens
 * themselves (those load on demand: a returning user never needs them).
 */
import type { TradingKeyRow } from '../../../../shared/ipc';

export type OnboardingStep = 'profile' | 'wallet' | 'key' | 'fund';

/** A trading key this machine can trade with: active, its secret in the keychain here. */
export function usableKey(keys: readonly TradingKeyRow[] | undefined): TradingKeyRow | undefined {
  return keys?.find((k) => k.status === 'ACTIVE' && k.stored_locally);
}
