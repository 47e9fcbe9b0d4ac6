/**
 * The vault's gate (issue 28 item 5, issue 36 item 11): a packaged app started with a debugging door open
 * (src/main/shell/debugAccess.ts) keeps its vault closed. The entry (src/main/index.ts) sets the check;
 * it is asked
 *  - before every keychain access (keychain.ts), before keytar is even loaded;
 *  - at signing time, by the one place key bytes meet the curve (PrivateKey.signDigest), so every signer
 *    that holds a key refuses: the keychain's trading keys and paper wallets, and the env-key and keystore
 *    main wallets, for typed data and transactions alike;
 *  - every second by a watcher, so a door opened after start (an inspector attached later) closes it.
 * Whenever the check finds the gate closed, every key held in memory is locked at once: the vaults forget
 * what they unlocked and each PrivateKey wipes its bytes (issue 36: keys already unlocked in
 * TradingKeyVault kept signing after the guard closed; lock() was never called).
 */
import { VaultError } from './vaultError.js';

/** Anything that holds key material in memory and can drop it. */
export interface KeyHolder {
  lock(): void;
}

let gate: () => string | null = () => null;
const holders = new Set<WeakRef<KeyHolder>>();
const forget = new FinalizationRegistry<WeakRef<KeyHolder>>((ref) => holders.delete(ref));

export function setVaultGate(check: () => string | null): void {
  gate = check;
}

/** Registers a key holder to be locked when the gate is found closed (held weakly). */
export function holdsKeys(holder: KeyHolder): void {
  const ref = new WeakRef(holder);
  holders.add(ref);
  forget.register(holder, ref);
}

/** Why the vault is closed now (null: open). Finding it closed locks every key in memory at once. */
export function vaultClosedReason(): string | null {
  const reason = gate();
  if (reason !== null) lockAll();
  return reason;
}

/** Throws VAULT_CLOSED (after locking every key in memory) when the vault is closed. */
export function assertVaultOpen(): void {
  const reason = vaultClosedReason();
  if (reason !== null) throw new VaultError('VAULT_CLOSED', reason);
}

/** Why the vault is closed right now and what to do (the message of the refusal), or null when it is open. */
export function vaultClosedMessage(): string | null {
  const reason = vaultClosedReason();
  return reason === null ? null : new VaultError('VAULT_CLOSED', reason).message;
}

/** Asks the gate every `intervalMs` (unref'd), so a door opened later locks the keys without waiting for a signature. */
export function watchVaultGate(intervalMs = 1000): () => void {
  const timer = setInterval(() => void vaultClosedReason(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

function lockAll(): void {
  for (const ref of holders) {
    const holder = ref.deref();
    if (holder === undefined) holders.delete(ref);
    else holder.lock();
  }
}
