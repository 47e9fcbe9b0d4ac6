/**
 * The main wallet on a Ledger, as a Signer for custody actions (AuthorizeAgent, RevokeAgent, Withdraw).
 *
 * Signing is clear signing first: the whole typed data goes to the Ethereum app (signEIP712Message),
 * which shows every field on the device. Only when the app cannot do that (0x6D00 instruction not
 * supported, 0x6B00 wrong parameters: a Nano S or an old app) does it fall back to hashed signing, in
 * which the device shows only two hashes. That is blind signing, so the user is told first, through the
 * injected confirmBlindSigning, with both hashes to compare against the device screen; without their
 * consent nothing is sent.
 *
 * Whatever the path, the signature must recover the wallet before it is returned: a device with another
 * seed or passphrase, or one that signed something else, is caught here instead of at the service.
 */
import {
  bytesToHex,
  digestOf,
  domainSeparator,
  hashStruct,
  isCustodyAction,
  type CustodyAction,
  type MessageOf,
  type TypedData,
} from '../../../shared/eip712/index.js';
import { toChecksumAddress } from '../../../shared/identity/index.js';
import type { Signer } from '../signer.js';
import { SignerError } from '../signerError.js';
import { verifySignature } from '../verifySignature.js';
import { confirmAddressOnDevice } from './accounts.js';
import { assertEthereumApp } from './appCheck.js';
import { normalizeDerivationPath, toLedgerPath } from './derivationPaths.js';
import { createEthApp, type LedgerEthApp } from './ethApp.js';
import { LedgerError, SW, statusCodeOf, toLedgerError } from './ledgerErrors.js';
import { withDeadline, type LedgerTransport } from './transport.js';

/** What the user must compare on the device screen before agreeing to blind signing. */
export interface BlindSigningPrompt {
  readonly primaryType: CustodyAction;
  /** 0x + 64 hex: the EIP-712 domain separator the device will show. */
  readonly domainSeparatorHex: string;
  /** 0x + 64 hex: hashStruct(message), shown by the device as the message hash. */
  readonly messageHashHex: string;
}

/** Resolves true when the user accepts blind signing after seeing the hashes; false aborts. */
export type ConfirmBlindSigning = (prompt: BlindSigningPrompt) => Promise<boolean>;

export interface LedgerSignerTimeouts {
  /** Reviewing an EIP-712 message field by field on a small screen takes a while. Default 300 s. */
  signMs: number;
}

export interface LedgerSignerOptions {
  transport: LedgerTransport;
  /** Derivation path of the main wallet, e.g. "m/44'/60'/0'/0/0". */
  path: string;
  /** The wallet the user confirmed on the device for this path. */
  address: string;
  confirmBlindSigning: ConfirmBlindSigning;
  timeouts?: Partial<LedgerSignerTimeouts>;
  /** For tests; default: hw-app-eth on the transport with Ledger's remote look-ups off. */
  eth?: LedgerEthApp;
}

const DEFAULT_TIMEOUTS: LedgerSignerTimeouts = { signMs: 300_000 };

/** The device's { v, r, s } as 65 bytes r || s || v, v 27 or 28 (the app answers 27/28; 0/1 is tolerated). */
export function ledgerSignatureToHex(sig: { v: number | string; r: string; s: string }): string {
  const v = typeof sig.v === 'string' ? Number.parseInt(sig.v, 16) : sig.v;
  const r = sig.r.replace(/^0x/, '');
  const s = sig.s.replace(/^0x/, '');
  if (!/^[0-9a-fA-F]{1,64}$/.test(r) || !/^[0-9a-fA-F]{1,64}$/.test(s)) {
    throw new LedgerError('DEVICE_ERROR', 'The Ledger returned a malformed signature (r or s).');
  }
  const vv = v === 0 || v === 1 ? v + 27 : v;
  if (vv !== 27 && vv !== 28) throw new LedgerError('DEVICE_ERROR', `The Ledger returned a signature with v = ${String(sig.v)}.`);
  return ('0x' + r.padStart(64, '0') + s.padStart(64, '0') + vv.toString(16)).toLowerCase();
}

export class LedgerSigner implements Signer {
  readonly kind = 'ledger' as const;
  readonly address: string;
  /** Canonical "m/..." path. */
  readonly path: string;

  readonly #transport: LedgerTransport;
  readonly #confirmBlindSigning: ConfirmBlindSigning;
  readonly #timeouts: LedgerSignerTimeouts;
  readonly #eth: LedgerEthApp;
  /** Requests run one after another: the device handles one exchange at a time. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: LedgerSignerOptions) {
    this.#transport = options.transport;
    this.path = normalizeDerivationPath(options.path);
    this.address = toChecksumAddress(options.address, 'address');
    this.#confirmBlindSigning = options.confirmBlindSigning;
    this.#timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
    this.#eth = options.eth ?? createEthApp(options.transport);
  }

  /**
   * Shows the address of `path` on the device, waits for the user's approval there, and returns a signer
   * for it. With `expectedAddress` (a wallet chosen earlier), a device deriving another address is refused.
   */
  static async connect(
    options: Omit<LedgerSignerOptions, 'address'> & { expectedAddress?: string; confirmTimeoutMs?: number },
  ): Promise<LedgerSigner> {
    const eth = options.eth ?? createEthApp(options.transport);
    const account = await confirmAddressOnDevice(options.transport, options.path, {
      eth,
      ...(options.expectedAddress === undefined ? {} : { expectedAddress: options.expectedAddress }),
      ...(options.confirmTimeoutMs === undefined ? {} : { timeoutMs: options.confirmTimeoutMs }),
    });
    return new LedgerSigner({ ...options, eth, address: account.address });
  }

  signTypedData(data: TypedData): Promise<string> {
    const run = this.#queue.then(
      () => this.#sign(data),
      () => this.#sign(data),
    );
    // The queue only orders requests; each caller gets its own result or error from `run`.
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  async #sign(data: TypedData): Promise<string> {
    // Order flow belongs to the trading key; the main wallet never signs it (a leaked trading key can
    // trade, so a request to sign an order with the wallet is a bug or an attack).
    if (!isCustodyAction(data.primaryType)) {
      throw new LedgerError('NOT_A_CUSTODY_ACTION', `The Ledger main wallet signs only AuthorizeAgent, RevokeAgent and Withdraw, not ${data.primaryType}.`);
    }
    // Validates the domain and struct against the service's before the device is bothered.
    digestOf(data);
    const primaryType = data.primaryType;
    const ledgerPath = toLedgerPath(this.path);

    const deadline = this.#timeouts.signMs;
    const clear = await withDeadline(this.#transport, deadline, `signing ${primaryType}`, async () => {
      await assertEthereumApp(this.#transport);
      try {
        // hw-app-eth's EIP712Message type is the eth_signTypedData_v4 JSON shape our TypedData has.
        return await this.#eth.signEIP712Message(ledgerPath, data as unknown as Parameters<LedgerEthApp['signEIP712Message']>[1]);
      } catch (err) {
        const sw = statusCodeOf(err);
        if (sw === SW.INS_NOT_SUPPORTED || sw === SW.INCORRECT_P1_P2) return undefined;
        throw toLedgerError(err, 'sign-clear');
      }
    });
    // The user's decision on blind signing happens outside the device deadline: it is the app asking,
    // and the device is idle meanwhile.
    const raw =
      clear ??
      (await this.#signHashed(ledgerPath, primaryType, data.domain.chainId, data.message as MessageOf<typeof primaryType>, deadline));

    const signature = ledgerSignatureToHex(raw);
    try {
      return verifySignature(data, signature, this.address);
    } catch (err) {
      if (err instanceof SignerError) {
        throw new LedgerError(
          err.code === 'SIGNATURE_MISMATCH' ? 'SIGNATURE_MISMATCH' : 'DEVICE_ERROR',
          err.code === 'SIGNATURE_MISMATCH'
            ? `The Ledger's signature does not recover ${this.address}: another seed, passphrase or account is active on the device. Nothing was sent.`
            : `The Ledger returned an unusable signature (${err.message}).`,
          { cause: err },
        );
      }
      throw err;
    }
  }

  async #signHashed(
    ledgerPath: string,
    primaryType: CustodyAction,
    chainId: number,
    message: MessageOf<CustodyAction>,
    deadlineMs: number,
  ): Promise<{ v: number; r: string; s: string }> {
    const prompt: BlindSigningPrompt = {
      primaryType,
      domainSeparatorHex: bytesToHex(domainSeparator(chainId)),
      messageHashHex: bytesToHex(hashStruct(primaryType, message)),
    };
    if (!(await this.#confirmBlindSigning(prompt))) {
      throw new LedgerError(
        'BLIND_SIGNING_DECLINED',
        'This Ledger app can only sign the message blind (as two hashes), and blind signing was declined. Nothing was signed; update the Ethereum app for clear signing.',
      );
    }
    return withDeadline(this.#transport, deadlineMs, `blind-signing ${primaryType}`, async () => {
      try {
        return await this.#eth.signEIP712HashedMessage(ledgerPath, prompt.domainSeparatorHex, prompt.messageHashHex);
      } catch (err) {
        throw toLedgerError(err, 'sign-hashed');
      }
    });
  }
}
