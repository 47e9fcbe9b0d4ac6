/**
 * `--signer ledger[:PATH]` on the command line: parsing of PATH, the blind-signing prompt, and the whole
 * open/confirm/sign path against a software Ledger (test/unit/signers/ledger/support/ethAppEmulator.ts,
 * the APDU-level Ethereum app the Ledger signer's own tests record from) opened through openSigner's
 * injectable transport opener, so no USB device is needed.
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  bytesToHex,
  digestOf,
  domainSeparator,
  hashStruct,
  recoverDigestSigner,
  withdrawTypedData,
  authorizeAgentTypedData,
} from '../../../src/shared/eip712/index.js';
import { accountIdFromWallet } from '../../../src/shared/identity/index.js';
import { OperationError, ValidationError, describeFailure } from '../../../src/main/services/errors.js';
import type { LedgerTransport } from '../../../src/main/signers/ledger/transport.js';
import { openSigner, parseSignerSpec, type OpenSignerOptions } from '../../../src/cli/signerSpec.js';
import { confirmBlindSigningOnTerminal } from '../../../src/cli/ledgerSigning.js';
import { EthAppEmulator, walletAt, type EmulatorOptions } from '../signers/ledger/support/ethAppEmulator.js';
import { ledgerErrors } from '../signers/ledger/support/ledgerKit.js';

const PATH = "m/44'/60'/0'/0/0";
const WALLET = walletAt(PATH).address;
const withdraw = withdrawTypedData({ account_id: accountIdFromWallet(WALLET), amount: '25', nonce: '1760000000001', signature_chain_id: 998 }, 'Testnet');
const authorize = authorizeAgentTypedData({
  wallet_address: WALLET,
  agent_wallet_address: '0x1111111111111111111111111111111111111111',
  service_environment: 'Testnet',
  signature_chain_id: 998,
  expires_at: 1_767_225_600_000,
  nonce: 1_760_000_000_000,
});
const BLIND_PROMPT = {
  primaryType: 'Withdraw' as const,
  domainSeparatorHex: bytesToHex(domainSeparator(998)),
  messageHashHex: bytesToHex(hashStruct('Withdraw', withdraw.message)),
};

/** Everything written to it, as text. */
class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

/** A stand-in for process.stdin: a terminal or a pipe, with `lines` already typed. */
function input(isTTY: boolean, lines?: string): PassThrough & { isTTY: boolean } {
  const s = new PassThrough() as PassThrough & { isTTY: boolean };
  s.isTTY = isTTY;
  if (lines !== undefined) s.end(lines);
  return s;
}

async function failure(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (e: unknown) => e as Error,
  );
}

/** A Ledger on a fake USB port: every open is a fresh session of the same software device. */
function fakeLedger(opts: EmulatorOptions = {}): { sessions: EthAppEmulator[]; openTransport: () => Promise<LedgerTransport> } {
  const sessions: EthAppEmulator[] = [];
  return {
    sessions,
    openTransport: async () => {
      const t = new EthAppEmulator(opts);
      sessions.push(t);
      return t as unknown as LedgerTransport;
    },
  };
}

function ledgerOptions(openTransport: () => Promise<LedgerTransport>, o: Partial<OpenSignerOptions> & { stdin?: OpenSignerOptions['stdin'] } = {}): OpenSignerOptions & { stderr: Capture } {
  return { wallet: WALLET, json: true, stdin: input(false), stderr: new Capture(), ledger: { openTransport }, ...o } as OpenSignerOptions & { stderr: Capture };
}

/** GET ETH PUBLIC ADDRESS with the address shown on screen (P1 = 01) or silently (P1 = 00). */
const shownAddress = (t: EthAppEmulator): boolean => t.received.some((a) => a.startsWith('e0020100'));
const silentAddress = (t: EthAppEmulator): boolean => t.received.some((a) => a.startsWith('e0020000'));
/** SIGN ETH EIP 712 (INS 0x0C), clear or hashed. */
const signed = (t: EthAppEmulator): boolean => t.received.some((a) => a.startsWith('e00c'));

describe('--signer ledger[:PATH] parsing', () => {
  it.each([
    ['ledger', PATH],
    ['ledger:ledger-live', PATH],
    ['ledger:ledger-live:0', PATH],
    ['ledger:ledger-live:3', "m/44'/60'/3'/0/0"],
    ['ledger:legacy:2', "m/44'/60'/0'/2"],
    ['ledger:bip44:7', "m/44'/60'/0'/0/7"],
    ["ledger:m/44'/60'/1'/0/0", "m/44'/60'/1'/0/0"],
    ["ledger:44'/60'/0'/0/5", "m/44'/60'/0'/0/5"],
    ['ledger:m/44h/60h/2h/0/0', "m/44'/60'/2'/0/0"],
  ])('%s -> %s', (spec, path) => {
    expect(parseSignerSpec(spec)).toEqual({ kind: 'ledger', path });
  });

  it.each([
    'ledger:nonsense',
    'ledger:ledger-live:x',
    'ledger:ledger-live:-1',
    'ledger:bip44:2147483648',
    'ledger:bip44:1:2',
    "ledger:m/44'/0'/0'/0/0",
    "ledger:m/44'/60'/0'/0/0/0/0",
    "ledger:m/44'/60'/x/0",
  ])('refuses %s as bad usage (exit 2), before any device is touched', (spec) => {
    let err: unknown;
    try {
      parseSignerSpec(spec);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).code).toBe('INVALID_LEDGER_PATH');
    expect(describeFailure(err)).toMatchObject({ exitCode: 2, hint: expect.stringMatching(/ledger:SCHEME/) });
  });
});

describe('blind-signing prompt', () => {
  it('says BLIND, prints both hashes, and refuses without a terminal (no flag): exit 2, nothing asked', async () => {
    const stderr = new Capture();
    const stdin = input(false, 'yes\n');
    const err = await failure(confirmBlindSigningOnTerminal(BLIND_PROMPT, { stdin, stderr, allow: false }));
    expect(err).toBeInstanceOf(ValidationError);
    expect((err as ValidationError).code).toBe('BLIND_SIGNING_NEEDS_CONSENT');
    expect(describeFailure(err).exitCode).toBe(2);
    expect(describeFailure(err).hint).toMatch(/--allow-blind-signing/);
    expect(stderr.text).toMatch(/BLIND SIGNING/);
    expect(stderr.text).toContain(BLIND_PROMPT.domainSeparatorHex);
    expect(stderr.text).toContain(BLIND_PROMPT.messageHashHex);
    // A 'yes' piped in by a script is not read, let alone taken as consent.
    expect(stdin.read()?.toString()).toBe('yes\n');
  });

  it.each([
    ['yes', true],
    ['  YES  ', true],
    ['y', false],
    ['no', false],
    ['', false],
  ])("on a terminal, answer %j -> %s", async (answer, accepted) => {
    const stderr = new Capture();
    await expect(confirmBlindSigningOnTerminal(BLIND_PROMPT, { stdin: input(true, `${answer}\n`), stderr, allow: false })).resolves.toBe(accepted);
    expect(stderr.text).toMatch(/Type 'yes'/);
  });

  it('on a terminal that closes without an answer, declines', async () => {
    await expect(confirmBlindSigningOnTerminal(BLIND_PROMPT, { stdin: input(true, ''), stderr: new Capture(), allow: false })).resolves.toBe(false);
  });

  it('--allow-blind-signing accepts without reading the terminal, and still prints the hashes', async () => {
    const stderr = new Capture();
    const stdin = input(false);
    await expect(confirmBlindSigningOnTerminal(BLIND_PROMPT, { stdin, stderr, allow: true })).resolves.toBe(true);
    expect(stderr.text).toContain(BLIND_PROMPT.messageHashHex);
    expect(stderr.text).toMatch(/--allow-blind-signing was given/);
  });
});

describe('openSigner with a Ledger (software device)', () => {
  it('probes, confirms the address on the device before the first signature only, clear-signs, releases the device', async () => {
    const dev = fakeLedger();
    const o = ledgerOptions(dev.openTransport);
    const signer = await openSigner(parseSignerSpec('ledger'), o);
    expect(signer).toMatchObject({ kind: 'ledger', address: WALLET });
    expect(dev.sessions).toHaveLength(1);
    expect(dev.sessions[0]!.received).toEqual(['b001000000']);
    expect(o.stderr.text).toMatch(/Ethereum app 1\.13\.1 is open/);

    const first = await signer.signTypedData(withdraw);
    expect(recoverDigestSigner(digestOf(withdraw), first)).toBe(WALLET);
    expect(shownAddress(dev.sessions[1]!)).toBe(true);
    expect(o.stderr.text).toContain(`device shows ${WALLET} (${PATH})`);
    expect(o.stderr.text).not.toMatch(/BLIND/);

    const second = await signer.signTypedData(authorize);
    expect(recoverDigestSigner(digestOf(authorize), second)).toBe(WALLET);
    // Confirmed once per run; the second session only re-reads the address silently.
    expect(shownAddress(dev.sessions[2]!)).toBe(false);
    expect(silentAddress(dev.sessions[2]!)).toBe(true);
  });

  it('a device deriving another address than --wallet is refused before signing (exit 1)', async () => {
    const dev = fakeLedger();
    const signer = await openSigner(parseSignerSpec('ledger:ledger-live:1'), ledgerOptions(dev.openTransport));
    const err = await failure(signer.signTypedData(withdraw));
    expect(err).toBeInstanceOf(OperationError);
    expect((err as OperationError).code).toBe('LEDGER_ADDRESS_MISMATCH');
    expect(describeFailure(err)).toMatchObject({ exitCode: 1, hint: expect.stringMatching(/ledger:SCHEME:INDEX/) });
    expect(dev.sessions.some(signed)).toBe(false);
  });

  describe('an Ethereum app without clear signing', () => {
    const blindDevice = (): ReturnType<typeof fakeLedger> => fakeLedger({ clearSigning: false });

    it('--json without a terminal: refused (exit 2), the hashed APDU is never sent', async () => {
      const dev = blindDevice();
      const o = ledgerOptions(dev.openTransport, { stdin: input(false, 'yes\n') });
      const signer = await openSigner(parseSignerSpec('ledger'), o);
      const err = await failure(signer.signTypedData(withdraw));
      expect((err as ValidationError).code).toBe('BLIND_SIGNING_NEEDS_CONSENT');
      expect(describeFailure(err).exitCode).toBe(2);
      expect(dev.sessions.some((t) => t.received.some((a) => a.startsWith('e00c0000')))).toBe(false);
      expect(o.stderr.text).toContain(BLIND_PROMPT.domainSeparatorHex);
      expect(o.stderr.text).toContain(BLIND_PROMPT.messageHashHex);
    });

    it("on a terminal, 'yes' signs blind and the signature is verified", async () => {
      const dev = blindDevice();
      const o = ledgerOptions(dev.openTransport, { stdin: input(true, 'yes\n') });
      const sig = await (await openSigner(parseSignerSpec('ledger'), o)).signTypedData(withdraw);
      expect(recoverDigestSigner(digestOf(withdraw), sig)).toBe(WALLET);
      expect(o.stderr.text).toMatch(/BLIND SIGNING/);
    });

    it("on a terminal, anything but 'yes' cancels (exit 1, nothing signed)", async () => {
      const dev = blindDevice();
      const o = ledgerOptions(dev.openTransport, { stdin: input(true, 'ok\n') });
      const err = await failure((await openSigner(parseSignerSpec('ledger'), o)).signTypedData(withdraw));
      expect((err as OperationError).code).toBe('LEDGER_BLIND_SIGNING_DECLINED');
      expect(describeFailure(err).exitCode).toBe(1);
      expect(dev.sessions.some((t) => t.received.some((a) => a.startsWith('e00c0000')))).toBe(false);
    });

    it('--allow-blind-signing signs without a terminal', async () => {
      const dev = blindDevice();
      const o = ledgerOptions(dev.openTransport, { allowBlindSigning: true });
      const sig = await (await openSigner(parseSignerSpec('ledger'), o)).signTypedData(withdraw);
      expect(recoverDigestSigner(digestOf(withdraw), sig)).toBe(WALLET);
    });

    it('blind signing switched off in the app: a hint that says where to switch it on', async () => {
      const dev = fakeLedger({ clearSigning: false, blindSigningOff: true });
      const o = ledgerOptions(dev.openTransport, { allowBlindSigning: true });
      const err = await failure((await openSigner(parseSignerSpec('ledger'), o)).signTypedData(withdraw));
      expect((err as OperationError).code).toBe('LEDGER_BLIND_SIGNING_DISABLED');
      expect(describeFailure(err).hint).toMatch(/Blind signing/);
    });
  });

  it.each([
    ['locked', { locked: true }, 'LEDGER_DEVICE_LOCKED', /Unlock/],
    ['on the dashboard', { appName: 'BOLOS' }, 'LEDGER_ETH_APP_NOT_OPEN', /Open the Ethereum app/],
    ['in another app', { appName: 'Bitcoin' }, 'LEDGER_ETH_APP_NOT_OPEN', /Open the Ethereum app/],
  ] as const)('a device %s fails at open with %s (exit 1)', async (_label, opts, code, hint) => {
    const dev = fakeLedger(opts);
    const err = await failure(openSigner(parseSignerSpec('ledger'), ledgerOptions(dev.openTransport)));
    expect(err).toBeInstanceOf(OperationError);
    expect((err as OperationError).code).toBe(code);
    expect(describeFailure(err)).toMatchObject({ exitCode: 1, hint: expect.stringMatching(hint) });
  });

  it('a rejection on the device is exit 1 and says nothing was sent', async () => {
    const dev = fakeLedger({ rejectOn: 'sign' });
    const err = await failure((await openSigner(parseSignerSpec('ledger'), ledgerOptions(dev.openTransport))).signTypedData(withdraw));
    expect((err as OperationError).code).toBe('LEDGER_REJECTED_ON_DEVICE');
    expect(describeFailure(err)).toMatchObject({ exitCode: 1, hint: expect.stringMatching(/nothing was signed or sent/) });
  });

  it('no device plugged in: LEDGER_NO_DEVICE with the udev hint', async () => {
    const noDevice = async (): Promise<LedgerTransport> => {
      throw new ledgerErrors.TransportError('NoDevice', 'NoDevice');
    };
    const err = await failure(openSigner(parseSignerSpec('ledger'), ledgerOptions(noDevice)));
    expect((err as OperationError).code).toBe('LEDGER_NO_DEVICE');
    expect(describeFailure(err)).toMatchObject({ exitCode: 1, hint: expect.stringMatching(/udev/) });
  });

  it('options of another signer kind are refused, not ignored (exit 2)', async () => {
    const dev = fakeLedger();
    const qr = await failure(openSigner(parseSignerSpec('ledger'), ledgerOptions(dev.openTransport, { qr: 'x.html', qrFingerprint: '01020304' })));
    expect((qr as ValidationError).code).toBe('INVALID_SIGNER_OPTIONS');
    const blind = await failure(openSigner(parseSignerSpec('env:X'), { wallet: WALLET, json: true, allowBlindSigning: true, env: {} }));
    expect((blind as ValidationError).code).toBe('INVALID_SIGNER_OPTIONS');
    expect(dev.sessions).toHaveLength(0);
  });
});

describe('--signer paper', () => {
  it('parses with no argument; an argument is refused (exit 2)', () => {
    expect(parseSignerSpec('paper')).toEqual({ kind: 'paper' });
    const err = (() => {
      try {
        parseSignerSpec('paper:0x1111111111111111111111111111111111111111');
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(ValidationError);
    expect(describeFailure(err)).toMatchObject({ code: 'INVALID_SIGNER', exitCode: 2 });
  });

  it("is opened from the command's services, and refused by a command that has none", async () => {
    const asked: string[] = [];
    const signer = { kind: 'paper' as const, address: WALLET, signTypedData: async () => '0x' };
    const opened = await openSigner({ kind: 'paper' }, { wallet: WALLET, json: true, paper: { paperSigner: (w: string) => (asked.push(w), signer) } });
    expect(opened).toBe(signer);
    expect(asked).toEqual([WALLET]);
    await expect(openSigner({ kind: 'paper' }, { wallet: WALLET, json: true })).rejects.toMatchObject({ code: 'INVALID_SIGNER' });
  });
});
