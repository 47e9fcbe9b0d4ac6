/**
 * A Trezor in software, faithful to the firmware where the signer depends on it:
 *  - protocol v1 reports in and out (protocol.ts, independent of the code under test);
 *  - Initialize -> Features as each model and firmware version reports it; Safe 7 refusing codec v1
 *    with Failure_InvalidProtocol;
 *  - the keychain's unlock on first use: the Model One's PinMatrixRequest with a scrambled matrix (the
 *    host answers positions, the device maps them to digits), on-device PIN entry on the others
 *    (ButtonRequest PinEntry), PassphraseRequest with the answer typed on the host or entered on the
 *    device (not on the Model One);
 *  - EthereumSignTypedData following core/src/apps/ethereum/sign_typed_data.py step by step: confirm
 *    the address, collect the types (EIP712Domain first, then the primary type, depth first, each struct
 *    once), hash the domain asking for its values in order and showing them on one screen, ask whether
 *    to show the message, hash it asking for each value (array lengths first), showing each value, the
 *    final confirmation, and the signature r || s || v over keccak(0x1901 || domain || message);
 *  - EthereumSignTypedHash (how the Model One signs): two hash screens, then the signature;
 *  - every screen is a ButtonRequest the host must ButtonAck, after which the scripted person confirms,
 *    rejects (Failure_ActionCancelled) or waits until the host sends Cancel;
 *  - Failure_UnexpectedMessage for a message out of place, Failure_DataError for bad data.
 * Keys come from the firmware tests' mnemonic ("all" x 12) through ethers, so the firmware's own vectors
 * (common/tests/fixtures/ethereum/sign_typed_data.json) are reproducible byte for byte.
 */
import { HDNodeWallet, SigningKey, concat, getBytes, keccak256, toUtf8Bytes } from 'ethers';
import { decode, encode, ReportReader, toReports, type Msg } from './protocol.js';

export const TEST_MNEMONIC = 'all all all all all all all all all all all all';

export type ModelId = 'T1B1' | 'T2T1' | 'T2B1' | 'T3B1' | 'T3T1' | 'T3W1';
const MODEL_FIELD: Record<ModelId, string> = { T1B1: '1', T2T1: 'T', T2B1: 'Safe 3', T3B1: 'Safe 3', T3T1: 'Safe 5', T3W1: 'Safe 7' };

export type Decision = 'confirm' | 'reject' | 'wait';

export interface Screen {
  /** ButtonRequest name as the firmware's layouts pass it (br_name). */
  name: string;
  code: number;
  title: string;
  lines: string[];
}

export interface FakeTrezorOptions {
  model?: ModelId;
  version?: [number, number, number];
  /** Digits; set = PIN protected and locked until entered. */
  pin?: string;
  passphraseProtection?: boolean;
  initialized?: boolean;
  bootloader?: boolean;
  mnemonic?: string;
  /** What the person does at each screen (default confirm everything). */
  decide?: (screen: Screen) => Decision;
  /** The PIN the person enters on a touchscreen model's own keypad. */
  devicePin?: string;
  /** The passphrase the person types on the device when the host asks for on-device entry. */
  devicePassphrase?: string;
  /** Whether the person asks to see the full message (should_show_struct); default yes. */
  showFullMessage?: boolean;
  /** The device's label (Features.label); default "Test Trezor". */
  label?: string;
  /** The text of the Failure a rejection sends; default "Cancelled". */
  rejectMessage?: string;
}

class Cancelled extends Error {}
class FailureRaised extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

const F = { UnexpectedMessage: 1, DataError: 3, ActionCancelled: 4, PinCancelled: 6, PinInvalid: 7, InvalidProtocol: 17 };
const BR = { Other: 1, ConfirmOutput: 3, SignTx: 8, Address: 10, Warning: 18, PassphraseEntry: 19, PinEntry: 20 };
const DT = { UINT: 1, INT: 2, BYTES: 3, STRING: 4, BOOL: 5, ADDRESS: 6, ARRAY: 7, STRUCT: 8 };

interface FieldType {
  data_type: number;
  size?: number;
  entry_type?: FieldType;
  struct_name?: string;
}
interface Member {
  name: string;
  type: FieldType;
}

function hex(b: Uint8Array): string {
  return Buffer.from(b).toString('hex');
}

/** Path components as "m/44'/60'/0'/0/0". */
export function pathOf(addressN: number[]): string {
  return 'm/' + addressN.map((n) => (n >= 0x80000000 ? `${n - 0x80000000}'` : String(n))).join('/');
}

export class FakeTrezor {
  readonly options: Required<Omit<FakeTrezorOptions, 'pin' | 'devicePin' | 'devicePassphrase' | 'label' | 'rejectMessage'>> &
    Pick<FakeTrezorOptions, 'pin' | 'devicePin' | 'devicePassphrase' | 'label' | 'rejectMessage'>;
  /** Every screen the device showed, in order. */
  readonly screens: Screen[] = [];
  /** Every message received from the host, by name, in order. */
  readonly received: string[] = [];
  /** Every device request of the typed-data exchange, in order: "struct:NAME" or "value:0,1". */
  readonly requests: string[] = [];
  /** What the Model One's screen shows during PIN entry: matrix[p - 1] is the digit at position p. */
  shownMatrix: string | undefined;
  /** Listeners for output reports (the USB IN endpoint / the UDP socket). */
  onReport: (report: Buffer) => void = () => undefined;

  #reader = new ReportReader();
  #inbox: Msg[] = [];
  #waiter: ((m: Msg) => void) | undefined;
  #unlocked: boolean;
  #passphrase: string | undefined;
  #types = new Map<string, Member[]>();

  constructor(options: FakeTrezorOptions = {}) {
    this.options = {
      model: 'T3T1',
      version: [2, 8, 1],
      passphraseProtection: false,
      initialized: true,
      bootloader: false,
      mnemonic: TEST_MNEMONIC,
      decide: () => 'confirm',
      showFullMessage: true,
      ...options,
    };
    this.#unlocked = this.options.pin === undefined;
    void this.#run();
  }

  /** The address this device derives at `path` with `passphrase`. */
  static addressAt(path: string, passphrase = '', mnemonic = TEST_MNEMONIC): string {
    return HDNodeWallet.fromPhrase(mnemonic, passphrase, path).address;
  }

  /** One report from the host (USB OUT / UDP datagram). */
  receiveReport(report: Uint8Array): void {
    const done = this.#reader.push(report);
    if (!done) return;
    let msg: Msg;
    try {
      msg = decode(done[0], done[1]);
    } catch {
      msg = { name: `Unknown(${done[0]})`, fields: {} };
    }
    this.received.push(msg.name);
    if (this.#waiter) {
      const w = this.#waiter;
      this.#waiter = undefined;
      w(msg);
    } else this.#inbox.push(msg);
  }

  #next(): Promise<Msg> {
    const m = this.#inbox.shift();
    if (m) return Promise.resolve(m);
    return new Promise((resolve) => (this.#waiter = resolve));
  }

  #send(name: string, fields: Record<string, unknown> = {}): void {
    const { type, payload } = encode(name, fields);
    for (const r of toReports(type, payload)) this.onReport(r);
  }

  /** Sends a request and waits for the host's answer of `expected` (Cancel -> Cancelled; anything else -> UnexpectedMessage). */
  async #call(name: string, fields: Record<string, unknown>, expected: string): Promise<Record<string, unknown>> {
    this.#send(name, fields);
    const answer = await this.#next();
    if (answer.name === 'Cancel') throw new Cancelled();
    if (answer.name !== expected) throw new FailureRaised(F.UnexpectedMessage, 'Unexpected message');
    return answer.fields;
  }

  /** A screen: ButtonRequest, ButtonAck, then the person's decision. */
  async #screen(screen: Screen): Promise<void> {
    this.screens.push(screen);
    await this.#call('ButtonRequest', { code: screen.code, name: screen.name }, 'ButtonAck');
    const decision = this.options.decide(screen);
    if (decision === 'reject') throw new FailureRaised(F.ActionCancelled, this.options.rejectMessage ?? 'Cancelled');
    if (decision === 'wait') {
      const m = await this.#next();
      if (m.name === 'Cancel') throw new Cancelled();
      throw new FailureRaised(F.UnexpectedMessage, 'Unexpected message');
    }
  }

  async #run(): Promise<void> {
    for (;;) {
      const msg = await this.#next();
      try {
        await this.#handle(msg);
      } catch (err) {
        if (err instanceof Cancelled) this.#send('Failure', { code: F.ActionCancelled, message: 'Cancelled' });
        else if (err instanceof FailureRaised) this.#send('Failure', { code: err.code, message: err.message });
        else this.#send('Failure', { code: 99, message: 'Firmware error' });
      }
    }
  }

  async #handle(msg: Msg): Promise<void> {
    const o = this.options;
    if (o.model === 'T3W1') throw new FailureRaised(F.InvalidProtocol, 'Invalid protocol');
    switch (msg.name) {
      case 'Initialize':
      case 'GetFeatures':
        if (msg.name === 'Initialize') this.#passphrase = undefined;
        this.#send('Features', {
          vendor: 'trezor.io',
          major_version: o.version[0],
          minor_version: o.version[1],
          patch_version: o.version[2],
          bootloader_mode: o.bootloader || undefined,
          device_id: 'FAKE0001',
          pin_protection: o.pin !== undefined,
          passphrase_protection: o.passphraseProtection,
          label: o.label ?? 'Test Trezor',
          initialized: o.initialized,
          unlocked: this.#unlocked,
          model: MODEL_FIELD[o.model],
          internal_model: o.model,
          // Bitcoin, Bitcoin_like, ..., Ethereum (7); PassphraseEntry (17) on all but the Model One.
          capabilities: o.model === 'T1B1' ? [1, 2, 5, 7, 8, 10, 11, 13, 14] : [1, 2, 3, 4, 5, 7, 9, 10, 11, 12, 13, 14, 15, 16, 17],
        });
        return;
      case 'Cancel':
        throw new Cancelled();
      case 'EthereumGetAddress': {
        const key = await this.#keychain(msg.fields['address_n'] as number[]);
        if (msg.fields['show_display']) await this.#screen({ name: 'show_address', code: BR.Address, title: 'Receive address', lines: [key.address] });
        this.#send('EthereumAddress', { address: key.address });
        return;
      }
      case 'EthereumSignTypedData':
        if (o.model === 'T1B1') throw new FailureRaised(F.UnexpectedMessage, 'Unexpected message');
        return this.#signTypedData(msg.fields);
      case 'EthereumSignTypedHash':
        return this.#signTypedHash(msg.fields);
      default:
        throw new FailureRaised(F.UnexpectedMessage, 'Unexpected message');
    }
  }

  /** with_keychain: not initialized / bootloader refuse; locked asks the PIN; passphrase asked once per session. */
  async #keychain(addressN: number[]): Promise<HDNodeWallet> {
    const o = this.options;
    if (!o.initialized || o.bootloader) throw new FailureRaised(11, 'Device not initialized');
    if (!this.#unlocked) {
      let entered: string;
      if (o.model === 'T1B1') {
        const digits = '123456789'.split('');
        for (let i = digits.length - 1; i > 0; i--) {
          const j = Math.floor(Math.random() * (i + 1));
          [digits[i], digits[j]] = [digits[j] as string, digits[i] as string];
        }
        this.shownMatrix = digits.join('');
        const ack = await this.#call('PinMatrixRequest', { type: 1 }, 'PinMatrixAck');
        const positions = String(ack['pin']);
        if (!/^[1-9]+$/.test(positions)) throw new FailureRaised(F.PinInvalid, 'PIN invalid');
        entered = [...positions].map((p) => this.shownMatrix?.[Number(p) - 1]).join('');
        this.shownMatrix = undefined;
      } else {
        await this.#screen({ name: 'pin_device', code: BR.PinEntry, title: 'Enter PIN', lines: [] });
        entered = o.devicePin ?? '';
      }
      if (entered !== o.pin) throw new FailureRaised(F.PinInvalid, 'PIN invalid');
      this.#unlocked = true;
    }
    if (o.passphraseProtection && this.#passphrase === undefined) {
      const ack = await this.#call('PassphraseRequest', {}, 'PassphraseAck');
      if (ack['on_device']) {
        if (o.model === 'T1B1') throw new FailureRaised(F.DataError, 'Passphrase provided when it should not be');
        await this.#screen({ name: 'passphrase_device', code: BR.PassphraseEntry, title: 'Enter passphrase', lines: [] });
        this.#passphrase = o.devicePassphrase ?? '';
      } else {
        this.#passphrase = typeof ack['passphrase'] === 'string' ? ack['passphrase'] : '';
      }
    }
    if (addressN.length < 3 || addressN[0] !== 0x8000002c || addressN[1] !== 0x8000003c) throw new FailureRaised(F.DataError, 'Forbidden key path');
    return HDNodeWallet.fromPhrase(o.mnemonic, this.#passphrase ?? '', pathOf(addressN));
  }

  #signature(key: HDNodeWallet, digest: string): Uint8Array {
    const sig = new SigningKey(key.privateKey).sign(digest);
    return getBytes(concat([sig.r, sig.s, new Uint8Array([sig.v])]));
  }

  // ---- sign_typed_data.py ----

  async #signTypedData(fields: Record<string, unknown>): Promise<void> {
    const key = await this.#keychain(fields['address_n'] as number[]);
    const primary = String(fields['primary_type']);
    const v4 = fields['metamask_v4_compat'] !== false;
    await this.#screen({ name: 'confirm_address', code: BR.SignTx, title: 'Signing address', lines: [key.address] });
    this.#types = new Map();
    await this.#collectTypes('EIP712Domain');
    await this.#collectTypes(primary);
    const domainSeparator = await this.#hashStruct('EIP712Domain', [0], true, ['EIP712Domain'], v4);
    let messageHash: Uint8Array;
    if (primary === 'EIP712Domain') {
      await this.#screen({ name: 'confirm_empty_typed_message', code: BR.Other, title: 'Confirm message', lines: ['No message field'] });
      messageHash = new Uint8Array();
    } else {
      const members = this.#types.get(primary) as Member[];
      const show = await this.#shouldShowStruct(primary, members, 'Confirm message');
      messageHash = await this.#hashStruct(primary, [1], show, [primary], v4);
    }
    const expected = fields['show_message_hash'];
    if (expected instanceof Uint8Array && expected.length > 0) {
      if (hex(expected) !== hex(messageHash)) throw new FailureRaised(F.DataError, 'Message hash mismatch');
      await this.#screen({ name: 'confirm_message_hash', code: BR.Other, title: 'Confirm message hash', lines: ['0x' + hex(messageHash)] });
    }
    await this.#screen({ name: 'confirm_typed_data_final', code: BR.Other, title: 'Confirm typed data', lines: ['Really sign EIP-712 typed data?'] });
    const digest = keccak256(concat([new Uint8Array([0x19, 0x01]), domainSeparator, messageHash]));
    this.#send('EthereumTypedDataSignature', { signature: this.#signature(key, digest), address: key.address });
  }

  async #shouldShowStruct(name: string, members: Member[], title: string): Promise<boolean> {
    await this.#screen({ name: 'should_show_struct', code: BR.ConfirmOutput, title, lines: [`${name}: ${members.length} fields`, members.map((m) => m.name).join(', ')] });
    return this.options.showFullMessage;
  }

  async #collectTypes(name: string): Promise<void> {
    this.requests.push(`struct:${name}`);
    const ack = await this.#call('EthereumTypedDataStructRequest', { name }, 'EthereumTypedDataStructAck');
    const members = ((ack['members'] as Member[] | undefined) ?? []).map((m) => ({ name: m.name, type: m.type }));
    this.#types.set(name, members);
    for (const m of members) {
      validateFieldType(m.type);
      let t = m.type;
      while (t.data_type === DT.ARRAY) t = t.entry_type as FieldType;
      if (t.data_type === DT.STRUCT && !this.#types.has(t.struct_name as string)) await this.#collectTypes(t.struct_name as string);
    }
  }

  #typeName(t: FieldType): string {
    switch (t.data_type) {
      case DT.STRUCT:
        return t.struct_name as string;
      case DT.ARRAY:
        return `${this.#typeName(t.entry_type as FieldType)}[${t.size ?? ''}]`;
      case DT.UINT:
        return `uint${(t.size as number) * 8}`;
      case DT.INT:
        return `int${(t.size as number) * 8}`;
      case DT.BYTES:
        return t.size ? `bytes${t.size}` : 'bytes';
      case DT.STRING:
        return 'string';
      case DT.BOOL:
        return 'bool';
      case DT.ADDRESS:
        return 'address';
    }
    throw new FailureRaised(F.DataError, 'bad type');
  }

  #deps(name: string, out: Set<string>): void {
    if (out.has(name) || !this.#types.has(name)) return;
    out.add(name);
    for (const m of this.#types.get(name) as Member[]) {
      let t = m.type;
      while (t.data_type === DT.ARRAY) t = t.entry_type as FieldType;
      if (t.data_type === DT.STRUCT) this.#deps(t.struct_name as string, out);
    }
  }

  #typeHash(name: string): Uint8Array {
    const deps = new Set<string>();
    this.#deps(name, deps);
    deps.delete(name);
    const enc = [name, ...[...deps].sort()].map((n) => `${n}(${(this.#types.get(n) as Member[]).map((m) => `${this.#typeName(m.type)} ${m.name}`).join(',')})`).join('');
    return getBytes(keccak256(toUtf8Bytes(enc)));
  }

  async #hashStruct(name: string, path: number[], show: boolean, parents: string[], v4: boolean): Promise<Uint8Array> {
    const parts: Uint8Array[] = [this.#typeHash(name)];
    await this.#encodeData(parts, name, path, show, parents, v4);
    return getBytes(keccak256(concat(parts)));
  }

  async #encodeData(w: Uint8Array[], name: string, path: number[], show: boolean, parents: string[], v4: boolean): Promise<void> {
    const members = this.#types.get(name) as Member[];
    const combined: string[] | undefined = name === 'EIP712Domain' ? [] : undefined;
    if (name === 'EIP712Domain' && members.some((m) => m.type.data_type === DT.ARRAY || m.type.data_type === DT.STRUCT)) {
      throw new FailureRaised(F.DataError, 'Unexpected member in EIP712Domain');
    }
    for (const [i, m] of members.entries()) {
      const mpath = [...path, i];
      const t = m.type;
      if (t.data_type === DT.STRUCT) {
        const showStruct = show ? await this.#shouldShowStruct(t.struct_name as string, this.#types.get(t.struct_name as string) as Member[], [...parents, m.name].join('.')) : false;
        w.push(await this.#hashStruct(t.struct_name as string, mpath, showStruct, [...parents, m.name], v4));
      } else if (t.data_type === DT.ARRAY) {
        const size = t.size ?? Number(BigInt('0x' + (hex(await this.#value({ data_type: DT.UINT, size: 2 }, mpath)) || '0')));
        const entry = t.entry_type as FieldType;
        let showArray = false;
        if (show) {
          await this.#screen({ name: 'should_show_array', code: BR.Other, title: [...parents, m.name].join('.'), lines: [`Array of ${size} ${this.#typeName(entry)}`] });
          showArray = this.options.showFullMessage;
        }
        const arr: Uint8Array[] = [];
        for (let j = 0; j < size; j++) {
          const epath = [...mpath, j];
          if (entry.data_type === DT.STRUCT) {
            if (v4) arr.push(await this.#hashStruct(entry.struct_name as string, epath, showArray, [...parents, m.name], v4));
            else await this.#encodeData(arr, entry.struct_name as string, epath, showArray, [...parents, m.name], v4);
          } else {
            const value = await this.#value(entry, epath);
            arr.push(encodeField(entry, value));
            if (showArray) await this.#screen({ name: 'confirm_typed_value', code: BR.Other, title: `${m.name}[${j}]`, lines: [display(entry, value)] });
          }
        }
        w.push(getBytes(keccak256(concat(arr))));
      } else {
        const value = await this.#value(t, mpath);
        w.push(encodeField(t, value));
        if (show) {
          if (combined) combined.push(`${m.name}: ${display(t, value)}`);
          else await this.#screen({ name: 'confirm_typed_value', code: BR.Other, title: [...parents.slice(1), m.name].join('.') || m.name, lines: [display(t, value)] });
        }
      }
    }
    if (show && combined) {
      if (combined.length > 0) await this.#screen({ name: 'confirm_typed_value', code: BR.Other, title: 'EIP712Domain', lines: combined });
      else await this.#screen({ name: 'confirm_typed_value', code: BR.Warning, title: 'EIP712Domain', lines: ['Empty domain'] });
    }
  }

  async #value(t: FieldType, path: number[]): Promise<Uint8Array> {
    this.requests.push(`value:${path.join(',')}`);
    const ack = await this.#call('EthereumTypedDataValueRequest', { member_path: path }, 'EthereumTypedDataValueAck');
    const value = ack['value'] instanceof Uint8Array ? new Uint8Array(ack['value']) : new Uint8Array();
    if (t.size !== undefined && value.length !== t.size) throw new FailureRaised(F.DataError, 'Invalid length');
    if (t.data_type === DT.BOOL && !(value.length === 1 && value[0]! <= 1)) throw new FailureRaised(F.DataError, 'Invalid boolean value');
    if (t.data_type === DT.ADDRESS && value.length !== 20) throw new FailureRaised(F.DataError, 'Invalid address');
    if (t.data_type === DT.STRING) {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(value);
      } catch {
        throw new FailureRaised(F.DataError, 'Invalid UTF-8');
      }
    }
    return value;
  }

  // ---- EthereumSignTypedHash (Model One's way) ----

  async #signTypedHash(fields: Record<string, unknown>): Promise<void> {
    const key = await this.#keychain(fields['address_n'] as number[]);
    const domain = fields['domain_separator_hash'] as Uint8Array;
    const message = fields['message_hash'] instanceof Uint8Array && fields['message_hash'].length > 0 ? (fields['message_hash'] as Uint8Array) : undefined;
    if (domain.length !== 32 || (message && message.length !== 32)) throw new FailureRaised(F.DataError, 'Invalid hash length');
    await this.#screen({ name: 'confirm_address', code: BR.SignTx, title: 'Signing address', lines: [key.address] });
    await this.#screen({ name: 'confirm_domain_hash', code: BR.Other, title: 'Confirm domain', lines: ['0x' + hex(domain)] });
    if (message) await this.#screen({ name: 'confirm_message_hash', code: BR.Other, title: 'Confirm message', lines: ['0x' + hex(message)] });
    else await this.#screen({ name: 'confirm_empty_typed_message', code: BR.Other, title: 'Confirm message', lines: ['No message field'] });
    const digest = keccak256(concat([new Uint8Array([0x19, 0x01]), domain, ...(message ? [message] : [])]));
    this.#send('EthereumTypedDataSignature', { signature: this.#signature(key, digest), address: key.address });
  }
}

function validateFieldType(t: FieldType): void {
  if (t.data_type === DT.ARRAY) {
    if (!t.entry_type) throw new FailureRaised(F.DataError, 'Missing entry_type in array');
    validateFieldType(t.entry_type);
  } else if (t.entry_type) throw new FailureRaised(F.DataError, 'Unexpected entry_type in nonarray');
  if (t.data_type === DT.STRUCT) {
    if (!t.struct_name) throw new FailureRaised(F.DataError, 'Missing struct_name in struct');
    if (t.size === undefined) throw new FailureRaised(F.DataError, 'Missing size in struct');
  } else if (t.struct_name) throw new FailureRaised(F.DataError, 'Unexpected struct_name in nonstruct');
  if ((t.data_type === DT.UINT || t.data_type === DT.INT) && (t.size === undefined || t.size < 1 || t.size > 32)) throw new FailureRaised(F.DataError, 'Invalid size in int/uint');
  if (t.data_type === DT.BYTES && t.size !== undefined && (t.size < 1 || t.size > 32)) throw new FailureRaised(F.DataError, 'Invalid size in bytes');
  if ((t.data_type === DT.STRING || t.data_type === DT.BOOL || t.data_type === DT.ADDRESS) && t.size !== undefined) throw new FailureRaised(F.DataError, 'Unexpected size in str/bool/addr');
}

function encodeField(t: FieldType, value: Uint8Array): Uint8Array {
  const out = new Uint8Array(32);
  switch (t.data_type) {
    case DT.BYTES:
      if (t.size === undefined) return getBytes(keccak256(value));
      out.set(value, 0);
      return out;
    case DT.STRING:
      return getBytes(keccak256(value));
    case DT.INT:
      if (value[0]! & 0x80) out.fill(0xff);
      out.set(value, 32 - value.length);
      return out;
    default:
      out.set(value, 32 - value.length);
      return out;
  }
}

function display(t: FieldType, v: Uint8Array): string {
  switch (t.data_type) {
    case DT.STRING:
      return new TextDecoder().decode(v);
    case DT.BOOL:
      return v[0] ? 'true' : 'false';
    case DT.ADDRESS:
      return '0x' + hex(v);
    case DT.UINT:
      return BigInt('0x' + (hex(v) || '0')).toString();
    case DT.INT: {
      const u = BigInt('0x' + (hex(v) || '0'));
      return (v[0]! & 0x80 ? u - (1n << BigInt(v.length * 8)) : u).toString();
    }
    default:
      return '0x' + hex(v);
  }
}
