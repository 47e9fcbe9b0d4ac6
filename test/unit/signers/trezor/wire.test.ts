/**
 * Protocol v1 framing and the protobuf messages, byte for byte against hand-assembled bytes from
 * protocol.md and the .proto field numbers; and hostile input refused: malformed reports, absurd
 * lengths, bad typed-data values, a device asking for parts the data does not have.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeMessage, encodeMessage, MESSAGE_TYPES } from '../../../../src/main/signers/trezor/messages.js';
import { checkPinPositions } from '../../../../src/main/signers/trezor/session.js';
import { encodeValue, fieldTypeOf, structAck, valueAck, type Eip712Document } from '../../../../src/main/signers/trezor/typedDataAnswers.js';
import { ReportAssembler, decodeBridgeHex, encodeBridgeHex, encodeReports, WireFormatError } from '../../../../src/main/signers/trezor/wireV1.js';
import { parseTrezorTransport } from '../../../../src/main/signers/trezor/openTrezor.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

describe('protocol v1 framing', () => {
  it('Initialize is one report: ?## 0000 00000000 and zero padding', () => {
    const reports = encodeReports({ type: 0, payload: new Uint8Array() });
    expect(reports.map(hex)).toEqual(['3f2323' + '0000' + '00000000' + '00'.repeat(55)]);
  });

  it('a 100-byte message: 55 bytes in the first report, 45 in the second behind a single "?"', () => {
    const payload = Uint8Array.from({ length: 100 }, (_, i) => i + 1);
    const reports = encodeReports({ type: 466, payload });
    expect(reports).toHaveLength(2);
    expect(hex(reports[0]!.subarray(0, 9))).toBe('3f2323' + '01d2' + '00000064');
    expect(hex(reports[0]!.subarray(9))).toBe(hex(payload.subarray(0, 55)));
    expect(reports[1]![0]).toBe(0x3f);
    expect(hex(reports[1]!.subarray(1, 46))).toBe(hex(payload.subarray(55)));
    expect(reports[1]!.subarray(46).every((b) => b === 0)).toBe(true);
  });

  it('reassembly is the inverse of framing for any message', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffff }), fc.uint8Array({ maxLength: 400 }), (type, payload) => {
        const a = new ReportAssembler();
        const reports = encodeReports({ type, payload });
        const out = reports.map((r) => a.push(r));
        expect(out.slice(0, -1).every((m) => m === undefined)).toBe(true);
        expect(out.at(-1)).toEqual({ type, payload });
        expect(decodeBridgeHex(encodeBridgeHex({ type, payload }))).toEqual({ type, payload });
      }),
    );
  });

  it('refuses reports without the magic, of the wrong size, or announcing an absurd length', () => {
    const a = new ReportAssembler();
    expect(() => a.push(new Uint8Array(64))).toThrow(WireFormatError);
    expect(() => a.push(new Uint8Array(63).fill(0x3f))).toThrow(WireFormatError);
    const huge = new Uint8Array(64);
    huge.set([0x3f, 0x23, 0x23, 0, 17, 0x7f, 0xff, 0xff, 0xff]);
    expect(() => new ReportAssembler().push(huge)).toThrow(/announced/);
    expect(() => decodeBridgeHex('zz')).toThrow(WireFormatError);
    expect(() => decodeBridgeHex('0011000000050102')).toThrow(/says 5 bytes/);
  });
});

describe('the firmware messages', () => {
  it('uses the wire numbers of messages.proto', () => {
    expect(MESSAGE_TYPES).toMatchObject({
      Initialize: 0,
      Failure: 3,
      Features: 17,
      PinMatrixRequest: 18,
      PinMatrixAck: 19,
      Cancel: 20,
      ButtonRequest: 26,
      ButtonAck: 27,
      PassphraseRequest: 41,
      PassphraseAck: 42,
      EthereumGetAddress: 56,
      EthereumAddress: 57,
      EthereumSignTypedData: 464,
      EthereumTypedDataStructRequest: 465,
      EthereumTypedDataStructAck: 466,
      EthereumTypedDataValueRequest: 467,
      EthereumTypedDataValueAck: 468,
      EthereumTypedDataSignature: 469,
      EthereumSignTypedHash: 470,
    });
  });

  it("EthereumGetAddress m/44'/60'/0'/0/0 with show_display, unpacked repeated uint32 as in proto2", () => {
    const m = encodeMessage('EthereumGetAddress', { address_n: [0x8000002c, 0x8000003c, 0x80000000, 0, 0], show_display: true });
    expect(m.type).toBe(56);
    expect(hex(m.payload)).toBe('08ac80808008' + '08bc80808008' + '088080808008' + '0800' + '0800' + '1001');
  });

  it('EthereumTypedDataStructAck with a nested field type', () => {
    const m = encodeMessage('EthereumTypedDataStructAck', { members: [{ name: 'to', type: { data_type: 7, entry_type: { data_type: 8, size: 2, struct_name: 'P' } } }] });
    // members(1) { type(1) { data_type(1)=7, entry_type(3) { data_type=8, size(2)=2, struct_name(4)="P" } }, name(2)="to" }
    expect(hex(m.payload)).toBe('0a11' + '0a0b' + '0807' + '1a07' + '0808' + '1002' + '220150' + '1202746f');
  });

  it('decodes Features and a Failure; refuses unknown types and missing required fields', () => {
    // major 2, minor 8, patch 1, initialized, model "T" (field 21: tag aa01).
    const f = decodeMessage({ type: 17, payload: Buffer.from('100218082001' + '6001' + 'aa010154', 'hex') });
    expect(f).toEqual({ name: 'Features', fields: { major_version: 2, minor_version: 8, patch_version: 1, initialized: true, model: 'T' } });
    expect(decodeMessage({ type: 3, payload: Buffer.from('0804120943616e63656c6c6564', 'hex') }).fields).toEqual({ code: 4, message: 'Cancelled' });
    expect(() => decodeMessage({ type: 999, payload: new Uint8Array() })).toThrow(/unknown type 999/);
    expect(() => decodeMessage({ type: 469, payload: Buffer.from('0a0101', 'hex') })).toThrow(/address/);
    expect(() => decodeMessage({ type: 17, payload: Buffer.from('ff', 'hex') })).toThrow(/malformed/);
  });
});

describe('typed-data answers (hostile input refused)', () => {
  const doc: Eip712Document = {
    types: { EIP712Domain: [{ name: 'chainId', type: 'uint256' }], M: [{ name: 'a', type: 'uint8' }, { name: 'b', type: 'int16' }, { name: 'c', type: 'bytes4' }, { name: 'd', type: 'address[]' }] },
    primaryType: 'M',
    domain: { chainId: 1 },
    message: { a: 255, b: '-2', c: '0x01020304', d: ['0x' + '11'.repeat(20)] },
  };

  it('encodes each type as trezorlib does', () => {
    expect(fieldTypeOf(doc, 'uint8[2][]')).toEqual({ data_type: 7, entry_type: { data_type: 7, size: 2, entry_type: { data_type: 1, size: 1 } } });
    expect(hex(valueAck(doc, [1, 0])['value'] as Uint8Array)).toBe('ff');
    expect(hex(valueAck(doc, [1, 1])['value'] as Uint8Array)).toBe('fffe');
    expect(hex(valueAck(doc, [1, 3])['value'] as Uint8Array)).toBe('0001');
    expect(hex(valueAck(doc, [1, 3, 0])['value'] as Uint8Array)).toBe('11'.repeat(20));
  });

  it('refuses values that do not fit their type, never truncating', () => {
    expect(() => encodeValue({ data_type: 1, size: 1 }, 256, 'x')).toThrow(/does not fit/);
    expect(() => encodeValue({ data_type: 1, size: 32 }, -1, 'x')).toThrow(/does not fit/);
    expect(() => encodeValue({ data_type: 1, size: 32 }, 1.5, 'x')).toThrow(/integer/);
    expect(() => encodeValue({ data_type: 3, size: 4 }, '0x0102', 'x')).toThrow(/4 bytes/);
    expect(() => encodeValue({ data_type: 6 }, '0x12', 'x')).toThrow(/20-byte/);
    expect(() => encodeValue({ data_type: 6 }, 'not hex', 'x')).toThrow(/hex/);
    expect(() => encodeValue({ data_type: 5 }, 'true', 'x')).toThrow(/true or false/);
  });

  it('refuses a device asking for what the data does not have', () => {
    expect(() => structAck(doc, 'Nope')).toThrow(expect.objectContaining({ code: 'DEVICE_ERROR' }));
    expect(() => structAck(doc, '__proto__')).toThrow(expect.objectContaining({ code: 'DEVICE_ERROR' }));
    expect(() => valueAck(doc, [2])).toThrow(expect.objectContaining({ code: 'DEVICE_ERROR' }));
    expect(() => valueAck(doc, [1, 9])).toThrow(expect.objectContaining({ code: 'DEVICE_ERROR' }));
    expect(() => valueAck(doc, [1, 3, 5])).toThrow(expect.objectContaining({ code: 'DEVICE_ERROR' }));
    expect(() => valueAck(doc, [1, 0, 0])).toThrow(expect.objectContaining({ code: 'DEVICE_ERROR' }));
  });

  it('PIN positions are 1-9 only, at most 50', () => {
    expect(checkPinPositions('7415')).toBe('7415');
    for (const bad of ['', '0', '12a', '1 2', '1'.repeat(51), '１２']) expect(() => checkPinPositions(bad)).toThrow(/positions/);
  });
});

describe('PERPS_TREZOR_TRANSPORT', () => {
  it('accepts auto, usb, bridge, udp and a loopback udp:HOST:PORT', () => {
    expect(parseTrezorTransport(undefined)).toEqual({ kind: 'auto' });
    expect(parseTrezorTransport('usb')).toEqual({ kind: 'usb' });
    expect(parseTrezorTransport('bridge')).toEqual({ kind: 'bridge' });
    expect(parseTrezorTransport('udp')).toEqual({ kind: 'udp', host: '127.0.0.1', port: 21324 });
    expect(parseTrezorTransport('udp:127.0.0.1:21324')).toEqual({ kind: 'udp', host: '127.0.0.1', port: 21324 });
    expect(parseTrezorTransport('udp:[::1]:5')).toEqual({ kind: 'udp', host: '[::1]', port: 5 });
  });

  it('refuses anything else, and any emulator not on this machine, before a socket exists', () => {
    for (const bad of ['udp:10.0.0.1:21324', 'udp:emulator.example:21324', 'udp:localhost', 'udp:127.0.0.1:0', 'udp:127.0.0.1:70000', 'tcp:127.0.0.1:1', 'usb;rm']) {
      expect(() => parseTrezorTransport(bad), bad).toThrow(expect.objectContaining({ code: 'INVALID_SETTING' }));
    }
  });
});
