/**
 * The main wallet on a Ledger as a transaction signer (hw-app-eth signTransaction).
 *
 * The resolution argument is null on purpose: resolving a transaction means asking Ledger's servers for
 * ERC-20 descriptors and plugin data of the contract being called, which would tell them which wallet
 * sends what, and when. Without it the device shows the raw fields (recipient, amount, fees and a data
 * hash for a contract call); the Ethereum app must have "Blind signing" enabled for a call with data,
 * and refuses with 0x6A80 otherwise (reported as BLIND_SIGNING_DISABLED with that instruction).
 *
 * The device returns { v, r, s }; the signed transaction is assembled here and must recover the wallet
 * and carry exactly the fields given, or nothing is returned.
 */
import { createRequire } from 'node:module';
import type EthApp from '@ledgerhq/hw-app-eth';
import { Signature, Transaction } from 'ethers';
import { sameAddress, toChecksumAddress } from '../../../shared/identity/index.js';
import { readAddress } from '../ledger/accounts.js';
import { assertEthereumApp } from '../ledger/appCheck.js';
import { normalizeDerivationPath, toLedgerPath } from '../ledger/derivationPaths.js';
import { OFFLINE_LOAD_CONFIG, type LedgerEthApp } from '../ledger/ethApp.js';
import { LedgerError, toLedgerError } from '../ledger/ledgerErrors.js';
import { cjsDefault, withDeadline, type LedgerTransport } from '../ledger/transport.js';
import { toTransactionLike, verifySignedTransaction, type TransactionSigner, type UnsignedTransaction } from './transactionSigner.js';

/** The calls this signer makes on the Ethereum app. */
export type LedgerTxEthApp = Pick<EthApp, 'signTransaction'>;

export interface LedgerTransactionSignerOptions {
  transport: LedgerTransport;
  /** Derivation path of the main wallet, e.g. "m/44'/60'/0'/0/0". */
  path: string;
  /** The wallet the user confirmed on the device for this path. */
  address: string;
  /** Reviewing a transaction on the device takes a while; default 300 s. */
  signTimeoutMs?: number;
  /** For tests; default hw-app-eth on the transport with Ledger's remote look-ups off. */
  eth?: LedgerTxEthApp;
}

const requireCjs = createRequire(import.meta.url);

/** hw-app-eth with every service URL nulled (see ../ledger/ethApp.ts), loaded on first use. */
function createFullEthApp(transport: LedgerTransport): EthApp {
  const Eth = cjsDefault<typeof EthApp>(requireCjs('@ledgerhq/hw-app-eth'));
  return new Eth(transport, 'w0w', { ...OFFLINE_LOAD_CONFIG });
}

export class LedgerTransactionSigner implements TransactionSigner {
  readonly kind = 'ledger' as const;
  readonly address: string;
  readonly path: string;
  readonly #transport: LedgerTransport;
  readonly #eth: LedgerTxEthApp;
  readonly #signTimeoutMs: number;
  /** One exchange at a time: the device cannot interleave them. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: LedgerTransactionSignerOptions) {
    this.#transport = options.transport;
    this.path = normalizeDerivationPath(options.path);
    this.address = toChecksumAddress(options.address, 'address');
    this.#eth = options.eth ?? createFullEthApp(options.transport);
    this.#signTimeoutMs = options.signTimeoutMs ?? 300_000;
  }

  /**
   * Shows the address of `path` on the device for approval and returns a signer for it; with
   * `expectedAddress`, a device deriving another address is refused.
   */
  static async connect(options: { transport: LedgerTransport; path: string; expectedAddress?: string; eth?: LedgerTxEthApp & LedgerEthApp }): Promise<LedgerTransactionSigner> {
    const eth = options.eth ?? createFullEthApp(options.transport);
    const address = await readAddress(options.transport, options.path, { display: true, eth });
    if (options.expectedAddress !== undefined && !sameAddress(address, options.expectedAddress)) {
      throw new LedgerError('ADDRESS_MISMATCH', `The Ledger derives ${address} at ${options.path}, not ${options.expectedAddress}.`);
    }
    return new LedgerTransactionSigner({ transport: options.transport, path: options.path, address, eth });
  }

  signTransaction(tx: UnsignedTransaction): Promise<string> {
    const run = this.#queue.then(
      () => this.#sign(tx),
      () => this.#sign(tx),
    );
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  async #sign(tx: UnsignedTransaction): Promise<string> {
    const unsigned = Transaction.from(toTransactionLike(tx));
    const raw = await withDeadline(this.#transport, this.#signTimeoutMs, 'signing a transaction', async () => {
      await assertEthereumApp(this.#transport);
      try {
        return await this.#eth.signTransaction(toLedgerPath(this.path), unsigned.unsignedSerialized.slice(2), null);
      } catch (err) {
        throw toLedgerError(err, 'sign-clear');
      }
    });
    const signed = assemble(unsigned, raw, this.address);
    try {
      return verifySignedTransaction(signed, tx, this.address);
    } catch (err) {
      throw new LedgerError('SIGNATURE_MISMATCH', `The Ledger's transaction signature does not recover ${this.address}: another seed, passphrase or account is active. Nothing was sent.`, {
        cause: err,
      });
    }
  }
}

/**
 * Attaches the device's r and s to the transaction. v comes back as a y-parity (typed transactions) or an
 * EIP-155 value that the app truncates to one byte for large chain ids; rather than decode every variant,
 * both parities are tried and the one recovering the wallet is kept (a wrong r or s recovers neither).
 */
function assemble(unsigned: Transaction, raw: { r: string; s: string; v: string }, address: string): string {
  const r = '0x' + raw.r.replace(/^0x/, '').padStart(64, '0');
  const s = '0x' + raw.s.replace(/^0x/, '').padStart(64, '0');
  if (!/^0x[0-9a-fA-F]{64}$/.test(r) || !/^0x[0-9a-fA-F]{64}$/.test(s)) throw new LedgerError('DEVICE_ERROR', 'The Ledger returned a malformed transaction signature.');
  for (const yParity of [0, 1] as const) {
    const candidate = unsigned.clone();
    candidate.signature = Signature.from({ r, s, yParity });
    if (candidate.from !== null && sameAddress(candidate.from, address)) return candidate.serialized;
  }
  throw new LedgerError('SIGNATURE_MISMATCH', `The Ledger's transaction signature does not recover ${address}: another seed, passphrase or account is active. Nothing was sent.`);
}
