/**
 * The Ledger signer against exact APDU recordings, no hardware.
 *
 * Each recording is made by running the real code path (hw-app-eth with the offline load config) against
 * the software Ethereum app of support/ethAppEmulator.ts through createTransportRecorder; the test then
 * replays it with openTransportReplayer and checks the whole exchange was consumed. See
 * support/recording.ts for why that proves the APDUs: the emulator rebuilds and hashes the typed data
 * from the APDUs on its own and signs with the key of the path it received, so the recorded answers are
 * real signatures, and they recover the wallet over src/shared's digest only if path, struct definitions,
 * field values (clear path) or the two hashes (hashed path) were sent right. Where the protocol fixes the
 * bytes (app check, address, hashed signing, the final clear-signing APDU), the expected APDUs are also
 * written out by hand below and compared.
 */
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  STRUCTS,
  authorizeAgentTypedData,
  bytesToHex,
  digestOf,
  domainSeparator,
  hashStruct,
  recoverDigestSigner,
  revokeAgentTypedData,
  typedData,
  withdrawTypedData,
  type TypedData,
} from '../../../../src/shared/eip712/index.js';
import { accountIdFromWallet } from '../../../../src/shared/identity/index.js';
import { LedgerSigner, ledgerSignatureToHex, type BlindSigningPrompt } from '../../../../src/main/signers/ledger/ledgerSigner.js';
import { LedgerError } from '../../../../src/main/signers/ledger/ledgerErrors.js';
import { OFFLINE_LOAD_CONFIG } from '../../../../src/main/signers/ledger/ethApp.js';
import { assertEthereumApp } from '../../../../src/main/signers/ledger/appCheck.js';
import { confirmAddressOnDevice, listAccounts } from '../../../../src/main/signers/ledger/accounts.js';
import { walletAt } from './support/ethAppEmulator.js';
import { Eth, Transport, ledgerErrors } from './support/ledgerKit.js';
import { exchangesText, record, replayer } from './support/recording.js';

const PATH = "m/44'/60'/0'/0/0";
/** 05 = five levels, then 44' 60' 0' 0 0 as big-endian uint32 with the hardened bit. */
const PATH_BYTES = '058000002c8000003c800000000000000000000000';
const WALLET = walletAt(PATH).address;
const AGENT = '0x1111111111111111111111111111111111111111';
const OTHER_KEY = '0x' + '42'.repeat(32);

const authorize = authorizeAgentTypedData({
  wallet_address: WALLET,
  agent_wallet_address: AGENT,
  service_environment: 'Mainnet',
  signature_chain_id: 42161,
  expires_at: 1_767_225_600_000,
  nonce: 1_760_000_000_000,
});
const withdraw = withdrawTypedData({ account_id: accountIdFromWallet(WALLET), amount: '25.5', nonce: '1760000000001', signature_chain_id: 999 }, 'Mainnet');
const revoke = revokeAgentTypedData({
  wallet_address: WALLET,
  agent_wallet_address: AGENT,
  service_environment: 'Mainnet',
  signature_chain_id: 999,
  nonce: 1_760_000_000_002,
});

const neverBlind = vi.fn(async () => false);

function signerOn(transport: Transport, confirmBlindSigning: (p: BlindSigningPrompt) => Promise<boolean> = neverBlind): LedgerSigner {
  return new LedgerSigner({ transport, path: PATH, address: WALLET, confirmBlindSigning });
}

/** Device answer of a sign APDU: v, r, s, 9000. */
function answerSignature(answerHex: string): string {
  expect(answerHex.endsWith('9000')).toBe(true);
  const b = Buffer.from(answerHex.slice(0, -4), 'hex');
  expect(b.length).toBe(65);
  return ledgerSignatureToHex({ v: b[0]!, r: b.subarray(1, 33).toString('hex'), s: b.subarray(33, 65).toString('hex') });
}

const APP_CHECK_APDU = 'b001000000';
/** format 01, "Ethereum" (8), "1.13.1" (6), flags (1 byte), 9000. */
const ETH_APP_ANSWER = '0108' + Buffer.from('Ethereum').toString('hex') + '06' + Buffer.from('1.13.1').toString('hex') + '01029000';

async function expectLedgerError(p: Promise<unknown>, code: LedgerError['code'], statusCode?: number): Promise<LedgerError> {
  const err = await p.then(
    () => {
      throw new Error('expected a LedgerError');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LedgerError);
  expect((err as LedgerError).code).toBe(code);
  if (statusCode !== undefined) expect((err as LedgerError).statusCode).toBe(statusCode);
  return err as LedgerError;
}

afterEach(() => {
  vi.restoreAllMocks();
  neverBlind.mockClear();
});

describe('app check (B0 01)', () => {
  it('replays the exact GET APP AND VERSION exchange and accepts the Ethereum app', async () => {
    const rec = await record({}, (t) => assertEthereumApp(t));
    expect(rec.exchanges).toEqual([[APP_CHECK_APDU, ETH_APP_ANSWER]]);
    const { transport, store } = await replayer(exchangesText([[APP_CHECK_APDU, ETH_APP_ANSWER]]));
    await expect(assertEthereumApp(transport)).resolves.toEqual({ name: 'Ethereum', version: '1.13.1', nameIsExact: true });
    store.ensureQueueEmpty();
  });

  it.each([
    ['the dashboard', { appName: 'BOLOS' }, /dashboard/],
    ['another app', { appName: 'Bitcoin' }, /Bitcoin app is open/],
  ])('refuses %s with ETH_APP_NOT_OPEN', async (_label, opts, message) => {
    const rec = await record(opts, (t) => assertEthereumApp(t));
    const { transport, store } = await replayer(rec.text);
    const err = await expectLedgerError(assertEthereumApp(transport), 'ETH_APP_NOT_OPEN');
    expect(err.message).toMatch(message);
    store.ensureQueueEmpty();
  });

  it.each([
    ['0x6E00', 0x6e00, 'ETH_APP_NOT_OPEN'],
    ['0x6D00', 0x6d00, 'ETH_APP_NOT_OPEN'],
    ['0x6511', 0x6511, 'ETH_APP_NOT_OPEN'],
    ['0x5515', 0x5515, 'DEVICE_LOCKED'],
  ] as const)('maps status %s on the app check to %s', async (_label, status, code) => {
    const { transport, store } = await replayer(exchangesText([[APP_CHECK_APDU, status.toString(16)]]));
    await expectLedgerError(assertEthereumApp(transport), code, status);
    store.ensureQueueEmpty();
  });
});

describe('address (E0 02 with display)', () => {
  const GET_ADDRESS_DISPLAY = 'e0020100' + '15' + PATH_BYTES;

  it('sends the exact GET ETH PUBLIC ADDRESS APDU for the path and returns the address the device confirmed', async () => {
    const rec = await record({}, (t) => confirmAddressOnDevice(t, PATH));
    expect(rec.outcome).toEqual({ ok: true, value: { path: PATH, address: WALLET } });
    expect(rec.exchanges.map(([a]) => a)).toEqual([APP_CHECK_APDU, GET_ADDRESS_DISPLAY]);
    const { transport, store } = await replayer(rec.text);
    await expect(confirmAddressOnDevice(transport, PATH, { expectedAddress: WALLET.toLowerCase() })).resolves.toEqual({ path: PATH, address: WALLET });
    store.ensureQueueEmpty();
  });

  it('LedgerSigner.connect shows the address, then signs for it', async () => {
    const rec = await record({}, async (t) => {
      const signer = await LedgerSigner.connect({ transport: t, path: PATH, confirmBlindSigning: neverBlind });
      return [signer.address, await signer.signTypedData(revoke)] as const;
    });
    expect(rec.outcome.ok).toBe(true);
    const { transport, store } = await replayer(rec.text);
    const signer = await LedgerSigner.connect({ transport, path: PATH, confirmBlindSigning: neverBlind, expectedAddress: WALLET });
    expect(signer.address).toBe(WALLET);
    const sig = await signer.signTypedData(revoke);
    expect(recoverDigestSigner(digestOf(revoke), sig)).toBe(WALLET);
    store.ensureQueueEmpty();
  });

  it('refuses a device that derives another address than the saved wallet', async () => {
    const rec = await record({}, (t) => confirmAddressOnDevice(t, PATH));
    const { transport } = await replayer(rec.text);
    await expectLedgerError(confirmAddressOnDevice(transport, PATH, { expectedAddress: AGENT }), 'ADDRESS_MISMATCH');
  });

  it('maps a rejection on the device (0x6985) to REJECTED_ON_DEVICE', async () => {
    const rec = await record({ rejectOn: 'address' }, (t) => confirmAddressOnDevice(t, PATH));
    expect(rec.exchanges.at(-1)).toEqual([GET_ADDRESS_DISPLAY, '6985']);
    const { transport, store } = await replayer(rec.text);
    await expectLedgerError(confirmAddressOnDevice(transport, PATH), 'REJECTED_ON_DEVICE', 0x6985);
    store.ensureQueueEmpty();
  });

  it('lists accounts of a scheme silently (P1 = 00) at the right paths', async () => {
    const rec = await record({}, (t) => listAccounts(t, 'ledger-live', { count: 2 }));
    expect(rec.outcome).toEqual({
      ok: true,
      value: [
        { path: "m/44'/60'/0'/0/0", index: 0, address: walletAt("m/44'/60'/0'/0/0").address },
        { path: "m/44'/60'/1'/0/0", index: 1, address: walletAt("m/44'/60'/1'/0/0").address },
      ],
    });
    expect(rec.exchanges.map(([a]) => a).filter((a) => a.startsWith('e002'))).toEqual([
      'e0020000' + '15' + PATH_BYTES,
      'e0020000' + '15' + '058000002c8000003c800000010000000000000000',
    ]);
    const { transport, store } = await replayer(rec.text);
    await listAccounts(transport, 'ledger-live', { count: 2 });
    store.ensureQueueEmpty();
  });
});

describe('clear signing (signEIP712Message)', () => {
  it.each([
    ['AuthorizeAgent', authorize],
    ['Withdraw', withdraw],
  ] as const)('%s: the recorded APDUs carry the exact struct, values and path', async (primaryType, data: TypedData) => {
    const rec = await record({}, (t) => signerOn(t).signTypedData(data));
    expect(rec.outcome.ok).toBe(true);

    // What the device rebuilt from the APDUs is exactly the typed data: both structs in signing order,
    // every value (uint256 as integers), the domain root first.
    const seen = rec.emulator.lastTypedData!;
    expect(seen.order).toEqual(['EIP712Domain', primaryType]);
    expect(seen.types[primaryType]).toEqual(STRUCTS[primaryType].map((f) => ({ ...f })));
    expect(seen.types.EIP712Domain).toEqual(data.types.EIP712Domain);
    expect(seen.values.EIP712Domain).toEqual({ name: 'Service Perps', version: '2', chainId: BigInt(data.domain.chainId) });
    const expectedValues = Object.fromEntries(
      STRUCTS[primaryType].map((f) => {
        const v = (data.message as Record<string, string>)[f.name]!;
        return [f.name, f.type === 'uint256' ? BigInt(v) : v];
      }),
    );
    expect(seen.values[primaryType]).toEqual(expectedValues);

    // The last APDU is SIGN ETH EIP 712 in full mode (P2 = 01) with only the path; its answer is a real
    // signature over src/shared's digest by the wallet's key.
    const [lastApdu, lastAnswer] = rec.exchanges.at(-1)!;
    expect(lastApdu).toBe('e00c0001' + '15' + PATH_BYTES);
    expect(recoverDigestSigner(digestOf(data), answerSignature(lastAnswer))).toBe(WALLET);
    // No filtering APDUs (INS 0x1E): Ledger's remote look-ups are off, so none were found or sent.
    expect(rec.exchanges.some(([a]) => a.startsWith('e01e'))).toBe(false);

    const { transport, store } = await replayer(rec.text);
    const sig = await signerOn(transport).signTypedData(data);
    expect(recoverDigestSigner(digestOf(data), sig)).toBe(WALLET);
    expect(sig).toBe(answerSignature(lastAnswer));
    store.ensureQueueEmpty();
    expect(neverBlind).not.toHaveBeenCalled();
  });

  it('the replay fails when one value differs from the recording (the APDUs pin the message)', async () => {
    const rec = await record({}, (t) => signerOn(t).signTypedData(withdraw));
    const { transport } = await replayer(rec.text);
    const other = withdrawTypedData({ account_id: accountIdFromWallet(WALLET), amount: '25.6', nonce: '1760000000001', signature_chain_id: 999 }, 'Mainnet');
    await expect(signerOn(transport).signTypedData(other)).rejects.toThrow();
  });

  it('makes no network request (Ledger CAL and crypto-assets look-ups are off)', async () => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect');
    const rec = await record({}, (t) => signerOn(t).signTypedData(authorize));
    expect(rec.outcome.ok).toBe(true);
    expect(connect).not.toHaveBeenCalled();
    expect(OFFLINE_LOAD_CONFIG.calServiceURL).toBeNull();
    expect(OFFLINE_LOAD_CONFIG.cryptoassetsBaseURL).toBeNull();
  });

  it('control: hw-app-eth with its default load config does try to reach Ledger (so the check above can fail)', async () => {
    const connect = vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(() => {
      throw new Error('network is off in tests');
    });
    await record({}, (t) => new Eth(t).signEIP712Message("44'/60'/0'/0/0", authorize as never));
    expect(connect).toHaveBeenCalled();
  });

  it('maps a rejection on the device (0x6985) to REJECTED_ON_DEVICE', async () => {
    const rec = await record({ rejectOn: 'sign' }, (t) => signerOn(t).signTypedData(authorize));
    expect(rec.exchanges.at(-1)).toEqual(['e00c0001' + '15' + PATH_BYTES, '6985']);
    const { transport, store } = await replayer(rec.text);
    await expectLedgerError(signerOn(transport).signTypedData(authorize), 'REJECTED_ON_DEVICE', 0x6985);
    store.ensureQueueEmpty();
  });

  it('refuses a signature from another key (SIGNATURE_MISMATCH)', async () => {
    const rec = await record({ signWith: OTHER_KEY }, (t) => signerOn(t).signTypedData(authorize));
    expect(rec.outcome.ok).toBe(false);
    const { transport, store } = await replayer(rec.text);
    const err = await expectLedgerError(signerOn(transport).signTypedData(authorize), 'SIGNATURE_MISMATCH');
    expect(err.message).toContain(WALLET);
    store.ensureQueueEmpty();
  });

  it.each([
    ['locked device', { locked: true }, 'DEVICE_LOCKED', 0x5515],
    ['another app open', { appName: 'Bitcoin' }, 'ETH_APP_NOT_OPEN', undefined],
    ['dashboard open', { appName: 'BOLOS' }, 'ETH_APP_NOT_OPEN', undefined],
  ] as const)('%s: refused at the app check, before any Ethereum APDU', async (_label, opts, code, status) => {
    const rec = await record(opts, (t) => signerOn(t).signTypedData(authorize));
    expect(rec.exchanges.map(([a]) => a)).toEqual([APP_CHECK_APDU]);
    const { transport, store } = await replayer(rec.text);
    await expectLedgerError(signerOn(transport).signTypedData(authorize), code, status);
    store.ensureQueueEmpty();
  });

  it('refuses order-flow typed data before touching the device', async () => {
    const order = typedData('Cancel', 999, { account: WALLET, orderId: '1', orderType: 'LIMIT', nonce: '1' });
    const { transport, store } = await replayer('');
    await expectLedgerError(signerOn(transport).signTypedData(order), 'NOT_A_CUSTODY_ACTION');
    store.ensureQueueEmpty();
  });

  it('queues concurrent requests instead of racing on the device', async () => {
    const rec = await record({}, async (t) => {
      const s = signerOn(t);
      return Promise.all([s.signTypedData(authorize), s.signTypedData(withdraw)]);
    });
    expect(rec.outcome.ok).toBe(true);
    const { transport, store } = await replayer(rec.text);
    const s = signerOn(transport);
    const [a, w] = await Promise.all([s.signTypedData(authorize), s.signTypedData(withdraw)]);
    expect(recoverDigestSigner(digestOf(authorize), a)).toBe(WALLET);
    expect(recoverDigestSigner(digestOf(withdraw), w)).toBe(WALLET);
    store.ensureQueueEmpty();
  });
});

describe('hashed signing fallback (signEIP712HashedMessage)', () => {
  for (const [status, label] of [
    [0x6d00, '0x6D00'],
    [0x6b00, '0x6B00'],
  ] as const) {
    it(`after ${label} on the clear path: asks the user, then sends exactly the domain separator and struct hash`, async () => {
      const prompts: BlindSigningPrompt[] = [];
      const confirm = async (p: BlindSigningPrompt) => {
        prompts.push(p);
        return true;
      };
      const rec = await record({ clearSigning: false, noClearSigningStatus: status }, (t) => signerOn(t, confirm).signTypedData(withdraw));
      expect(rec.outcome.ok).toBe(true);

      const ds = bytesToHex(domainSeparator(999)).slice(2);
      const hs = bytesToHex(hashStruct('Withdraw', withdraw.message)).slice(2);
      // Hand-built from the protocol: E0 0C 00 00, Lc 0x55 (1 + 5*4 + 32 + 32 = 85), path, then the hashes.
      const HASHED_APDU = 'e00c0000' + '55' + PATH_BYTES + ds + hs;
      const [clearAttempt, hashed] = rec.exchanges.slice(-2);
      expect(clearAttempt![0].startsWith('e01a0000')).toBe(true); // the first struct definition...
      expect(clearAttempt![1]).toBe(status.toString(16)); // ...refused by the app
      expect(hashed![0]).toBe(HASHED_APDU);
      expect(recoverDigestSigner(digestOf(withdraw), answerSignature(hashed![1]))).toBe(WALLET);
      expect(prompts).toEqual([{ primaryType: 'Withdraw', domainSeparatorHex: '0x' + ds, messageHashHex: '0x' + hs }]);

      const { transport, store } = await replayer(rec.text);
      const replayPrompts: BlindSigningPrompt[] = [];
      const sig = await signerOn(transport, async (p) => {
        replayPrompts.push(p);
        return true;
      }).signTypedData(withdraw);
      expect(recoverDigestSigner(digestOf(withdraw), sig)).toBe(WALLET);
      expect(replayPrompts).toEqual(prompts);
      store.ensureQueueEmpty();
    });
  }

  it('aborts with BLIND_SIGNING_DECLINED when the user declines, and never sends the hashed APDU', async () => {
    const rec = await record({ clearSigning: false }, (t) => signerOn(t, neverBlind).signTypedData(authorize));
    expect(rec.exchanges.some(([a]) => a.startsWith('e00c0000'))).toBe(false);
    expect(rec.emulator.received.some((a) => a.startsWith('e00c'))).toBe(false);
    // The recording ends at the refused struct definition: any further APDU would fail the replay.
    const { transport, store } = await replayer(rec.text);
    await expectLedgerError(signerOn(transport, neverBlind).signTypedData(authorize), 'BLIND_SIGNING_DECLINED');
    expect(neverBlind).toHaveBeenCalledTimes(2);
    store.ensureQueueEmpty();
  });

  it('maps 0x6A80 on the hashed APDU to BLIND_SIGNING_DISABLED', async () => {
    const yes = async () => true;
    const rec = await record({ clearSigning: false, blindSigningOff: true }, (t) => signerOn(t, yes).signTypedData(authorize));
    expect(rec.exchanges.at(-1)![1]).toBe('6a80');
    const { transport, store } = await replayer(rec.text);
    const err = await expectLedgerError(signerOn(transport, yes).signTypedData(authorize), 'BLIND_SIGNING_DISABLED', 0x6a80);
    expect(err.message).toMatch(/Blind signing/);
    store.ensureQueueEmpty();
  });

  it('refuses a hashed signature from another key', async () => {
    const yes = async () => true;
    const rec = await record({ clearSigning: false, signWith: OTHER_KEY }, (t) => signerOn(t, yes).signTypedData(authorize));
    const { transport } = await replayer(rec.text);
    await expectLedgerError(signerOn(transport, yes).signTypedData(authorize), 'SIGNATURE_MISMATCH');
  });

  it('does not fall back on other errors (a rejection is final)', async () => {
    const yes = vi.fn(async () => true);
    const { transport } = await replayer(exchangesText([[APP_CHECK_APDU, ETH_APP_ANSWER], [APP_CHECK_APDU, ETH_APP_ANSWER], ['e01a0000' + '0e' + Buffer.from('AuthorizeAgent').toString('hex'), '6985']]));
    await expectLedgerError(signerOn(transport, yes).signTypedData(authorize), 'REJECTED_ON_DEVICE');
    expect(yes).not.toHaveBeenCalled();
  });
});

describe('transport failures', () => {
  class StuckTransport extends Transport {
    closed = false;
    override exchange(): Promise<Buffer> {
      return new Promise(() => {});
    }
    override setScrambleKey(): void {}
    override async close(): Promise<void> {
      this.closed = true;
    }
  }

  class UnpluggedTransport extends Transport {
    override exchange(): Promise<Buffer> {
      return Promise.reject(new ledgerErrors.DisconnectedDevice());
    }
    override setScrambleKey(): void {}
    override async close(): Promise<void> {}
  }

  it('times out, closes the transport to abort the pending exchange, and says so', async () => {
    const t = new StuckTransport();
    const signer = new LedgerSigner({ transport: t, path: PATH, address: WALLET, confirmBlindSigning: neverBlind, timeouts: { signMs: 50 } });
    const err = await expectLedgerError(signer.signTypedData(authorize), 'TIMEOUT');
    expect(err.message).toMatch(/Reconnect/);
    expect(t.closed).toBe(true);
  });

  it('maps a disconnection to DISCONNECTED', async () => {
    await expectLedgerError(signerOn(new UnpluggedTransport()).signTypedData(authorize), 'DISCONNECTED');
  });
});

describe('ledgerSignatureToHex', () => {
  it('accepts v 27/28 and 0/1 and pads r and s', () => {
    expect(ledgerSignatureToHex({ v: 27, r: 'ab', s: 'cd' })).toBe('0x' + 'ab'.padStart(64, '0') + 'cd'.padStart(64, '0') + '1b');
    expect(ledgerSignatureToHex({ v: 1, r: 'ab', s: 'cd' }).slice(-2)).toBe('1c');
  });

  it('refuses other v values and malformed r or s', () => {
    expect(() => ledgerSignatureToHex({ v: 37, r: 'ab', s: 'cd' })).toThrow(LedgerError);
    expect(() => ledgerSignatureToHex({ v: 27, r: 'zz', s: 'cd' })).toThrow(LedgerError);
  });
});

describe('lazy loading', () => {
  it('signing, address and app-check code never loads node-hid (only listLedgerDevices/openLedger do)', async () => {
    const { createRequire } = await import('node:module');
    const cache = createRequire(import.meta.url).cache;
    expect(Object.keys(cache).some((k) => /[\\/]node-hid[\\/]|hw-transport-node-hid/.test(k))).toBe(false);
  });
});
