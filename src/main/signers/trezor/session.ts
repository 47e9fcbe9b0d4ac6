/**
 * One conversation with a Trezor over a MessageWire: send a request, and answer the device's side
 * requests until it gives the answer the caller expects. The side requests are the firmware's
 * @auxstart messages: PinMatrixRequest (the Model One asks for the PIN as positions on the scrambled
 * matrix it shows), PassphraseRequest (typed in the app, or entered on the device), and ButtonRequest
 * (the device shows a screen and waits for the person: the app says "confirm on your Trezor" with what
 * it shows). A Failure ends the request as a TrezorError.
 *
 * Cancel sends the protocol's Cancel message; the device leaves its screen and answers Failure
 * ActionCancelled, which ends the pending request as CANCELLED.
 *
 * Deadlines (issue 36: a device silent after Initialize, or sending a 1 MiB header and nothing more,
 * hung the signer for good): every step that needs no person (a write, an answer to a request, the
 * device's answer to Cancel, the rest of a message once it has begun) must finish within the step
 * timeout, or the link is closed and the request ends as TIMEOUT (TREZOR_TIMEOUT). Only the answer that
 * follows a ButtonAck (the person at the device's screen) or a PinMatrixAck (the Model One makes the
 * person wait out a delay after wrong PINs) may take as long as the person takes; Cancel ends that wait.
 * The device gets at most MAX_BUTTON_REQUESTS screens per operation: no real flow comes near it, and a
 * device asking without end is stopped (200,000 ButtonRequests in 10 s were all answered).
 */
import { BUTTON_REQUEST, decodeMessage, encodeMessage, MessageFormatError, type DecodedMessage, type Fields, type MessageName } from './messages.js';
import { TrezorError, failureToError } from './trezorErrors.js';
import type { MessageWire } from './wire.js';
import type { WireMessage } from './wireV1.js';

/** What the device is waiting for the person to do, as the app shows it. */
export interface ButtonPrompt {
  /** ButtonRequestType code (messages-common.proto). */
  readonly code: number | undefined;
  /** The firmware's name of the screen ("confirm_typed_value", ...), when it says. */
  readonly name: string | undefined;
}

export type PassphraseAnswer = { passphrase: string } | { onDevice: true };

/** The person's side, supplied by the app or the terminal. */
export interface TrezorInteraction {
  /** The PIN as positions 1-9 on the matrix the device shows (7 8 9 / 4 5 6 / 1 2 3), never digits. */
  pinPositions(): Promise<string>;
  /** `onDeviceAvailable`: the device can take the passphrase itself (not the Model One). */
  passphrase(onDeviceAvailable: boolean): Promise<PassphraseAnswer>;
  /** The device is showing a screen and waits for a press. */
  button(prompt: ButtonPrompt): void;
}

/** A PIN in positions: 1 to 50 of the digits 1-9. Anything else is refused before it reaches the device. */
export function checkPinPositions(positions: string): string {
  if (!/^[1-9]{1,50}$/.test(positions)) throw new TrezorError('INVALID_SETTING', 'the PIN must be entered as positions 1 to 9 on the matrix (up to 50)');
  return positions;
}

/** How long a step that needs no person may take. Generous: a Model One deriving a passphrase wallet takes seconds. */
export const DEFAULT_STEP_TIMEOUT_MS = 30_000;
/** Screens (ButtonRequests) one operation may show; a typed-data signature shows a few dozen at most. */
export const MAX_BUTTON_REQUESTS = 256;

export interface TrezorSessionOptions {
  /** The deadline of every step that needs no person (default DEFAULT_STEP_TIMEOUT_MS). */
  stepTimeoutMs?: number;
}

/** A deadline that runs from creation (a step without a person) or from arm() (a person's step, once Cancel is sent). */
class StepDeadline {
  readonly expired: Promise<never>;
  #timer: NodeJS.Timeout | undefined;
  #fire!: () => void;

  constructor(
    private readonly ms: number,
    private readonly what: () => string,
    armed: boolean,
  ) {
    this.expired = new Promise<never>((_, reject) => {
      this.#fire = () => reject(new TrezorError('TIMEOUT', this.what()));
    });
    this.expired.catch(() => undefined);
    if (armed) this.arm();
  }

  arm(): void {
    if (this.#timer) return;
    this.#timer = setTimeout(() => this.#fire(), this.ms);
  }

  clear(): void {
    clearTimeout(this.#timer);
  }
}

export class TrezorSession {
  readonly #wire: MessageWire;
  readonly #interaction: TrezorInteraction;
  readonly #stepTimeoutMs: number;
  #cancelled = false;
  #busy = false;
  /** Closed after a timeout or a runaway device: a late answer must never be read as the next request's. */
  #broken: TrezorError | undefined;
  /** The deadline of the read under way (armed by cancel() when it waits for the person). */
  #reading: StepDeadline | undefined;
  #buttons = 0;
  /** Whether the device can take a passphrase on its own screen (Capability_PassphraseEntry). */
  passphraseOnDevice = false;

  constructor(wire: MessageWire, interaction: TrezorInteraction, options: TrezorSessionOptions = {}) {
    this.#wire = wire;
    this.#interaction = interaction;
    this.#stepTimeoutMs = options.stepTimeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
    if (!Number.isInteger(this.#stepTimeoutMs) || this.#stepTimeoutMs < 1) throw new RangeError('stepTimeoutMs must be a positive integer');
  }

  /** A new operation (connect, address, signature): its screens are counted afresh. */
  startOperation(): void {
    this.#buttons = 0;
    this.#cancelled = false;
  }

  get via(): string {
    return this.#wire.via;
  }

  /** Sends `name` and resolves with the first answer of an `expect`ed type; side requests are handled on the way. */
  async call(name: MessageName, fields: Fields, expect: readonly MessageName[]): Promise<DecodedMessage> {
    if (this.#broken) throw this.#broken;
    if (this.#busy) throw new TrezorError('DEVICE_BUSY', 'A Trezor request is already under way.');
    this.#busy = true;
    try {
      await this.#write(encodeMessage(name, fields), name);
      let waitsForPerson = false;
      for (;;) {
        const answer = await this.#read(waitsForPerson ? null : name);
        waitsForPerson = false;
        if (expect.includes(answer.name)) return answer;
        switch (answer.name) {
          case 'Failure':
            throw failureToError(answer.fields['code'] as number | undefined, answer.fields['message'] as string | undefined, this.#cancelled);
          case 'ButtonRequest':
            if (++this.#buttons > MAX_BUTTON_REQUESTS) {
              throw await this.#break(new TrezorError('DEVICE_ERROR', `The Trezor asked for more than ${MAX_BUTTON_REQUESTS} confirmations in one request; stopped and disconnected. Nothing was signed.`));
            }
            this.#interaction.button({ code: answer.fields['code'] as number | undefined, name: answer.fields['name'] as string | undefined });
            await this.#write(encodeMessage('ButtonAck'), 'ButtonAck');
            waitsForPerson = true;
            break;
          case 'PinMatrixRequest':
            await this.#answerPin();
            waitsForPerson = true;
            break;
          case 'PassphraseRequest':
            await this.#answerPassphrase();
            break;
          default:
            throw new TrezorError('WRONG_STATE', `The Trezor answered ${answer.name} where ${expect.join(' or ')} was expected.`);
        }
      }
    } finally {
      this.#busy = false;
    }
  }

  /**
   * Tells the device to stop what it is showing. The pending call ends as CANCELLED; a device that does
   * not answer the Cancel within the step timeout ends it as TIMEOUT.
   */
  async cancel(): Promise<void> {
    this.#cancelled = true;
    this.#reading?.arm();
    await this.#bounded(this.#wire.interrupt(encodeMessage('Cancel')), () => `The Trezor link did not take Cancel within ${this.#seconds()}; it was closed.`);
  }

  close(): Promise<void> {
    return this.#wire.close();
  }

  #seconds(): string {
    return `${Math.round(this.#stepTimeoutMs / 100) / 10} s`;
  }

  /** Closes the link for good and returns `err` (to throw): whatever the device sends later is never read. */
  async #break(err: TrezorError): Promise<TrezorError> {
    this.#broken ??= err;
    await this.#wire.close().catch(() => undefined);
    return err;
  }

  /** `op` within the step timeout, else the link is closed and TIMEOUT thrown. */
  async #bounded<T>(op: Promise<T>, what: () => string, deadline = new StepDeadline(this.#stepTimeoutMs, what, true)): Promise<T> {
    op.catch(() => undefined);
    try {
      return await Promise.race([op, deadline.expired]);
    } catch (err) {
      if (err instanceof TrezorError && err.code === 'TIMEOUT') throw await this.#break(err);
      throw err;
    } finally {
      deadline.clear();
    }
  }

  #write(msg: WireMessage, name: string): Promise<void> {
    return this.#bounded(this.#wire.write(msg), () => `The Trezor did not take ${name} within ${this.#seconds()}; the connection was closed. Reconnect it and try again.`);
  }

  /**
   * The device's next message. `after`: the request it answers, which needs no person (deadline from
   * now); null: it follows a screen or the PIN, and waits for the person (deadline from a Cancel).
   */
  async #read(after: string | null): Promise<DecodedMessage> {
    const what = (): string =>
      after !== null
        ? `The Trezor did not answer ${after} within ${this.#seconds()}; the connection was closed. Reconnect it, unlock it and try again.`
        : `The Trezor did not answer the Cancel within ${this.#seconds()}; the connection was closed.`;
    const deadline = new StepDeadline(this.#stepTimeoutMs, what, after !== null || this.#cancelled);
    this.#reading = deadline;
    let msg: WireMessage;
    try {
      // restMs: a message begun must end within the step timeout, even after a screen (the wire's own
      // deadline; its TIMEOUT closes the link here like this one's).
      msg = await this.#bounded(this.#wire.read({ restMs: this.#stepTimeoutMs }), what, deadline);
    } finally {
      this.#reading = undefined;
    }
    try {
      return decodeMessage(msg);
    } catch (err) {
      if (err instanceof MessageFormatError) throw new TrezorError('DEVICE_ERROR', err.message, { cause: err });
      throw err;
    }
  }

  async #answerPin(): Promise<void> {
    let positions: string;
    try {
      positions = checkPinPositions(await this.#interaction.pinPositions());
    } catch (err) {
      // The device waits for the PIN; tell it to stop before reporting why there is none.
      await this.#write(encodeMessage('Cancel'), 'Cancel');
      await this.#read('Cancel').catch(() => undefined);
      throw err;
    }
    await this.#write(encodeMessage('PinMatrixAck', { pin: positions }), 'the PIN');
  }

  async #answerPassphrase(): Promise<void> {
    let answer: PassphraseAnswer;
    try {
      answer = await this.#interaction.passphrase(this.passphraseOnDevice);
    } catch (err) {
      await this.#write(encodeMessage('Cancel'), 'Cancel');
      await this.#read('Cancel').catch(() => undefined);
      throw err;
    }
    if ('onDevice' in answer) {
      if (!this.passphraseOnDevice) throw new TrezorError('INVALID_SETTING', 'this Trezor cannot take the passphrase on the device; type it in the app');
      this.#interaction.button({ code: BUTTON_REQUEST.PassphraseEntry, name: 'passphrase_device' });
      await this.#write(encodeMessage('PassphraseAck', { on_device: true }), 'the passphrase');
    } else {
      if (answer.passphrase.length > 50) throw new TrezorError('INVALID_SETTING', 'a Trezor passphrase is at most 50 characters');
      await this.#write(encodeMessage('PassphraseAck', { passphrase: answer.passphrase }), 'the passphrase');
    }
  }
}
