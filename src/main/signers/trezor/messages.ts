/**
 * The protobuf messages the Trezor signer exchanges, with their wire type numbers. Field numbers, types
 * and rules are those of trezor-firmware's common/protob/messages.proto (MessageType enum),
 * messages-common.proto, messages-management.proto, messages-ethereum.proto and
 * messages-ethereum-eip712.proto; only the fields this app reads or writes are declared (protobuf skips
 * the others). Enums are declared as uint32: the same varint on the wire, checked where they are used.
 *
 * protobufjs (BSD-3-Clause) does the encoding; loaded with require because it is CommonJS.
 */
import { createRequire } from 'node:module';
import type * as Protobuf from 'protobufjs/light.js';
import type { WireMessage } from './wireV1.js';

const requireCjs = createRequire(import.meta.url);
const protobuf = requireCjs('protobufjs/light.js') as typeof Protobuf;

/** messages.proto, enum MessageType: the numbers used here, each checked against the firmware's file. */
export const MESSAGE_TYPES = {
  Initialize: 0,
  Success: 2,
  Failure: 3,
  Features: 17,
  PinMatrixRequest: 18,
  PinMatrixAck: 19,
  Cancel: 20,
  ButtonRequest: 26,
  ButtonAck: 27,
  PassphraseRequest: 41,
  PassphraseAck: 42,
  GetFeatures: 55,
  EthereumGetAddress: 56,
  EthereumAddress: 57,
  EthereumSignTypedData: 464,
  EthereumTypedDataStructRequest: 465,
  EthereumTypedDataStructAck: 466,
  EthereumTypedDataValueRequest: 467,
  EthereumTypedDataValueAck: 468,
  EthereumTypedDataSignature: 469,
  EthereumSignTypedHash: 470,
} as const;

export type MessageName = keyof typeof MESSAGE_TYPES;

/** messages-ethereum-eip712.proto, EthereumTypedDataStructAck.EthereumDataType. */
export const DATA_TYPE = { UINT: 1, INT: 2, BYTES: 3, STRING: 4, BOOL: 5, ADDRESS: 6, ARRAY: 7, STRUCT: 8 } as const;

/** messages-management.proto, Features.Capability: Capability_Ethereum and Capability_PassphraseEntry. */
export const CAPABILITY = { Ethereum: 7, PassphraseEntry: 17 } as const;

/** messages-common.proto, ButtonRequest.ButtonRequestType values the app words differently. */
export const BUTTON_REQUEST = { Other: 1, SignTx: 8, Address: 10, Warning: 18, PassphraseEntry: 19, PinEntry: 20 } as const;

type FieldJson = { type: string; id: number; rule?: 'repeated' | 'required'; options?: Record<string, unknown> };
const f = (type: string, id: number, rule?: 'repeated' | 'required'): FieldJson =>
  // proto2 repeated scalars are not packed unless declared so; the firmware's are not.
  rule === 'repeated' ? { type, id, rule, options: { packed: false } } : rule ? { type, id, rule } : { type, id };

const SCHEMA = {
  nested: {
    Initialize: { fields: { session_id: f('bytes', 1) } },
    GetFeatures: { fields: {} },
    Features: {
      fields: {
        vendor: f('string', 1),
        major_version: f('uint32', 2, 'required'),
        minor_version: f('uint32', 3, 'required'),
        patch_version: f('uint32', 4, 'required'),
        bootloader_mode: f('bool', 5),
        device_id: f('string', 6),
        pin_protection: f('bool', 7),
        passphrase_protection: f('bool', 8),
        label: f('string', 10),
        initialized: f('bool', 12),
        unlocked: f('bool', 16),
        model: f('string', 21),
        capabilities: f('uint32', 30, 'repeated'),
        session_id: f('bytes', 35),
        passphrase_always_on_device: f('bool', 36),
        busy: f('bool', 41),
        internal_model: f('string', 44),
      },
    },
    Success: { fields: { message: f('string', 1) } },
    Failure: { fields: { code: f('uint32', 1), message: f('string', 2) } },
    ButtonRequest: { fields: { code: f('uint32', 1), pages: f('uint32', 2), name: f('string', 4) } },
    ButtonAck: { fields: {} },
    PinMatrixRequest: { fields: { type: f('uint32', 1) } },
    PinMatrixAck: { fields: { pin: f('string', 1, 'required') } },
    Cancel: { fields: {} },
    PassphraseRequest: { fields: {} },
    PassphraseAck: { fields: { passphrase: f('string', 1), on_device: f('bool', 3) } },
    EthereumGetAddress: { fields: { address_n: f('uint32', 1, 'repeated'), show_display: f('bool', 2) } },
    EthereumAddress: { fields: { _old_address: f('bytes', 1), address: f('string', 2) } },
    EthereumSignTypedData: {
      fields: {
        address_n: f('uint32', 1, 'repeated'),
        primary_type: f('string', 2, 'required'),
        metamask_v4_compat: f('bool', 3),
        show_message_hash: f('bytes', 5),
      },
    },
    EthereumTypedDataStructRequest: { fields: { name: f('string', 1, 'required') } },
    EthereumTypedDataStructAck: {
      fields: { members: f('EthereumStructMember', 1, 'repeated') },
      nested: {
        EthereumStructMember: { fields: { type: f('EthereumFieldType', 1, 'required'), name: f('string', 2, 'required') } },
        EthereumFieldType: {
          fields: {
            data_type: f('uint32', 1, 'required'),
            size: f('uint32', 2),
            entry_type: f('EthereumFieldType', 3),
            struct_name: f('string', 4),
          },
        },
      },
    },
    EthereumTypedDataValueRequest: { fields: { member_path: f('uint32', 1, 'repeated') } },
    EthereumTypedDataValueAck: { fields: { value: f('bytes', 1, 'required') } },
    EthereumTypedDataSignature: { fields: { signature: f('bytes', 1, 'required'), address: f('string', 2, 'required') } },
    EthereumSignTypedHash: {
      fields: {
        address_n: f('uint32', 1, 'repeated'),
        domain_separator_hash: f('bytes', 2, 'required'),
        message_hash: f('bytes', 3),
      },
    },
  },
};

const root = protobuf.Root.fromJSON(SCHEMA);
const NAME_OF_TYPE = new Map<number, MessageName>(Object.entries(MESSAGE_TYPES).map(([name, type]) => [type, name as MessageName]));

/** Plain objects: bytes as Uint8Array, numbers as numbers, absent optional fields absent. */
export type Fields = Record<string, unknown>;

export interface DecodedMessage {
  readonly name: MessageName;
  readonly fields: Fields;
}

export class MessageFormatError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MessageFormatError';
  }
}

export function encodeMessage(name: MessageName, fields: Fields = {}): WireMessage {
  const type = root.lookupType(name);
  const problem = type.verify(fields);
  if (problem) throw new MessageFormatError(`${name}: ${problem}`);
  return { type: MESSAGE_TYPES[name], payload: type.encode(type.fromObject(fields)).finish() };
}

/** Decodes a message of a known type; an unknown type or a malformed body is a MessageFormatError. */
export function decodeMessage(msg: WireMessage): DecodedMessage {
  const name = NAME_OF_TYPE.get(msg.type);
  if (name === undefined) throw new MessageFormatError(`the Trezor sent a message of unknown type ${msg.type}`);
  const type = root.lookupType(name);
  try {
    const decoded = type.decode(msg.payload);
    const fields = type.toObject(decoded, { longs: Number, bytes: Uint8Array as unknown as typeof Array, defaults: false, arrays: false }) as Fields;
    return { name, fields };
  } catch (err) {
    throw new MessageFormatError(`the Trezor sent a malformed ${name}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
