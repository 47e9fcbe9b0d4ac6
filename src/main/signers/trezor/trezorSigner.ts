/**
 * The main wallet on a Trezor, as a Signer for custody actions (AuthorizeAgent, RevokeAgent, Withdraw).
 *
 * Model T, Safe 3 and Safe 5 get the whole typed data, struct by struct, and show every field of the
 * action before the person approves. The Model One cannot (the firmware does not implement EIP-712
 * structs on it): it signs the two hashes, which the person is first shown in the app through the
 * injected confirmHashes, exactly like the Ledger's blind-signing fallback, to compare with the device.
 *
 * Whatever the path, the signature must recover the wallet before it is returned.
 */
import { bytesToHex, digestOf, domainSeparator, hashStruct, isCustodyAction, type MessageOf, type TypedData } from '../../../shared/eip712/index.js';
import { sameAddress, toChecksumAddress } from '../../../shared/identity/index.js';
import type { BlindSigningPrompt } from '../ledger/ledgerSigner.js';
import { LedgerError } from '../ledger/ledgerErrors.js';
import { normalizeDerivationPath, parseDerivationPath } from '../ledger/derivationPaths.js';
import type { Signer } from '../signer.js';
import { SignerError } from '../signerError.js';
import { verifySignature } from '../verifySignature.js';
import { getAddress, initialize, signTypedDataOnDevice, signTypedHashOnDevice } from './deviceCalls.js';
import type { TrezorModel } from './deviceModel.js';
import { TrezorSession, type TrezorInteraction } from './session.js';
import { TrezorError } from './trezorErrors.js';
import type { MessageWire } from './wire.js';

/** Resolves true when the person accepts signing by hashes after seeing them; false aborts. */
export type ConfirmHashes = (prompt: BlindSigningPrompt) => Promise<boolean>;

/** A derivation path as BIP 32 indices; a bad path is INVALID_SETTING. */
export function trezorAddressN(path: string): { path: string; addressN: number[] } {
  try {
    return { path: normalizeDerivationPath(path), addressN: parseDerivationPath(path) };
  } catch (err) {
    if (err instanceof LedgerError) throw new TrezorError('INVALID_SETTING', err.message, { cause: err });
    throw err;
  }
}

export interface TrezorConnectOptions {
  wire: MessageWire;
  interaction: TrezorInteraction;
  path: string;
  confirmHashes: ConfirmHashes;
  /** A wallet chosen earlier: a device deriving another address at `path` is refused. */
  expectedAddress?: string;
  /** Show the address on the device screen for the person to compare (first use). */
  showAddress: boolean;
  /** The deadline of each step that needs no person (TrezorSession; default 30 s). */
  stepTimeoutMs?: number;
}

export class TrezorSigner implements Signer {
  readonly kind = 'trezor' as const;
  readonly address: string;
  readonly path: string;
  readonly model: TrezorModel;
  readonly #addressN: number[];
  readonly #session: TrezorSession;
  readonly #confirmHashes: ConfirmHashes;

  private constructor(session: TrezorSession, model: TrezorModel, path: string, address: string, confirmHashes: ConfirmHashes) {
    this.#session = session;
    this.model = model;
    ({ path: this.path, addressN: this.#addressN } = trezorAddressN(path));
    this.address = toChecksumAddress(address, 'address');
    this.#confirmHashes = confirmHashes;
  }

  /** Initializes the device, checks what it can do, and reads (optionally shows) the address at `path`. */
  static async connect(options: TrezorConnectOptions): Promise<TrezorSigner> {
    const { addressN, path } = trezorAddressN(options.path);
    const session = new TrezorSession(options.wire, options.interaction, options.stepTimeoutMs === undefined ? {} : { stepTimeoutMs: options.stepTimeoutMs });
    const model = await initialize(session);
    const address = await getAddress(session, addressN, options.showAddress);
    if (options.expectedAddress !== undefined && !sameAddress(address, options.expectedAddress)) {
      throw new TrezorError(
        'ADDRESS_MISMATCH',
        `The Trezor derives ${address} at ${path}, not ${toChecksumAddress(options.expectedAddress, 'wallet')}: another seed, passphrase or path is active.`,
      );
    }
    return new TrezorSigner(session, model, path, address, options.confirmHashes);
  }

  get via(): string {
    return this.#session.via;
  }

  async signTypedData(data: TypedData): Promise<string> {
    if (!isCustodyAction(data.primaryType)) {
      throw new TrezorError('NOT_A_CUSTODY_ACTION', `The Trezor main wallet signs only AuthorizeAgent, RevokeAgent and Withdraw, not ${data.primaryType}.`);
    }
    // Validates the domain and struct against the service's before the device is bothered.
    digestOf(data);
    const primaryType = data.primaryType;
    let signed;
    if (this.model.mode === 'typed-data') {
      signed = await signTypedDataOnDevice(this.#session, this.#addressN, data as unknown as Parameters<typeof signTypedDataOnDevice>[2]);
    } else {
      const domain = domainSeparator(data.domain.chainId);
      const message = hashStruct(primaryType, data.message as MessageOf<typeof primaryType>);
      const agreed = await this.#confirmHashes({ primaryType, domainSeparatorHex: bytesToHex(domain), messageHashHex: bytesToHex(message) });
      if (!agreed) {
        throw new TrezorError('HASH_SIGNING_DECLINED', 'The Trezor Model One can only sign this as two hashes, and that was declined. Nothing was signed.');
      }
      signed = await signTypedHashOnDevice(this.#session, this.#addressN, domain, message);
    }
    if (!sameAddress(signed.address, this.address)) {
      throw new TrezorError('SIGNATURE_MISMATCH', `The Trezor signed with ${signed.address}, not ${this.address}. Nothing was sent.`);
    }
    try {
      return verifySignature(data, bytesToHex(signed.signature), this.address);
    } catch (err) {
      if (err instanceof SignerError) {
        throw new TrezorError(err.code === 'SIGNATURE_MISMATCH' ? 'SIGNATURE_MISMATCH' : 'DEVICE_ERROR', `The Trezor's signature is not usable: ${err.message}`, { cause: err });
      }
      throw err;
    }
  }

  /** Tells the device to leave its confirmation screen; the pending signature ends as CANCELLED. */
  cancel(): Promise<void> {
    return this.#session.cancel();
  }

  close(): Promise<void> {
    return this.#session.close();
  }
}
