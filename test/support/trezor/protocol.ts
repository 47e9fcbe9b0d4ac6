/**
 * The fake Trezor's own view of the wire: protocol v1 framing written from common/protob/protocol.md and
 * the messages parsed from proto text with the field numbers of trezor-firmware's common/protob/*.proto.
 * Deliberately independent of src/main/signers/trezor (no shared framing or schema code), so a mistake
 * there shows up as a fake device that does not understand the signer, not as two matching mistakes.
 */
import protobuf from 'protobufjs';

const PROTO = `
syntax = "proto2";
message Initialize { optional bytes session_id = 1; }
message Features {
  optional string vendor = 1; required uint32 major_version = 2; required uint32 minor_version = 3; required uint32 patch_version = 4;
  optional bool bootloader_mode = 5; optional string device_id = 6; optional bool pin_protection = 7; optional bool passphrase_protection = 8;
  optional string label = 10; optional bool initialized = 12; optional bool unlocked = 16; optional string model = 21;
  repeated uint32 capabilities = 30; optional bytes session_id = 35; optional string internal_model = 44;
}
message Success { optional string message = 1; }
message Failure { optional uint32 code = 1; optional string message = 2; }
message ButtonRequest { optional uint32 code = 1; optional uint32 pages = 2; optional string name = 4; }
message ButtonAck {}
message PinMatrixRequest { optional uint32 type = 1; }
message PinMatrixAck { required string pin = 1; }
message Cancel {}
message PassphraseRequest {}
message PassphraseAck { optional string passphrase = 1; optional bool on_device = 3; }
message EthereumGetAddress { repeated uint32 address_n = 1; optional bool show_display = 2; }
message EthereumAddress { optional bytes _old_address = 1; optional string address = 2; }
message EthereumSignTypedData { repeated uint32 address_n = 1; required string primary_type = 2; optional bool metamask_v4_compat = 3 [default = true]; optional bytes show_message_hash = 5; }
message EthereumTypedDataStructRequest { required string name = 1; }
message EthereumFieldType { required uint32 data_type = 1; optional uint32 size = 2; optional EthereumFieldType entry_type = 3; optional string struct_name = 4; }
message EthereumStructMember { required EthereumFieldType type = 1; required string name = 2; }
message EthereumTypedDataStructAck { repeated EthereumStructMember members = 1; }
message EthereumTypedDataValueRequest { repeated uint32 member_path = 1; }
message EthereumTypedDataValueAck { required bytes value = 1; }
message EthereumTypedDataSignature { required bytes signature = 1; required string address = 2; }
message EthereumSignTypedHash { repeated uint32 address_n = 1; required bytes domain_separator_hash = 2; optional bytes message_hash = 3; }
`;

/** messages.proto MessageType numbers (the firmware's file, checked by hand). */
export const WIRE_TYPES: Record<string, number> = {
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
};

const root = protobuf.parse(PROTO, { keepCase: true }).root;
const nameOf = new Map(Object.entries(WIRE_TYPES).map(([n, t]) => [t, n]));

export type Msg = { name: string; fields: Record<string, unknown> };

export function encode(name: string, fields: Record<string, unknown> = {}): { type: number; payload: Uint8Array } {
  const type = WIRE_TYPES[name];
  if (type === undefined) throw new Error(`fake trezor: no wire type for ${name}`);
  if (name === 'GetFeatures') return { type, payload: new Uint8Array() };
  const t = root.lookupType(name);
  return { type, payload: t.encode(t.fromObject(fields)).finish() };
}

/** Throws on an unknown type (the firmware answers Failure_UnexpectedMessage then). */
export function decode(type: number, payload: Uint8Array): Msg {
  const name = nameOf.get(type);
  if (name === undefined) throw new Error(`unknown message type ${type}`);
  if (name === 'GetFeatures') return { name, fields: {} };
  const t = root.lookupType(name);
  return { name, fields: t.toObject(t.decode(payload), { longs: Number, bytes: Uint8Array as unknown as typeof Array }) as Record<string, unknown> };
}

/** protocol.md, codec v1: '?##' + BE u16 type + BE u32 length + 55 payload bytes, then '?' + 63 bytes; zero padded. */
export function toReports(type: number, payload: Uint8Array): Buffer[] {
  const head = Buffer.alloc(9);
  head.write('?##', 0, 'latin1');
  head.writeUInt16BE(type, 3);
  head.writeUInt32BE(payload.length, 5);
  const first = Buffer.alloc(64);
  head.copy(first, 0);
  Buffer.from(payload.subarray(0, 55)).copy(first, 9);
  const out = [first];
  for (let at = 55; at < payload.length; at += 63) {
    const r = Buffer.alloc(64);
    r[0] = 0x3f;
    Buffer.from(payload.subarray(at, at + 63)).copy(r, 1);
    out.push(r);
  }
  return out;
}

/** Collects reports into messages like the firmware's codec_v1 reader. */
export class ReportReader {
  private type = 0;
  private need = 0;
  private parts: Buffer[] = [];
  private got = 0;
  private open = false;

  /** Returns [type, payload] when a message is complete. */
  push(report: Uint8Array): [number, Uint8Array] | undefined {
    const r = Buffer.from(report);
    if (r.length !== 64 || r[0] !== 0x3f) throw new Error('fake trezor: bad report');
    if (!this.open) {
      if (r[1] !== 0x23 || r[2] !== 0x23) throw new Error('fake trezor: bad first report');
      this.type = r.readUInt16BE(3);
      this.need = r.readUInt32BE(5);
      this.parts = [r.subarray(9)];
      this.got = 55;
      this.open = true;
    } else {
      this.parts.push(r.subarray(1));
      this.got += 63;
    }
    if (this.got < this.need) return undefined;
    this.open = false;
    return [this.type, new Uint8Array(Buffer.concat(this.parts).subarray(0, this.need))];
  }
}
