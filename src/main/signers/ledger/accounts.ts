/**
 * Reading addresses off the Ledger: a silent list to let the user pick an account, then the chosen one
 * shown on the device screen for confirmation. The on-screen check is what makes the address
 * trustworthy: a compromised host could show any address, but not on the device.
 */
import { addressOfPublicKey, hexToBytes } from '../../../shared/eip712/index.js';
import { isAddress, sameAddress, toChecksumAddress } from '../../../shared/identity/index.js';
import { assertEthereumApp } from './appCheck.js';
import { derivationPath, normalizeDerivationPath, toLedgerPath, type DerivationScheme } from './derivationPaths.js';
import { createEthApp, type LedgerEthApp } from './ethApp.js';
import { LedgerError, toLedgerError } from './ledgerErrors.js';
import { withDeadline, type LedgerTransport } from './transport.js';

export interface LedgerAccount {
  /** Canonical "m/..." path. */
  readonly path: string;
  /** Checksummed. */
  readonly address: string;
}

/** A row of the account picker: the account index within its derivation scheme. */
export interface LedgerAccountChoice extends LedgerAccount {
  readonly index: number;
}

export interface ReadAddressOptions {
  /** Show the address on the device and wait for the user to approve it. */
  display: boolean;
  /** Default 10 s without display, 120 s with (the user reads and compares). */
  timeoutMs?: number;
  /** For tests; default: hw-app-eth on the transport. */
  eth?: LedgerEthApp;
}

const SILENT_TIMEOUT_MS = 10_000;
const DISPLAY_TIMEOUT_MS = 120_000;

/**
 * The address at `path`, checked against the public key the device returns with it (the app derives
 * both; a mismatch means a corrupted answer).
 */
export async function readAddress(transport: LedgerTransport, path: string, options: ReadAddressOptions): Promise<string> {
  const ledgerPath = toLedgerPath(path);
  const eth = options.eth ?? createEthApp(transport);
  const timeout = options.timeoutMs ?? (options.display ? DISPLAY_TIMEOUT_MS : SILENT_TIMEOUT_MS);
  return withDeadline(transport, timeout, options.display ? 'confirming the address' : 'reading the address', async () => {
    await assertEthereumApp(transport);
    let answer: { publicKey: string; address: string };
    try {
      answer = await eth.getAddress(ledgerPath, options.display, false);
    } catch (err) {
      throw toLedgerError(err, 'get-address');
    }
    if (!isAddress(answer.address) || !/^[0-9a-fA-F]{130}$/.test(answer.publicKey)) {
      throw new LedgerError('DEVICE_ERROR', 'The Ledger returned a malformed address.');
    }
    const fromKey = addressOfPublicKey(hexToBytes('0x' + answer.publicKey));
    if (!sameAddress(fromKey, answer.address)) {
      throw new LedgerError('DEVICE_ERROR', 'The Ledger returned an address that does not match its public key.');
    }
    return toChecksumAddress(answer.address);
  });
}

/** Addresses of `count` consecutive accounts of a scheme, read without the device screen, for a picker. */
export async function listAccounts(
  transport: LedgerTransport,
  scheme: DerivationScheme,
  options: { start?: number; count?: number; eth?: LedgerEthApp } = {},
): Promise<LedgerAccountChoice[]> {
  const start = options.start ?? 0;
  const count = options.count ?? 5;
  if (!Number.isSafeInteger(count) || count < 1 || count > 50) throw new LedgerError('INVALID_PATH', `count must be 1 to 50, got ${count}`);
  const eth = options.eth ?? createEthApp(transport);
  const out: LedgerAccountChoice[] = [];
  // One at a time: the device handles one APDU exchange at a time.
  for (let index = start; index < start + count; index++) {
    const path = derivationPath(scheme, index);
    out.push({ path, index, address: await readAddress(transport, path, { display: false, eth }) });
  }
  return out;
}

/**
 * Shows the address of `path` on the device and resolves once the user approves it there (0x6985 if they
 * reject). With `expectedAddress` (a wallet saved earlier), a device showing another address is refused:
 * another seed or passphrase is loaded.
 */
export async function confirmAddressOnDevice(
  transport: LedgerTransport,
  path: string,
  options: { expectedAddress?: string; timeoutMs?: number; eth?: LedgerEthApp } = {},
): Promise<LedgerAccount> {
  const canonical = normalizeDerivationPath(path);
  const address = await readAddress(transport, canonical, {
    display: true,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.eth === undefined ? {} : { eth: options.eth }),
  });
  if (options.expectedAddress !== undefined && !sameAddress(address, options.expectedAddress)) {
    throw new LedgerError(
      'ADDRESS_MISMATCH',
      `The Ledger derives ${address} at ${canonical}, not the expected wallet ${toChecksumAddress(options.expectedAddress)}: is another seed or passphrase active?`,
    );
  }
  return { path: canonical, address };
}
