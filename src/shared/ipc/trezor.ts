/**
 * The Trezor in the desktop app (issue 30): connecting it as the main wallet, and the person's side of
 * the device while it works. Main sends trezorPrompt when the device needs something (the Model One's
 * PIN as positions on its scrambled matrix, the passphrase, a press on the device) and 'idle' when the
 * exchange is over; the page answers through trezor:answerPin / trezor:answerPassphrase, and
 * trezor:cancel tells the device itself to stop.
 *
 * The PIN crosses as positions 1-9 on the matrix the device shows (7 8 9 / 4 5 6 / 1 2 3), never as
 * digits: the matrix is scrambled on the device, so positions mean nothing without its screen.
 */
import { z } from 'zod';

const promptId = z.string().min(1).max(64);

export const TrezorConnectRequestSchema = z.strictObject({
  /** Derivation path, e.g. m/44'/60'/0'/0/0 (Trezor Suite's first Ethereum account); the device shows its address. */
  path: z.string().min(1).max(64),
});

export const TREZOR_PROMPT_KINDS = ['pin', 'passphrase', 'button', 'idle'] as const;

export const TrezorPromptSchema = z.object({
  /** pin/passphrase: answer with this id. button: the device shows a screen. idle: the exchange is over. */
  prompt_id: promptId,
  kind: z.enum(TREZOR_PROMPT_KINDS),
  /** "Trezor Model One", "Trezor Safe 5", ... ("Trezor" before the device said which it is). */
  model: z.string().max(64),
  /** The screen the device shows (button prompts): the firmware's name of it and its ButtonRequestType. */
  screen: z.object({ name: z.string().max(64).nullable(), code: z.number().int().nullable() }).nullable(),
  /** passphrase prompts: the device can take the passphrase on its own screen. */
  passphrase_on_device: z.boolean(),
});
export type TrezorPrompt = z.infer<typeof TrezorPromptSchema>;

export const TrezorAnswerPinRequestSchema = z.strictObject({
  prompt_id: promptId,
  /** Positions on the device's matrix, 1 to 50 of 1-9; never the digits. */
  positions: z.string().regex(/^[1-9]{1,50}$/, 'the PIN is entered as positions 1-9 on the matrix the Trezor shows'),
});

export const TrezorAnswerPassphraseRequestSchema = z.union([
  z.strictObject({ prompt_id: promptId, passphrase: z.string().max(50) }),
  z.strictObject({ prompt_id: promptId, on_device: z.literal(true) }),
]);

export const TrezorCancelRequestSchema = z.strictObject({});
/** delivered: a waiting prompt took the answer. cancelled: a prompt or the device was told to stop. */
export const TrezorCancelResultSchema = z.object({ cancelled: z.boolean() });
