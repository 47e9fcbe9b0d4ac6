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
 */
import { BUTTON_REQUEST, decodeMessage, encodeMessage, MessageFormatError, type DecodedMessage, type Fields, type MessageName } from './messages.js';
import { TrezorError, failureToError } from './trezorErrors.js';
import type { MessageWire } from './wire.js';

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

export class TrezorSession {
  readonly #wire: MessageWire;
  readonly #interaction: TrezorInteraction;
  #cancelled = false;
  #busy = false;
  /** Whether the device can take a passphrase on its own screen (Capability_PassphraseEntry). */
  passphraseOnDevice = false;

  constructor(wire: MessageWire, interaction: TrezorInteraction) {
    this.#wire = wire;
    this.#interaction = interaction;
  }

  get via(): string {
    return this.#wire.via;
  }

  /** Sends `name` and resolves with the first answer of an `expect`ed type; side requests are handled on the way. */
  async call(name: MessageName, fields: Fields, expect: readonly MessageName[]): Promise<DecodedMessage> {
    if (this.#busy) throw new TrezorError('DEVICE_BUSY', 'A Trezor request is already under way.');
    this.#busy = true;
    try {
      await this.#wire.write(encodeMessage(name, fields));
      for (;;) {
        const answer = await this.#read();
        if (expect.includes(answer.name)) return answer;
        switch (answer.name) {
          case 'Failure':
            throw failureToError(answer.fields['code'] as number | undefined, answer.fields['message'] as string | undefined, this.#cancelled);
          case 'ButtonRequest':
            this.#interaction.button({ code: answer.fields['code'] as number | undefined, name: answer.fields['name'] as string | undefined });
            await this.#wire.write(encodeMessage('ButtonAck'));
            break;
          case 'PinMatrixRequest':
            await this.#answerPin();
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

  /** Tells the device to stop what it is showing. The pending call ends as CANCELLED. */
  async cancel(): Promise<void> {
    this.#cancelled = true;
    await this.#wire.write(encodeMessage('Cancel'));
  }

  close(): Promise<void> {
    return this.#wire.close();
  }

  async #read(): Promise<DecodedMessage> {
    const msg = await this.#wire.read();
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
      await this.#wire.write(encodeMessage('Cancel'));
      await this.#read().catch(() => undefined);
      throw err;
    }
    await this.#wire.write(encodeMessage('PinMatrixAck', { pin: positions }));
  }

  async #answerPassphrase(): Promise<void> {
    let answer: PassphraseAnswer;
    try {
      answer = await this.#interaction.passphrase(this.passphraseOnDevice);
    } catch (err) {
      await this.#wire.write(encodeMessage('Cancel'));
      await this.#read().catch(() => undefined);
      throw err;
    }
    if ('onDevice' in answer) {
      if (!this.passphraseOnDevice) throw new TrezorError('INVALID_SETTING', 'this Trezor cannot take the passphrase on the device; type it in the app');
      this.#interaction.button({ code: BUTTON_REQUEST.PassphraseEntry, name: 'passphrase_device' });
      await this.#wire.write(encodeMessage('PassphraseAck', { on_device: true }));
    } else {
      if (answer.passphrase.length > 50) throw new TrezorError('INVALID_SETTING', 'a Trezor passphrase is at most 50 characters');
      await this.#wire.write(encodeMessage('PassphraseAck', { passphrase: answer.passphrase }));
    }
  }
}
