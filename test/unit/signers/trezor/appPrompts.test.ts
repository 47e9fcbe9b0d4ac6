/**
 * The app's side of the Trezor (src/main/app/trezorPrompts.ts) and its words (src/shared/trezorText.ts):
 * an answer reaches only the question it was asked for, a question left unanswered fails by itself, one
 * exchange runs at a time, a cancel during a device screen reaches the device and reads as CANCELLED,
 * and every TREZOR_* code the app shows has a title.
 */
import { describe, expect, it } from 'vitest';
import { TrezorPrompts } from '../../../../src/main/app/trezorPrompts.js';
import { TrezorError, type TrezorErrorCode } from '../../../../src/main/signers/trezor/trezorErrors.js';
import { TrezorPromptSchema, type TrezorPrompt } from '../../../../src/shared/ipc.js';
import { PIN_MATRIX_ROWS, trezorErrorTitle, trezorScreenText } from '../../../../src/shared/trezorText.js';

function prompts(timeoutMs = 60_000) {
  const sent: TrezorPrompt[] = [];
  return { sent, p: new TrezorPrompts((x) => sent.push(x), timeoutMs) };
}

describe('TrezorPrompts', () => {
  it('delivers a PIN only to the question asked, and tells the page when the exchange is over', async () => {
    const { p, sent } = prompts();
    const result = p.run('Trezor Model One', async () => undefined, () => p.interaction.pinPositions());
    const ask = sent.find((s) => s.kind === 'pin')!;
    expect(ask).toMatchObject({ model: 'Trezor Model One', passphrase_on_device: false, screen: null });
    expect(p.answerPin('another id', '123')).toBe(false);
    expect(p.answerPassphrase(ask.prompt_id, { passphrase: 'x' })).toBe(false);
    expect(p.answerPin(ask.prompt_id, '7913')).toBe(true);
    expect(p.answerPin(ask.prompt_id, '7913')).toBe(false);
    await expect(result).resolves.toBe('7913');
    expect(sent.at(-1)?.kind).toBe('idle');
  });

  it('a device screen becomes a button prompt that fits the event schema, whatever name the device sends', async () => {
    const { p, sent } = prompts();
    await p.run('Trezor Model T', async () => undefined, async () => p.interaction.button({ code: 8, name: 'x'.repeat(500) }));
    const button = sent.find((s) => s.kind === 'button')!;
    expect(TrezorPromptSchema.parse(button).screen).toEqual({ name: 'x'.repeat(64), code: 8 });
  });

  it('an unanswered PIN fails by itself as DEVICE_LOCKED', async () => {
    const { p } = prompts(20);
    await expect(p.run(null, async () => undefined, () => p.interaction.pinPositions())).rejects.toMatchObject({ code: 'DEVICE_LOCKED' });
  });

  it('runs one exchange at a time', async () => {
    const { p, sent } = prompts();
    const first = p.run(null, async () => undefined, () => p.interaction.passphrase(true));
    await expect(p.run(null, async () => undefined, async () => 1)).rejects.toMatchObject({ code: 'DEVICE_BUSY' });
    const ask = sent.find((s) => s.kind === 'passphrase')!;
    expect(ask.passphrase_on_device).toBe(true);
    expect(p.answerPassphrase(ask.prompt_id, { onDevice: true })).toBe(true);
    await expect(first).resolves.toEqual({ onDevice: true });
  });

  it('cancel during a device screen stops the device, and its ActionCancelled reads as CANCELLED, not rejected', async () => {
    const { p } = prompts();
    let stopped = 0;
    let rejectOnDevice: (e: Error) => void = () => undefined;
    const running = p.run('Trezor Safe 5', async () => void (stopped += 1), () => new Promise((_, reject) => (rejectOnDevice = reject)));
    expect(await p.cancel()).toBe(true);
    expect(stopped).toBe(1);
    rejectOnDevice(new TrezorError('REJECTED_ON_DEVICE', 'rejected'));
    await expect(running).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(await p.cancel()).toBe(false);
  });

  it('cancel while the PIN is asked fails the question (the session then cancels on the device)', async () => {
    const { p } = prompts();
    let stopped = 0;
    const running = p.run(null, async () => void (stopped += 1), () => p.interaction.pinPositions());
    expect(await p.cancel()).toBe(true);
    await expect(running).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(stopped).toBe(0);
  });
});

describe('the Trezor in the app’s words', () => {
  it('titles every device failure the app can show', () => {
    const shown: TrezorErrorCode[] = ['REJECTED_ON_DEVICE', 'CANCELLED', 'DEVICE_LOCKED', 'PIN_INVALID', 'NO_DEVICE', 'FIRMWARE_TOO_OLD', 'UNSUPPORTED_MODEL', 'DISCONNECTED', 'WRONG_STATE', 'DEVICE_BUSY', 'TIMEOUT'];
    for (const code of shown) expect(trezorErrorTitle(new TrezorError(code, 'x').errorCode)).toMatch(/\w/);
    expect(trezorErrorTitle('LEDGER_NO_DEVICE')).toBeNull();
    expect(trezorErrorTitle('constructor')).toBeNull();
  });

  it('says what the device shows, with a fallback for a screen it does not know', () => {
    expect(trezorScreenText('confirm_typed_data_final')).toMatch(/sign/);
    expect(trezorScreenText(null)).toMatch(/follow its screen/);
    expect(trezorScreenText('__proto__')).toMatch(/follow its screen/);
  });

  it('lays the matrix out as the device does: 7 8 9 on top, 1 2 3 at the bottom, each position once', () => {
    expect(PIN_MATRIX_ROWS.map((r) => r.join(''))).toEqual(['789', '456', '123']);
    expect(new Set(PIN_MATRIX_ROWS.flat()).size).toBe(9);
  });
});
