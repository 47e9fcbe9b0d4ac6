/**
 * What a Trezor can do, from its Features. Typed data arrived in firmware 2.4.3 (touchscreen and Safe
 * models, which show the whole struct) and 1.10.5 (Model One, which can only sign the two hashes:
 * the eip712 messages are not implemented on T1, see messages-ethereum-eip712.proto). Safe 7 speaks
 * only the encrypted host protocol (THP) and is refused with a clear message rather than left hanging.
 */
import { CAPABILITY, type Fields } from './messages.js';
import { TrezorError } from './trezorErrors.js';
import { oneLineText } from '../../../shared/safeText.js';

export type SigningMode = 'typed-data' | 'hashes';

export interface TrezorModel {
  /** Marketing name: "Trezor Model One", "Trezor Safe 5", ... */
  readonly name: string;
  readonly firmware: string;
  readonly mode: SigningMode;
  readonly passphraseOnDevice: boolean;
  readonly label: string | undefined;
}

const NAMES: Record<string, string> = {
  T1B1: 'Trezor Model One',
  T2T1: 'Trezor Model T',
  T2B1: 'Trezor Safe 3',
  T3B1: 'Trezor Safe 3',
  T3T1: 'Trezor Safe 5',
  T3W1: 'Trezor Safe 7',
};

const MIN_TYPED_DATA = { one: [1, 10, 5], touch: [2, 4, 3] } as const;

function atLeast(v: readonly number[], min: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) {
    if ((v[i] as number) !== (min[i] as number)) return (v[i] as number) > (min[i] as number);
  }
  return true;
}

/** Checks a Features answer; returns the model and how it signs, or throws why it cannot. */
export function assessFeatures(features: Fields): TrezorModel {
  const version = [features['major_version'], features['minor_version'], features['patch_version']].map((n) => (typeof n === 'number' ? n : -1));
  const firmware = version.join('.');
  const internal = typeof features['internal_model'] === 'string' ? features['internal_model'] : undefined;
  const model = typeof features['model'] === 'string' ? features['model'] : undefined;
  if (features['bootloader_mode'] === true) {
    throw new TrezorError('WRONG_STATE', 'The Trezor is in bootloader mode: replug it without touching the screen (or buttons) and try again.');
  }
  if (internal === 'T3W1' || model === 'Safe 7') {
    throw new TrezorError('UNSUPPORTED_MODEL', 'Trezor Safe 7 needs Trezor’s encrypted host protocol (THP), which Perps Desk does not speak yet, so it cannot sign here.');
  }
  const isOne = internal === 'T1B1' || model === '1' || version[0] === 1;
  const name = (internal && NAMES[internal]) ?? (isOne ? 'Trezor Model One' : model ? `Trezor ${model === 'T' ? 'Model T' : model}` : 'Trezor');
  if (features['initialized'] !== true) throw new TrezorError('WRONG_STATE', `The ${name} has no seed yet: set it up in Trezor Suite first.`);
  const caps = Array.isArray(features['capabilities']) ? (features['capabilities'] as number[]) : [];
  if (caps.length > 0 && !caps.includes(CAPABILITY.Ethereum)) {
    throw new TrezorError('WRONG_STATE', `The ${name} runs Bitcoin-only firmware: install the universal firmware with Trezor Suite to sign Ethereum typed data.`);
  }
  const min = isOne ? MIN_TYPED_DATA.one : MIN_TYPED_DATA.touch;
  if (!atLeast(version, min)) {
    throw new TrezorError('FIRMWARE_TOO_OLD', `The ${name} runs firmware ${firmware}; typed-data signing needs ${min.join('.')} or later. Update it with Trezor Suite.`);
  }
  return {
    name,
    firmware,
    mode: isOne ? 'hashes' : 'typed-data',
    passphraseOnDevice: caps.includes(CAPABILITY.PassphraseEntry),
    // The label is the owner's text, set on any machine: one line, no control or bidi character (issue 36).
    label: typeof features['label'] === 'string' ? oneLineText(features['label']).slice(0, 64) : undefined,
  };
}
