/**
 * The person's side of a Trezor in the app: the device's side requests become trezorPrompt events for
 * the page, and the page's answers come back here. One Trezor exchange runs at a time (a device does
 * one thing at a time), so at most one PIN or passphrase question waits.
 *
 * Cancel always reaches the device: a waiting PIN or passphrase question is failed, and the session
 * then sends Cancel to the device before reporting it; during a screen on the device (the address, the
 * withdrawal's fields) Cancel is written to the device at once and the device leaves its screen.
 *
 * The PIN positions and the passphrase pass through in memory only: never logged, never stored.
 */
import { randomUUID } from 'node:crypto';
import type { TrezorPrompt } from '../../shared/ipc.js';
import type { ButtonPrompt, PassphraseAnswer, TrezorInteraction } from '../signers/trezor/session.js';
import { TrezorError } from '../signers/trezor/trezorErrors.js';

type Waiting =
  | { id: string; kind: 'pin'; resolve: (positions: string) => void; reject: (err: Error) => void; timer: NodeJS.Timeout }
  | { id: string; kind: 'passphrase'; resolve: (answer: PassphraseAnswer) => void; reject: (err: Error) => void; timer: NodeJS.Timeout };

/** How long a PIN or passphrase question waits for the person (the device waits as long). */
const ANSWER_TIMEOUT_MS = 5 * 60_000;

export class TrezorPrompts {
  private waiting: Waiting | null = null;
  /** Stops the exchange under way on the device (null when none runs). */
  private stopDevice: (() => Promise<void>) | null = null;
  private cancelRequested = false;
  private model = 'Trezor';

  constructor(
    private readonly emit: (prompt: TrezorPrompt) => void,
    private readonly timeoutMs = ANSWER_TIMEOUT_MS,
  ) {}

  /** The interaction the Trezor session calls; each request becomes a prompt for the page. */
  readonly interaction: TrezorInteraction = {
    pinPositions: () => this.ask<string>('pin', false),
    passphrase: (onDeviceAvailable) => this.ask<PassphraseAnswer>('passphrase', onDeviceAvailable),
    // The screen's name comes from the device: kept to the event's 64 characters.
    button: (prompt: ButtonPrompt) => this.send('button', randomUUID(), { name: prompt.name?.slice(0, 64) ?? null, code: prompt.code ?? null }, false),
  };

  /**
   * Runs one exchange with the device. `stop` tells the device to leave its screen. When the person
   * cancelled in the app, the device's ActionCancelled is reported as CANCELLED (not "rejected on the
   * device"), and the page is told the exchange is over whatever the outcome.
   */
  async run<T>(model: string | null, stop: () => Promise<void>, op: () => Promise<T>): Promise<T> {
    if (this.stopDevice) throw new TrezorError('DEVICE_BUSY', 'The Trezor is already busy with another request in this app; finish or cancel it first.');
    if (model) this.model = model;
    this.stopDevice = stop;
    this.cancelRequested = false;
    try {
      return await op();
    } catch (err) {
      if (this.cancelRequested && err instanceof TrezorError && err.code === 'REJECTED_ON_DEVICE') {
        throw new TrezorError('CANCELLED', 'Cancelled in the app; the Trezor was told to stop. Nothing was signed.', { cause: err });
      }
      throw err;
    } finally {
      this.stopDevice = null;
      this.failWaiting(new TrezorError('CANCELLED', 'The Trezor exchange ended.'));
      this.send('idle', randomUUID(), null, false);
    }
  }

  /** The model the device reported (prompts name it: the Model One's PIN matrix differs from a touchscreen). */
  setModel(model: string): void {
    this.model = model;
  }

  answerPin(promptId: string, positions: string): boolean {
    const w = this.waiting;
    if (!w || w.id !== promptId || w.kind !== 'pin') return false;
    this.settle();
    w.resolve(positions);
    return true;
  }

  answerPassphrase(promptId: string, answer: PassphraseAnswer): boolean {
    const w = this.waiting;
    if (!w || w.id !== promptId || w.kind !== 'passphrase') return false;
    this.settle();
    w.resolve(answer);
    return true;
  }

  /** Cancels what the Trezor is doing, on the device too. False when nothing was under way. */
  async cancel(): Promise<boolean> {
    if (!this.stopDevice) return false;
    this.cancelRequested = true;
    if (this.waiting) {
      // The session answers the device's PIN or passphrase request with Cancel before it reports this.
      this.failWaiting(new TrezorError('CANCELLED', 'Cancelled in the app; the Trezor was told to stop. Nothing was signed.'));
      return true;
    }
    await this.stopDevice();
    return true;
  }

  private ask<T>(kind: 'pin' | 'passphrase', onDevice: boolean): Promise<T> {
    this.failWaiting(new TrezorError('CANCELLED', 'A newer Trezor request replaced this one.'));
    const id = randomUUID();
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        reject(new TrezorError(kind === 'pin' ? 'DEVICE_LOCKED' : 'TIMEOUT', `No ${kind === 'pin' ? 'PIN' : 'passphrase'} was entered in time; the Trezor was told to stop.`));
      }, this.timeoutMs);
      timer.unref?.();
      this.waiting = { id, kind, resolve, reject, timer } as Waiting;
      this.send(kind, id, null, onDevice);
    });
  }

  private settle(): void {
    if (this.waiting) clearTimeout(this.waiting.timer);
    this.waiting = null;
  }

  private failWaiting(err: Error): void {
    const w = this.waiting;
    if (!w) return;
    this.settle();
    w.reject(err);
  }

  private send(kind: TrezorPrompt['kind'], promptId: string, screen: TrezorPrompt['screen'], onDevice: boolean): void {
    this.emit({ prompt_id: promptId, kind, model: this.model, screen, passphrase_on_device: onDevice });
  }
}
