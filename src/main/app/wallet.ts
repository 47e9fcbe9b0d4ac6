/**
 * The main wallet of this session and its custody signer (the signer of AuthorizeAgent, RevokeAgent and
 * Withdraw). The wallet address is remembered across restarts (it is public); the signer lives only in
 * memory for the session: a keystore is decrypted once with the password the user typed (the password is
 * dropped right after), a Ledger stays open, an offline signer asks the renderer for each signature.
 *
 * Keystore files are chosen in a native dialog in main; the renderer gets an opaque token for the chosen
 * file, never a path it could swap for another, and never the file's contents.
 *
 * A paper wallet (the simulator's, its key in the OS keychain) is connected when it is made, reconnected
 * without a password when the simulator profile opens with it remembered, and dropped when another
 * profile opens: it signs on the simulator only (its signer refuses anything else besides).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { OfflineSignatureRequest, WalletView } from '../../shared/ipc.js';
import { OperationError, ValidationError } from '../services/errors.js';
import { EnvKeySigner } from '../signers/envKeySigner.js';
import { KeystoreSigner } from '../signers/keystoreSigner.js';
import { OfflineSigner, summarizeTypedData } from '../signers/offlineSigner.js';
import { AirgapError } from '../signers/airgap/airgapError.js';
import { createAirgapRequest, expectationOf, type AirgapRequest } from '../signers/airgap/airgapRequest.js';
import { renderQrFrames } from '../signers/airgap/qrFrames.js';
import { importEthSignatureUr } from '../signers/airgap/signatureImport.js';
import { RECOMMENDED_FRAME_INTERVAL_MS } from '../signers/airgap/urParts.js';
import type { Signer } from '../signers/signer.js';
import { LedgerTransactionSigner, type TransactionSigner } from '../signers/transactions/index.js';
import { listAccounts, type LedgerAccountChoice } from '../signers/ledger/accounts.js';
import type { DerivationScheme } from '../signers/ledger/derivationPaths.js';
import { LedgerSigner } from '../signers/ledger/ledgerSigner.js';
import { deviceName, listLedgerDevices, openLedger, type LedgerDevice, type LedgerTransport } from '../signers/ledger/transport.js';
import type { TypedData } from '../../shared/eip712/index.js';
import type { AppLogger } from './adapters.js';
import type { AppSettings } from './appSettings.js';
import type { PromptBroker } from './prompts.js';
import { connectTrezor } from './trezorWallet.js';
import type { TrezorPrompts } from './trezorPrompts.js';
import type { MessageWire } from '../signers/trezor/wire.js';

type SignerKind = 'keystore' | 'env' | 'offline' | 'ledger' | 'trezor' | 'paper';

/** USB access to Ledgers (the real node-hid transport in the app; a recording or nothing in tests). */
export interface LedgerAccess {
  listDevices(): Promise<LedgerDevice[]>;
  open(path: string): Promise<LedgerTransport>;
}

export const usbLedgerAccess: LedgerAccess = { listDevices: listLedgerDevices, open: openLedger };

interface Connected {
  signer: Signer;
  /** The same wallet as a source-chain transaction signer (bridges, swaps); null for the offline signer. */
  txSigner: TransactionSigner | null;
  kind: SignerKind;
  label: string;
  path: string | null;
  /** The open device (a Ledger's transport, a Trezor's link), released when the signer is dropped. */
  transport: { close(): Promise<void> } | null;
}

const MAX_KEYSTORE_TOKENS = 8;

export class WalletSession {
  private connected: Connected | null = null;
  private readonly keystoreFiles = new Map<string, string>();

  constructor(
    private readonly settings: AppSettings,
    private readonly broker: PromptBroker,
    private readonly logger: AppLogger,
    private readonly env: NodeJS.ProcessEnv,
    private readonly ledger: LedgerAccess = usbLedgerAccess,
    private readonly trezor: { prompts: TrezorPrompts; open: () => Promise<MessageWire> } | null = null,
  ) {}

  view(): WalletView {
    const remembered = this.settings.wallet();
    return {
      address: remembered?.address ?? null,
      signer: this.connected ? { kind: this.connected.kind, label: this.connected.label, path: this.connected.path } : null,
      last_signer_kind: remembered?.last_signer_kind ?? null,
    };
  }

  address(): string | null {
    return this.settings.wallet()?.address ?? null;
  }

  requireAddress(): string {
    const a = this.address();
    if (!a) throw new OperationError('NO_WALLET', 'no main wallet is connected yet', { hint: 'Connect your main wallet first (keystore file, Ledger, Trezor, or offline signer).' });
    return a;
  }

  /** The custody signer; custody actions need it connected in this session. */
  requireSigner(): Signer {
    const address = this.requireAddress();
    if (!this.connected) {
      const paper = this.settings.wallet()?.last_signer_kind === 'paper';
      throw new OperationError('SIGNER_NOT_CONNECTED', `the main wallet ${address} has no signer connected in this session`, {
        hint: paper
          ? 'It is a paper wallet: it signs on the simulator profile only, where it reconnects by itself. Switch to the simulator, or connect another wallet.'
          : 'Reconnect the main wallet (unlock the keystore, plug in the Ledger or Trezor, or choose the offline signer).',
      });
    }
    return this.connected.signer;
  }

  /**
   * The main wallet's signer of source-chain transactions (a bridge's encoded transaction, a swap, an
   * ERC-20 approve). The offline signer signs typed data only: an encoded bridge transaction must be sent
   * within the bridge's 30 seconds, too short for a round trip to another machine.
   */
  requireTransactionSigner(): TransactionSigner {
    this.requireSigner();
    const c = this.connected!;
    if (!c.txSigner) {
      throw new OperationError('SIGNER_UNSUPPORTED', `the ${c.label} signs the service's typed data only, not source-chain transactions`, {
        hint: 'Connect the main wallet with its keystore file or a Ledger to bridge or swap; the offline signer cannot sign within the bridge quote’s 30 seconds.',
      });
    }
    return c.txSigner;
  }

  /** Registers a file chosen in the native dialog and returns its token and declared address. */
  async rememberKeystoreFile(file: string): Promise<{ file_token: string; file_name: string; address: string | null }> {
    // Reading the declared address validates the file now, before asking for a password.
    const address = await KeystoreSigner.addressOf(file);
    while (this.keystoreFiles.size >= MAX_KEYSTORE_TOKENS) {
      const oldest = this.keystoreFiles.keys().next().value;
      if (oldest === undefined) break;
      this.keystoreFiles.delete(oldest);
    }
    const token = randomUUID();
    this.keystoreFiles.set(token, file);
    return { file_token: token, file_name: path.basename(file), address };
  }

  async connectKeystore(token: string, password: string): Promise<WalletView> {
    const file = this.keystoreFiles.get(token);
    if (!file) throw new ValidationError('the keystore file choice has expired; choose the file again', { field: 'file_token', code: 'UNKNOWN_FILE_TOKEN' });
    const signer = await KeystoreSigner.open(file, async () => password);
    this.keystoreFiles.delete(token);
    await this.install({ signer, txSigner: signer.transactionSigner(), kind: 'keystore', label: `Keystore ${path.basename(file)}`, path: null, transport: null });
    return this.view();
  }

  async connectEnv(variable: string): Promise<WalletView> {
    const signer = EnvKeySigner.fromEnv(variable, { env: this.env, logger: { warn: (m) => this.logger.warn(m) } });
    await this.install({ signer, txSigner: signer.transactionSigner(), kind: 'env', label: `Environment variable ${variable}`, path: null, transport: null });
    return this.view();
  }

  async connectOffline(address: string): Promise<WalletView> {
    let document = '';
    const signer = new OfflineSigner({
      address,
      sink: async (doc) => {
        document = doc;
      },
      source: {
        read: async () => {
          const parsed = JSON.parse(document) as { summary: string[]; digest: string; signer: string; typedData: TypedData };
          const airgap = await this.airgapQr(parsed.typedData);
          const text = await this.broker.offlineSignature({ signer: parsed.signer, summary: parsed.summary, digest: parsed.digest, document, qr: airgap.qr });
          if (!/^\s*ur:/i.test(text)) return text;
          // An eth-signature UR (one or several parts, any order): it must answer this very request
          // (same request id) and recover the wallet; the offline signer then verifies the hex again.
          if (!airgap.request) {
            throw new AirgapError('INVALID_REQUEST', 'no QR request was shown for this signature (no airgap fingerprint is set), so a UR answer cannot be matched to it; paste the hex signature instead');
          }
          return importEthSignatureUr(text.trim().split(/\s+/), expectationOf(airgap.request));
        },
      },
    });
    await this.install({ signer, txSigner: null, kind: 'offline', label: 'Offline signer', path: null, transport: null });
    return this.view();
  }

  /** The eth-sign-request animated QR code for this typed data, or why there is none. */
  private async airgapQr(data: TypedData): Promise<{ qr: OfflineSignatureRequest['qr']; request: AirgapRequest | null }> {
    const { fingerprint, path: derivationPath } = this.settings.airgap();
    if (fingerprint === null) {
      return {
        qr: { unavailable: 'No QR code: set the signer’s master fingerprint (8 hex characters) in Settings › Offline signer to sign with a Keystone-style QR signer.' },
        request: null,
      };
    }
    try {
      const request = createAirgapRequest({ data, path: derivationPath, sourceFingerprint: fingerprint });
      const frames = await renderQrFrames(request.urParts, { format: 'svg' });
      return { qr: { frames, interval_ms: RECOMMENDED_FRAME_INTERVAL_MS, request_id: request.requestId }, request };
    } catch (err) {
      this.logger.warn(`[wallet] no QR code for the offline request: ${(err as Error).message}`);
      return { qr: { unavailable: `No QR code: ${(err as Error).message}` }, request: null };
    }
  }

  /** Connects a paper wallet's signer (made by the quick start, or remembered and found in the keychain). */
  async connectPaper(signer: Signer): Promise<WalletView> {
    if (signer.kind !== 'paper') throw new OperationError('NOT_A_PAPER_WALLET', `a ${signer.kind} signer is not a paper wallet`, { kind: 'internal' });
    await this.install({ signer, txSigner: null, kind: 'paper', label: 'Paper wallet (simulator)', path: null, transport: null });
    return this.view();
  }

  /** True when the remembered wallet is a paper wallet whose signer is not connected now. */
  paperToReconnect(): string | null {
    const remembered = this.settings.wallet();
    return remembered?.last_signer_kind === 'paper' && !this.connected ? remembered.address : null;
  }

  /** Drops a connected paper wallet's signer (another profile opened); the wallet stays remembered. */
  async dropPaper(reason: string): Promise<void> {
    if (this.connected?.kind === 'paper') await this.dropSigner(reason);
  }

  async listLedgerDevices(): Promise<{ device_id: string; label: string }[]> {
    const devices = await this.ledger.listDevices();
    return devices.map((d, i) => ({ device_id: d.path, label: devices.length === 1 ? 'Ledger' : `Ledger ${i + 1}` }));
  }

  async listLedgerAccounts(deviceId: string, scheme: DerivationScheme, start?: number, count?: number): Promise<LedgerAccountChoice[]> {
    const transport = await this.openLedger(deviceId);
    try {
      return await listAccounts(transport, scheme, { ...(start !== undefined ? { start } : {}), ...(count !== undefined ? { count } : {}) });
    } finally {
      await this.closeTransport(transport, 'after listing accounts');
    }
  }

  async connectLedger(deviceId: string, derivationPath: string): Promise<WalletView> {
    const transport = await this.openLedger(deviceId);
    let pendingSummary: string[] = [];
    try {
      const ledger = await LedgerSigner.connect({
        transport,
        path: derivationPath,
        confirmBlindSigning: (prompt) =>
          this.broker.confirmBlindSigning({
            primary_type: prompt.primaryType,
            domain_separator: prompt.domainSeparatorHex,
            message_hash: prompt.messageHashHex,
            summary: pendingSummary,
          }),
      });
      // The blind-signing prompt shows the plain-language summary of the very message being signed.
      const signer: Signer = {
        kind: 'ledger',
        address: ledger.address,
        signTypedData: (data: TypedData) => {
          pendingSummary = summarizeTypedData(data);
          return ledger.signTypedData(data);
        },
      };
      // The device already showed this address for approval; transactions use the same path and transport.
      const txSigner = new LedgerTransactionSigner({ transport, path: ledger.path, address: ledger.address });
      await this.install({ signer, txSigner, kind: 'ledger', label: `${deviceName(transport)} ${ledger.path}`, path: ledger.path, transport });
      return this.view();
    } catch (err) {
      await this.closeTransport(transport, 'after a failed connect');
      throw err;
    }
  }

  /**
   * Connects the Trezor as the main wallet: the device shows the address at `derivationPath`; only the
   * path and the address are remembered (the PIN and passphrase answered on the way never are).
   */
  async connectTrezor(derivationPath: string): Promise<WalletView> {
    if (!this.trezor) throw new OperationError('SIGNER_UNSUPPORTED', 'this build has no Trezor support', { kind: 'internal' });
    const c = await connectTrezor({ ...this.trezor, broker: this.broker, path: derivationPath, warn: (m) => this.logger.warn(m) });
    await this.install({ signer: c.signer, txSigner: null, kind: 'trezor', label: c.label, path: c.path, transport: c });
    return this.view();
  }

  /** Drops the signer (and with forget, the remembered wallet). Waiting prompts are cancelled. */
  async disconnect(forget: boolean): Promise<WalletView> {
    await this.dropSigner('the main wallet was disconnected');
    if (forget) this.settings.rememberWallet(null);
    return this.view();
  }

  async close(): Promise<void> {
    await this.dropSigner('the app is closing');
    this.keystoreFiles.clear();
  }

  private async install(next: Connected): Promise<void> {
    await this.dropSigner('another main-wallet signer was connected');
    this.connected = next;
    this.settings.rememberWallet({ address: next.signer.address, last_signer_kind: next.kind });
    this.logger.info(`[wallet] main wallet ${next.signer.address} connected (${next.kind})`);
  }

  private async dropSigner(reason: string): Promise<void> {
    const c = this.connected;
    this.connected = null;
    this.broker.cancelAll(reason);
    if (c?.transport) await this.closeTransport(c.transport, 'on disconnect');
  }

  private async openLedger(deviceId: string): Promise<LedgerTransport> {
    const known = await this.ledger.listDevices();
    // Only a device the system lists may be opened: the id is a HID path and must not be arbitrary.
    if (!known.some((d) => d.path === deviceId)) {
      throw new ValidationError('that Ledger is no longer connected; list the devices again', { field: 'device_id', code: 'NO_DEVICE' });
    }
    return this.ledger.open(deviceId);
  }

  private async closeTransport(transport: { close(): Promise<void> }, when: string): Promise<void> {
    try {
      await transport.close();
    } catch (err) {
      // Closing a device that was unplugged fails; the session goes on, but the failure is recorded.
      this.logger.warn(`[wallet] closing the hardware wallet ${when} failed: ${(err as Error).message}`);
    }
  }
}
