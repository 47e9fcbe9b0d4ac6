/**
 * The Trezor requests the signer makes, each one exchange of the firmware's message flow:
 * Initialize -> Features, EthereumGetAddress -> EthereumAddress, the EIP-712 exchange of
 * sign_typed_data.py (EthereumSignTypedData, then struct and value requests until
 * EthereumTypedDataSignature), and EthereumSignTypedHash for the Model One.
 */
import { toChecksumAddress } from '../../../shared/identity/index.js';
import { assessFeatures, type TrezorModel } from './deviceModel.js';
import type { DecodedMessage } from './messages.js';
import type { TrezorSession } from './session.js';
import { TrezorError } from './trezorErrors.js';
import { structAck, valueAck, type Eip712Document } from './typedDataAnswers.js';

/** A hostile or broken device could ask forever; no real typed data needs more requests than this. */
const MAX_TYPED_DATA_REQUESTS = 5000;

export interface DeviceSignature {
  /** 65 bytes r || s || v, v 27 or 28, as the firmware returns it. */
  readonly signature: Uint8Array;
  readonly address: string;
}

export async function initialize(session: TrezorSession): Promise<TrezorModel> {
  session.startOperation();
  const features = await session.call('Initialize', {}, ['Features']);
  const model = assessFeatures(features.fields);
  session.passphraseOnDevice = model.passphraseOnDevice;
  return model;
}

function checkedAddress(text: unknown): string {
  try {
    return toChecksumAddress(String(text), 'address');
  } catch (err) {
    throw new TrezorError('DEVICE_ERROR', 'The Trezor returned a malformed address.', { cause: err });
  }
}

export async function getAddress(session: TrezorSession, addressN: readonly number[], showOnDevice: boolean): Promise<string> {
  session.startOperation();
  const answer = await session.call('EthereumGetAddress', { address_n: [...addressN], show_display: showOnDevice }, ['EthereumAddress']);
  return checkedAddress(answer.fields['address']);
}

function signatureOf(answer: DecodedMessage): DeviceSignature {
  const signature = answer.fields['signature'];
  if (!(signature instanceof Uint8Array) || signature.length !== 65) throw new TrezorError('DEVICE_ERROR', 'The Trezor returned a signature that is not 65 bytes.');
  return { signature: new Uint8Array(signature), address: checkedAddress(answer.fields['address']) };
}

/** The full struct-by-struct exchange: the device hashes what it shows, so the signature covers what the person saw. */
export async function signTypedDataOnDevice(
  session: TrezorSession,
  addressN: readonly number[],
  doc: Eip712Document,
  options: { metamaskV4Compat?: boolean } = {},
): Promise<DeviceSignature> {
  const expect = ['EthereumTypedDataStructRequest', 'EthereumTypedDataValueRequest', 'EthereumTypedDataSignature'] as const;
  session.startOperation();
  let answer = await session.call(
    'EthereumSignTypedData',
    { address_n: [...addressN], primary_type: doc.primaryType, metamask_v4_compat: options.metamaskV4Compat ?? true },
    expect,
  );
  for (let n = 0; n < MAX_TYPED_DATA_REQUESTS; n++) {
    if (answer.name === 'EthereumTypedDataSignature') return signatureOf(answer);
    if (answer.name === 'EthereumTypedDataStructRequest') {
      answer = await session.call('EthereumTypedDataStructAck', structAck(doc, String(answer.fields['name'])), expect);
    } else {
      const path = answer.fields['member_path'];
      if (!Array.isArray(path) || path.length === 0 || path.length > 64) throw new TrezorError('DEVICE_ERROR', 'The Trezor asked for a value without a valid member path.');
      answer = await session.call('EthereumTypedDataValueAck', valueAck(doc, path as number[]), expect);
    }
  }
  throw new TrezorError('DEVICE_ERROR', `The Trezor asked for more than ${MAX_TYPED_DATA_REQUESTS} parts of the typed data; stopped.`);
}

/** The Model One's way: the device shows the two hashes and signs keccak(0x1901 || domain || message). */
export async function signTypedHashOnDevice(
  session: TrezorSession,
  addressN: readonly number[],
  domainSeparatorHash: Uint8Array,
  messageHash: Uint8Array | undefined,
): Promise<DeviceSignature> {
  session.startOperation();
  const answer = await session.call(
    'EthereumSignTypedHash',
    { address_n: [...addressN], domain_separator_hash: domainSeparatorHash, ...(messageHash ? { message_hash: messageHash } : {}) },
    ['EthereumTypedDataSignature'],
  );
  return signatureOf(answer);
}
