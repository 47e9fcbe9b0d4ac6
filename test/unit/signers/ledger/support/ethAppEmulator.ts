/**
 * A Ledger Ethereum app in software, at the APDU level, written from Ledger's public protocol
 * description (app-ethereum doc/ethapp.adoc: GET APP AND VERSION, GET ETH PUBLIC ADDRESS, EIP712 SEND
 * STRUCT DEFINITION / IMPLEMENTATION, SIGN ETH EIP 712), not from hw-app-eth.
 *
 * It is used to MAKE the APDU recordings the tests replay. It does what the device does: it parses the
 * struct definitions and field values hw-app-eth streams, rebuilds the typed data, hashes it on its own
 * (ethers' TypedDataEncoder, not src/shared), derives the key of the requested BIP 32 path from a test
 * seed and signs. So its answers are real signatures of whatever the APDUs encode: a wrong path, a wrong
 * type, a wrong value or a wrong hash in an APDU gives a signature that does not recover the wallet over
 * the digest src/shared computes, and the signer under test refuses it.
 *
 * Faults (locked device, another app, an app without clear signing, blind signing off, user rejection,
 * a device with another seed) are switches, so the same recording flow covers every error path.
 */
import { HDNodeWallet, SigningKey, TypedDataEncoder, concat, getAddress, hexlify, keccak256, type TypedDataField } from 'ethers';
import { Transport } from './ledgerKit.js';

/** Hardhat's well-known test mnemonic: a known private key per path, never used for real funds. */
export const TEST_MNEMONIC = 'test test test test test test test test test test test junk';
const ROOT = HDNodeWallet.fromPhrase(TEST_MNEMONIC, '', 'm');

export function walletAt(path: string): HDNodeWallet {
  return ROOT.derivePath(path);
}

export interface EmulatorOptions {
  /** Name the OS reports for the open app: 'Ethereum', 'BOLOS' (dashboard), 'Bitcoin', ... (sent as latin1 bytes, so a test can send any byte). */
  appName?: string;
  appVersion?: string;
  /** Every APDU answers 0x5515. */
  locked?: boolean;
  /** Status for Ethereum (CLA 0xE0) APDUs when another app is open; default 0x6E00 (CLA not supported). */
  foreignAppStatus?: number;
  /** false: an app without EIP-712 clear signing (answers 0x6D00 to the first struct definition). */
  clearSigning?: boolean;
  /** Status for the first clear-signing APDU when clearSigning is false; default 0x6D00. */
  noClearSigningStatus?: number;
  /** The hashed EIP-712 sign answers 0x6A80, as the app does with blind signing off. */
  blindSigningOff?: boolean;
  /** The user rejects on the device: 0x6985 on the step named. */
  rejectOn?: 'address' | 'sign';
  /** Sign with this private key instead of the path's: a device holding another seed. */
  signWith?: string;
}

interface FieldDef {
  name: string;
  type: string;
}

const SW_OK = Buffer.from('9000', 'hex');
const sw = (code: number): Buffer => Buffer.from([code >> 8, code & 0xff]);

function readPath(data: Buffer): { path: string; rest: Buffer } {
  const n = data[0]!;
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const v = data.readUInt32BE(1 + 4 * i);
    parts.push(v >= 0x80000000 ? `${v - 0x80000000}'` : String(v));
  }
  return { path: 'm/' + parts.join('/'), rest: data.subarray(1 + 4 * n) };
}

/** typedesc byte: bit 7 array, bit 6 size follows, low 4 bits the type (0 custom, 1 int, 2 uint, 3 address, 4 bool, 5 string, 6 bytesN, 7 bytes). */
function parseFieldDef(data: Buffer): FieldDef {
  const desc = data[0]!;
  if (desc & 0x80) throw new Error('emulator: arrays are not used by the service structs');
  let at = 1;
  const kind = desc & 0x0f;
  let type: string;
  if (kind === 0) {
    const len = data[at]!;
    type = data.subarray(at + 1, at + 1 + len).toString('utf8');
    at += 1 + len;
  } else {
    const size = desc & 0x40 ? data[at++]! : undefined;
    const base = ['', 'int', 'uint', 'address', 'bool', 'string', 'bytes', 'bytes'][kind];
    if (base === undefined) throw new Error(`emulator: unknown type key ${kind}`);
    type = kind === 1 || kind === 2 ? `${base}${size! * 8}` : kind === 6 ? `bytes${size!}` : base;
  }
  const nameLen = data[at]!;
  const name = data.subarray(at + 1, at + 1 + nameLen).toString('utf8');
  if (at + 1 + nameLen !== data.length) throw new Error('emulator: trailing bytes in a field definition');
  return { name, type };
}

function decodeValue(type: string, raw: Buffer): unknown {
  if (type === 'string') return raw.toString('utf8');
  if (type === 'address') {
    if (raw.length !== 20) throw new Error('emulator: address must be 20 bytes');
    return getAddress(hexlify(raw));
  }
  if (type === 'bool') return raw.length === 1 && raw[0] === 1 ? true : raw.length === 1 && raw[0] === 0 ? false : (() => { throw new Error('emulator: bad bool'); })();
  if (/^uint\d+$/.test(type)) return raw.length === 0 ? 0n : BigInt(hexlify(raw));
  if (/^bytes\d+$/.test(type)) return hexlify(Buffer.concat([raw, Buffer.alloc(Number(type.slice(5)) - raw.length)]));
  throw new Error(`emulator: unsupported type ${type}`);
}

export class EthAppEmulator extends Transport {
  readonly opts: EmulatorOptions;
  /** Every APDU received, in hex, in order. */
  readonly received: string[] = [];
  /** The typed data rebuilt from the last clear-signing session (for assertions). */
  lastTypedData: { types: Record<string, FieldDef[]>; values: Record<string, Record<string, unknown>>; order: string[] } | undefined;

  #defs: Record<string, FieldDef[]> = {};
  #currentDef: string | undefined;
  #values: Record<string, Record<string, unknown>> = {};
  #rootOrder: string[] = [];
  #currentRoot: string | undefined;
  #fieldIndex = 0;
  #partial: Buffer[] = [];

  constructor(opts: EmulatorOptions = {}) {
    super();
    this.opts = opts;
  }

  override async exchange(apdu: Buffer): Promise<Buffer> {
    this.received.push(apdu.toString('hex'));
    return this.#answer(apdu);
  }

  override setScrambleKey(): void {}

  override async close(): Promise<void> {}

  #answer(apdu: Buffer): Buffer {
    const [cla, ins, p1, p2] = [apdu[0]!, apdu[1]!, apdu[2]!, apdu[3]!];
    const data = apdu.length > 4 ? apdu.subarray(5, 5 + apdu[4]!) : Buffer.alloc(0);
    if (this.opts.locked) return sw(0x5515);
    if (cla === 0xb0 && ins === 0x01) return this.#appAndVersion();
    const appName = this.opts.appName ?? 'Ethereum';
    if (cla === 0xe0 && appName !== 'Ethereum') return sw(this.opts.foreignAppStatus ?? 0x6e00);
    if (cla !== 0xe0) return sw(0x6e00);
    switch (ins) {
      case 0x02:
        return this.#getAddress(p1, data);
      case 0x1a:
        return this.#structDef(p2, data);
      case 0x1c:
        return this.#structImpl(p1, p2, data);
      case 0x0c:
        return this.#sign(p2, data);
      default:
        // 0x1E (filtering) and anything else: not expected with remote look-ups off.
        return sw(0x6d00);
    }
  }

  #appAndVersion(): Buffer {
    const name = Buffer.from(this.opts.appName ?? 'Ethereum', 'latin1');
    const version = Buffer.from(this.opts.appVersion ?? '1.13.1', 'latin1');
    return Buffer.concat([Buffer.from([0x01, name.length]), name, Buffer.from([version.length]), version, Buffer.from([0x01, 0x02]), SW_OK]);
  }

  #getAddress(p1: number, data: Buffer): Buffer {
    if (p1 === 0x01 && this.opts.rejectOn === 'address') return sw(0x6985);
    const { path, rest } = readPath(data);
    if (rest.length !== 0) return sw(0x6a80);
    const w = walletAt(path);
    const pub = Buffer.from(SigningKey.computePublicKey(w.publicKey, false).slice(2), 'hex');
    const addr = Buffer.from(w.address.slice(2), 'ascii');
    return Buffer.concat([Buffer.from([pub.length]), pub, Buffer.from([addr.length]), addr, SW_OK]);
  }

  #structDef(p2: number, data: Buffer): Buffer {
    if (this.opts.clearSigning === false) return sw(this.opts.noClearSigningStatus ?? 0x6d00);
    if (p2 === 0x00) {
      // A new signing session starts with the first definition: forget any previous one.
      if (this.#currentRoot !== undefined || Object.keys(this.#values).length > 0) this.#reset();
      this.#currentDef = data.toString('utf8');
      this.#defs[this.#currentDef] = [];
      return SW_OK;
    }
    if (p2 === 0xff && this.#currentDef !== undefined) {
      this.#defs[this.#currentDef]!.push(parseFieldDef(data));
      return SW_OK;
    }
    return sw(0x6a80);
  }

  #structImpl(p1: number, p2: number, data: Buffer): Buffer {
    if (p2 === 0x00) {
      const root = data.toString('utf8');
      if (!this.#defs[root]) return sw(0x6a80);
      this.#currentRoot = root;
      this.#rootOrder.push(root);
      this.#values[root] = {};
      this.#fieldIndex = 0;
      return SW_OK;
    }
    if (p2 !== 0xff || this.#currentRoot === undefined) return sw(0x6a80);
    this.#partial.push(data);
    if (p1 === 0x01) return SW_OK;
    const whole = Buffer.concat(this.#partial);
    this.#partial = [];
    const len = whole.readUInt16BE(0);
    if (whole.length !== 2 + len) return sw(0x6a80);
    const field = this.#defs[this.#currentRoot]![this.#fieldIndex++];
    if (!field) return sw(0x6a80);
    this.#values[this.#currentRoot]![field.name] = decodeValue(field.type, whole.subarray(2));
    return SW_OK;
  }

  #sign(p2: number, data: Buffer): Buffer {
    const { path, rest } = readPath(data);
    let digest: string;
    if (p2 === 0x00) {
      // Hashed (blind) signing: domain separator then hashStruct(message), 32 bytes each.
      if (this.opts.blindSigningOff) return sw(0x6a80);
      if (rest.length !== 64) return sw(0x6a80);
      digest = keccak256(concat(['0x1901', rest.subarray(0, 32), rest.subarray(32, 64)]));
    } else if (p2 === 0x01) {
      if (rest.length !== 0) return sw(0x6a80);
      digest = this.#clearDigest();
    } else {
      return sw(0x6b00);
    }
    if (this.opts.rejectOn === 'sign') return sw(0x6985);
    const key = new SigningKey(this.opts.signWith ?? walletAt(path).privateKey);
    const sig = key.sign(digest);
    return Buffer.concat([Buffer.from([sig.v]), Buffer.from(sig.r.slice(2), 'hex'), Buffer.from(sig.s.slice(2), 'hex'), SW_OK]);
  }

  /** The device's own EIP-712 hash of what it was sent: the domain root first, then the primary type. */
  #clearDigest(): string {
    const [domainRoot, primary, ...extra] = this.#rootOrder;
    if (domainRoot !== 'EIP712Domain' || primary === undefined || extra.length > 0) throw new Error(`emulator: unexpected roots ${this.#rootOrder.join(',')}`);
    for (const root of this.#rootOrder) {
      if (Object.keys(this.#values[root]!).length !== this.#defs[root]!.length) throw new Error(`emulator: ${root} is missing field values`);
    }
    const domainFields = this.#defs.EIP712Domain! as TypedDataField[];
    const primaryFields = this.#defs[primary]! as TypedDataField[];
    const ds = TypedDataEncoder.hashStruct('EIP712Domain', { EIP712Domain: domainFields }, this.#values.EIP712Domain!);
    const hs = TypedDataEncoder.hashStruct(primary, { [primary]: primaryFields }, this.#values[primary]!);
    this.lastTypedData = { types: structuredClone(this.#defs), values: structuredClone(this.#values), order: [...this.#rootOrder] };
    this.#reset();
    return keccak256(concat(['0x1901', ds, hs]));
  }

  #reset(): void {
    this.#defs = {};
    this.#currentDef = undefined;
    this.#values = {};
    this.#rootOrder = [];
    this.#currentRoot = undefined;
    this.#fieldIndex = 0;
    this.#partial = [];
  }
}
