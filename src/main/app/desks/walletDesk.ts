/**
 * wallet:*, ledger:*, trezor:* and prompt:* — the main wallet (custody signer) and its connections, and the
 * answers to what main asks the page (blind-signing consent, an offline signature). On the simulator,
 * wallet:createPaper is the one-click start: a paper wallet, its trading key authorized, paper funds.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { IpcResponse, KeystoreChoice, PaperWalletResult, WalletView } from '../../../shared/ipc.js';
import { writeFileAtomic } from '../../files/atomicWrite.js';
import { OperationError, ValidationError } from '../../services/errors.js';
import { checkAddress } from '../../services/keys/common.js';
import { quickstart } from '../../services/keys/quickstart.js';
import type { DerivationScheme } from '../../signers/ledger/derivationPaths.js';
import type { DeskContext } from '../deskContext.js';

/** Environment variables the page may name as a key source (the schema says so too; main checks again). */
const ENV_KEY_PREFIX = 'PERPS_';

export class WalletDesk {
  /** One paper wallet is made at a time: a second click while one is under way makes no second wallet. */
  private creatingPaper = false;

  constructor(private readonly session: DeskContext) {}

  private get dialogs() {
    return this.session.dialogs;
  }

  view(): WalletView {
    return this.session.wallet.view();
  }

  async chooseKeystoreFile(): Promise<KeystoreChoice> {
    const file = await this.dialogs.chooseOpenFile({ title: 'Choose the main wallet keystore', filters: [{ name: 'Keystore', extensions: ['json'] }, { name: 'All files', extensions: ['*'] }] });
    if (file === null) return null;
    return this.session.wallet.rememberKeystoreFile(file);
  }

  /** Registers a keystore file by path, as the dialog would (tests; the command line has its own flow). */
  async rememberKeystoreFile(file: string): Promise<KeystoreChoice> {
    return this.session.wallet.rememberKeystoreFile(file);
  }

  async connectKeystore(req: { file_token: string; password: string }): Promise<WalletView> {
    return this.session.afterWalletChange(await this.session.wallet.connectKeystore(req.file_token, req.password));
  }

  async connectEnv(req: { variable: string }): Promise<WalletView> {
    if (!req.variable.startsWith(ENV_KEY_PREFIX)) {
      throw new ValidationError(`only variables named ${ENV_KEY_PREFIX}… can hold the main wallet key`, { field: 'variable', code: 'ENV_NAME_NOT_ALLOWED' });
    }
    return this.session.afterWalletChange(await this.session.wallet.connectEnv(req.variable));
  }

  async connectOffline(req: { address: string }): Promise<WalletView> {
    return this.session.afterWalletChange(await this.session.wallet.connectOffline(checkAddress(req.address, 'address')));
  }

  /**
   * Sim profile only: makes a paper main wallet (its key in the OS keychain), connects it as this
   * session's wallet at once (so a failure in a later step leaves it usable), then has it authorize a new
   * trading key and funds the account from the simulator's faucet, waiting for the credit.
   */
  async createPaper(): Promise<PaperWalletResult> {
    const sim = this.session.sim;
    if (!sim || this.session.profile?.name !== 'sim') {
      throw new OperationError('NOT_SIM_PROFILE', 'a paper wallet exists only on the simulator profile', { hint: 'Switch to the simulator profile to paper trade.' });
    }
    if (this.creatingPaper) throw new OperationError('PAPER_WALLET_IN_PROGRESS', 'a paper wallet is already being made', { kind: 'transient', hint: 'Wait for it to finish.' });
    this.creatingPaper = true;
    try {
      const ctx = this.session.ctx();
      const activeProfile = () => this.session.profile;
      const { wallet } = await ctx.paperWallets.create(ctx.profile.name);
      const before = this.session.wallet.address();
      await this.session.afterWalletChange(await this.session.wallet.connectPaper(ctx.paperSigner(wallet, activeProfile)), before);
      const r = await quickstart(ctx, { wallet, activeProfile }, { controlUrl: sim.urls.control_url, fetch: this.session.fetch });
      this.session.raise({ type: 'keys.changed' });
      this.session.raise({ type: 'history.changed', kinds: ['deposits'] });
      return { wallet: this.session.wallet.view(), agent: r.agent, free_balance: r.free_balance };
    } finally {
      this.creatingPaper = false;
    }
  }

  async disconnect(req: { forget?: boolean | undefined }): Promise<WalletView> {
    const before = this.session.wallet.address();
    const view = await this.session.wallet.disconnect(req.forget === true);
    return this.session.afterWalletChange(view, before);
  }

  async ledgerDevices(): Promise<IpcResponse<'ledger:listDevices'>> {
    return { devices: await this.session.wallet.listLedgerDevices() };
  }

  async ledgerAccounts(req: { device_id: string; scheme: DerivationScheme; start?: number | undefined; count?: number | undefined }): Promise<IpcResponse<'ledger:listAccounts'>> {
    const accounts = await this.session.wallet.listLedgerAccounts(req.device_id, req.scheme, req.start, req.count);
    return { accounts: accounts.map((a) => ({ path: a.path, index: a.index, address: a.address })) };
  }

  async ledgerConnect(req: { device_id: string; path: string }): Promise<WalletView> {
    return this.session.afterWalletChange(await this.session.wallet.connectLedger(req.device_id, req.path));
  }

  async trezorConnect(req: { path: string }): Promise<WalletView> {
    return this.session.afterWalletChange(await this.session.wallet.connectTrezor(req.path));
  }

  trezorAnswerPin(req: { prompt_id: string; positions: string }): { delivered: boolean } {
    return { delivered: this.session.trezorPrompts.answerPin(req.prompt_id, req.positions) };
  }

  trezorAnswerPassphrase(req: { prompt_id: string; passphrase: string } | { prompt_id: string; on_device: true }): { delivered: boolean } {
    return { delivered: this.session.trezorPrompts.answerPassphrase(req.prompt_id, 'on_device' in req ? { onDevice: true } : { passphrase: req.passphrase }) };
  }

  async trezorCancel(): Promise<{ cancelled: boolean }> {
    return { cancelled: await this.session.trezorPrompts.cancel() };
  }

  // ---- prompts ------------------------------------------------------------------------------------------

  respondBlindSigning(req: { prompt_id: string; accept: boolean }): { delivered: boolean } {
    return { delivered: this.session.broker.respond(req.prompt_id, { accept: req.accept }) };
  }

  respondOfflineSignature(req: { prompt_id: string; signature: string } | { prompt_id: string; cancel: true }): { delivered: boolean } {
    return { delivered: this.session.broker.respond(req.prompt_id, 'signature' in req ? { signature: req.signature } : { cancel: true }) };
  }

  async exportSigningRequest(req: { prompt_id: string }): Promise<{ saved: boolean; file_name: string | null }> {
    const doc = this.session.broker.document(req.prompt_id);
    if (doc === null) throw new ValidationError('no offline signature request is waiting with that id', { field: 'prompt_id', code: 'UNKNOWN_PROMPT' });
    const file = await this.dialogs.chooseSaveFile({ title: 'Save the signing request', defaultName: 'perps-signing-request.json', filters: [{ name: 'JSON', extensions: ['json'] }] });
    if (file === null) return { saved: false, file_name: null };
    await writeFileAtomic(file, doc);
    return { saved: true, file_name: path.basename(file) };
  }

  async importSignatureFile(req: { prompt_id: string }): Promise<{ signature: string | null }> {
    if (this.session.broker.document(req.prompt_id) === null) throw new ValidationError('no offline signature request is waiting with that id', { field: 'prompt_id', code: 'UNKNOWN_PROMPT' });
    const file = await this.dialogs.chooseOpenFile({ title: 'Choose the signature file', filters: [{ name: 'Signature', extensions: ['txt', 'sig', 'json'] }, { name: 'All files', extensions: ['*'] }] });
    if (file === null) return { signature: null };
    const stat = await fs.stat(file);
    // A signature is 132 characters; anything large is not one (and is not read into memory).
    if (stat.size > 4096) throw new ValidationError('that file is too large to be a signature', { field: 'file', code: 'NOT_A_SIGNATURE' });
    const text = (await fs.readFile(file, 'utf8')).trim();
    let signature = text;
    if (text.startsWith('{')) {
      try {
        const parsed = JSON.parse(text) as { signature?: unknown };
        if (typeof parsed.signature === 'string') signature = parsed.signature;
      } catch {
        // Not JSON after all: the text itself is checked as a signature when it is submitted.
      }
    }
    // A saved eth-signature UR (its parts one per line) is passed on whole; hex is at most 200 characters.
    return { signature: /^ur:/i.test(signature) ? signature : signature.slice(0, 200) };
  }
}
