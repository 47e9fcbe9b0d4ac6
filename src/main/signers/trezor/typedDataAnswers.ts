/**
 * The host's answers in the EIP-712 exchange of the Trezor firmware (core/src/apps/ethereum/
 * sign_typed_data.py): the device asks for each struct's members by name (EthereumTypedDataStructRequest)
 * and for each atomic value by its member path (EthereumTypedDataValueRequest: [0, ...] inside the
 * domain, [1, ...] inside the message, one index per struct member or array element; an array's own path
 * asks for its length as a uint16). This module turns eth_signTypedData_v4 JSON into those answers.
 *
 * Values are encoded as trezorlib encodes them: integers big-endian in exactly `size` bytes (two's
 * complement for int), fixed bytes at their size, strings as UTF-8, booleans as one byte, addresses as
 * 20 bytes. A value that does not fit its type is refused here, not truncated.
 */
import { DATA_TYPE, type Fields } from './messages.js';
import { TrezorError } from './trezorErrors.js';

export interface Eip712Member {
  readonly name: string;
  readonly type: string;
}

export interface Eip712Document {
  readonly types: Readonly<Record<string, readonly Eip712Member[]>>;
  readonly primaryType: string;
  readonly domain: Readonly<Record<string, unknown>>;
  readonly message: Readonly<Record<string, unknown>>;
}

export interface FieldType {
  data_type: number;
  size?: number;
  entry_type?: FieldType;
  struct_name?: string;
}

const bad = (message: string): TrezorError => new TrezorError('INVALID_SETTING', `typed data: ${message}`);

/** "uint256", "bytes32", "Person[]", "uint8[2][]" as the firmware's EthereumFieldType. */
export function fieldTypeOf(doc: Eip712Document, type: string): FieldType {
  const array = /^(.*)\[(\d*)\]$/.exec(type);
  if (array) {
    const entry = fieldTypeOf(doc, array[1] as string);
    return array[2] === '' ? { data_type: DATA_TYPE.ARRAY, entry_type: entry } : { data_type: DATA_TYPE.ARRAY, size: Number(array[2]), entry_type: entry };
  }
  const sized = /^(uint|int|bytes)(\d+)$/.exec(type);
  if (sized) {
    const bits = Number(sized[2]);
    if (sized[1] === 'bytes') {
      if (bits < 1 || bits > 32) throw bad(`bad type ${type}`);
      return { data_type: DATA_TYPE.BYTES, size: bits };
    }
    if (bits < 8 || bits > 256 || bits % 8 !== 0) throw bad(`bad type ${type}`);
    return { data_type: sized[1] === 'uint' ? DATA_TYPE.UINT : DATA_TYPE.INT, size: bits / 8 };
  }
  switch (type) {
    case 'bytes':
      return { data_type: DATA_TYPE.BYTES };
    case 'string':
      return { data_type: DATA_TYPE.STRING };
    case 'bool':
      return { data_type: DATA_TYPE.BOOL };
    case 'address':
      return { data_type: DATA_TYPE.ADDRESS };
  }
  const members = doc.types[type];
  if (!members) throw bad(`unknown type ${type}`);
  return { data_type: DATA_TYPE.STRUCT, size: members.length, struct_name: type };
}

/** The EthereumTypedDataStructAck for a struct the device asked for. */
export function structAck(doc: Eip712Document, name: string): Fields {
  const members = Object.prototype.hasOwnProperty.call(doc.types, name) ? doc.types[name] : undefined;
  if (!members) throw new TrezorError('DEVICE_ERROR', `The Trezor asked for a struct the typed data does not define (${name.slice(0, 80)}).`);
  return { members: members.map((m) => ({ name: m.name, type: fieldTypeOf(doc, m.type) })) };
}

function hexBytes(value: unknown, what: string): Uint8Array {
  if (typeof value !== 'string' || !/^0x(?:[0-9a-fA-F]{2})*$/.test(value)) throw bad(`${what} must be 0x-prefixed hex`);
  return new Uint8Array(Buffer.from(value.slice(2), 'hex'));
}

function integer(value: unknown, what: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'bigint') return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  if (typeof value === 'string' && /^0x[0-9a-fA-F]+$/.test(value)) return BigInt(value);
  throw bad(`${what} must be an integer`);
}

function bigEndian(n: bigint, size: number, signed: boolean, what: string): Uint8Array {
  const bits = BigInt(size * 8);
  const min = signed ? -(1n << (bits - 1n)) : 0n;
  const max = signed ? (1n << (bits - 1n)) - 1n : (1n << bits) - 1n;
  if (n < min || n > max) throw bad(`${what} does not fit in ${size * 8} bits`);
  let u = n < 0n ? (1n << bits) + n : n;
  const out = new Uint8Array(size);
  for (let i = size - 1; i >= 0; i--) {
    out[i] = Number(u & 0xffn);
    u >>= 8n;
  }
  return out;
}

/** One atomic value as the EthereumTypedDataValueAck bytes of its type. */
export function encodeValue(type: FieldType, value: unknown, what: string): Uint8Array {
  switch (type.data_type) {
    case DATA_TYPE.UINT:
    case DATA_TYPE.INT:
      return bigEndian(integer(value, what), type.size as number, type.data_type === DATA_TYPE.INT, what);
    case DATA_TYPE.BYTES: {
      const bytes = hexBytes(value, what);
      if (type.size !== undefined && bytes.length !== type.size) throw bad(`${what} must be ${type.size} bytes`);
      return bytes;
    }
    case DATA_TYPE.STRING:
      if (typeof value !== 'string') throw bad(`${what} must be a string`);
      return new TextEncoder().encode(value);
    case DATA_TYPE.BOOL:
      if (typeof value !== 'boolean') throw bad(`${what} must be true or false`);
      return new Uint8Array([value ? 1 : 0]);
    case DATA_TYPE.ADDRESS: {
      const bytes = hexBytes(value, what);
      if (bytes.length !== 20) throw bad(`${what} must be a 20-byte address`);
      return bytes;
    }
    default:
      throw new TrezorError('DEVICE_ERROR', `The Trezor asked for the value of a ${type.struct_name ?? 'nested'} member as if it were atomic (${what}).`);
  }
}

/** The EthereumTypedDataValueAck for a member path the device asked for. */
export function valueAck(doc: Eip712Document, memberPath: readonly number[]): Fields {
  const where = `[${memberPath.join(',')}]`;
  const refuse = (): never => {
    throw new TrezorError('DEVICE_ERROR', `The Trezor asked for a value at ${where}, which the typed data does not have.`);
  };
  const root = memberPath[0];
  if (root !== 0 && root !== 1) return refuse();
  let type: FieldType = fieldTypeOf(doc, root === 0 ? 'EIP712Domain' : doc.primaryType);
  let value: unknown = root === 0 ? doc.domain : doc.message;
  let name = root === 0 ? 'domain' : 'message';
  for (const index of memberPath.slice(1)) {
    if (type.data_type === DATA_TYPE.STRUCT) {
      const member = (doc.types[type.struct_name as string] ?? [])[index] ?? refuse();
      if (typeof value !== 'object' || value === null || !Object.prototype.hasOwnProperty.call(value, member.name)) throw bad(`${name}.${member.name} is missing`);
      value = (value as Record<string, unknown>)[member.name];
      type = fieldTypeOf(doc, member.type);
      name = `${name}.${member.name}`;
    } else if (type.data_type === DATA_TYPE.ARRAY) {
      if (!Array.isArray(value) || index >= value.length) return refuse();
      value = value[index];
      type = type.entry_type as FieldType;
      name = `${name}[${index}]`;
    } else {
      return refuse();
    }
  }
  if (type.data_type === DATA_TYPE.ARRAY) {
    // The path of an array asks for its length, as a uint16.
    if (!Array.isArray(value)) throw bad(`${name} must be an array`);
    if (type.size !== undefined && value.length !== type.size) throw bad(`${name} must have ${type.size} elements`);
    return { value: bigEndian(BigInt(value.length), 2, false, name) };
  }
  return { value: encodeValue(type, value, name) };
}
