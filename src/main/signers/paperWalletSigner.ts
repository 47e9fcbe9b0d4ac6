/**
 * The simulator's paper main wallet (vault/paperWalletVault.ts) as a Signer of custody actions
 * (AuthorizeAgent, RevokeAgent, Withdraw). Its key never leaves the vault; this object holds only the
 * address and a way to ask which profile is active.
 *
 * A paper wallet holds paper money, so it signs for the simulator only. Before anything is signed (and
 * before the keychain is read) it checks, on every signature:
 *  - the active profile, asked at signing time (the app's profile can change under a connected signer),
 *    is the one the wallet is bound to, and its service URL points at a simulator on this machine
 *    (loopback, checked on the URL itself: a sim profile aimed by --base-url or a saved URL at another
 *    host is refused, whatever the profile is called);
 *  - the typed data is a custody action whose signed `serviceEnvironment` is that profile's environment
 *    (a Mainnet message is refused even if a caller got the profile wrong);
 * and the signature must recover the wallet before it is returned.
 */
import { isCustodyAction, type TypedData } from '../../shared/eip712/index.js';
import { PAPER_PROFILE, type PaperWalletVault } from '../vault/paperWalletVault.js';
import { isLoopbackUrl } from '../profiles/loopback.js';
import type { Signer } from './signer.js';
import { SignerError } from './signerError.js';

/** What the signer needs to know of a profile: its name, the service environment it signs for and where that service is. */
export interface ActiveProfile {
  name: string;
  environment: string;
  /** The trading API root the signed actions are sent to. */
  baseUrl: string;
}

/**
 * Why a paper wallet may not sign for `profile` (null when it may): it must be the simulator profile and
 * its service a simulator on loopback (127.0.0.0/8, ::1, localhost; the app's in-process simulator listens
 * on 127.0.0.1). Pure and network-free, so every caller can ask before anything is read or sent.
 */
export function paperWalletRefusal(profile: Pick<ActiveProfile, 'name' | 'baseUrl'> | null): string | null {
  if (profile === null || profile.name !== PAPER_PROFILE) return `a paper wallet signs only on the '${PAPER_PROFILE}' profile, not on '${profile?.name ?? 'none'}'`;
  if (!isLoopbackUrl(profile.baseUrl)) {
    return `a paper wallet signs only for a simulator on this machine (a loopback address: 127.0.0.0/8, ::1 or localhost); this profile's service is at ${profile.baseUrl}`;
  }
  return null;
}

export class PaperWalletSigner implements Signer {
  readonly kind = 'paper' as const;

  constructor(
    private readonly vault: PaperWalletVault,
    readonly address: string,
    /** The profile in force now (null while none is open); consulted on every signature. */
    private readonly activeProfile: () => ActiveProfile | null,
  ) {}

  async signTypedData(data: TypedData): Promise<string> {
    const profile = this.activeProfile();
    const refusal = paperWalletRefusal(profile);
    if (profile === null || refusal !== null) throw new SignerError('PAPER_WALLET_SIM_ONLY', `paper wallet ${this.address}: ${refusal ?? 'no profile is open'}; nothing was signed`);
    if (!isCustodyAction(data.primaryType)) {
      throw new SignerError('PAPER_WALLET_UNSUPPORTED', `a paper main wallet does not sign ${data.primaryType}; nothing was signed`);
    }
    const signedFor = (data.message as { serviceEnvironment?: unknown }).serviceEnvironment;
    if (signedFor !== profile.environment) {
      throw new SignerError(
        'PAPER_WALLET_SIM_ONLY',
        `paper wallet ${this.address} signs only for ${profile.environment}; this ${data.primaryType} is for ${String(signedFor)}; nothing was signed`,
      );
    }
    const signature = await this.vault.signTypedData(profile.name, this.address, data);
    // Loaded here, as the vault loads the curve: every command's services build this signer's factory, and
    // those that never sign (`perps markets`) must not load the signature libraries at start-up.
    const { verifySignature } = await import('./verifySignature.js');
    return verifySignature(data, signature, this.address);
  }

  toJSON(): string {
    return `PaperWalletSigner(${this.address})`;
  }
}
