/**
 * The custody signers that need the person in the loop, through the IPC handlers and the prompt events:
 *  - Ledger: listing devices and accounts, confirming the address, and an Ethereum app without clear
 *    signing, so authorizing a key falls back to blind signing: main sends blindSigningRequest with the
 *    two hashes, the renderer answers through prompt:respondBlindSigning (decline, then accept);
 *  - offline signer: main sends offlineSignatureRequest with the exact document, the request is exported
 *    through the save dialog, the signature made elsewhere is imported from a file and returned.
 * The Ledger is the project's APDU-level Ethereum-app emulator (no USB).
 *
 * The harness is shared, but each test builds what it needs: ensure helpers look at the connected signer
 * (wallet:current) and the air-gap settings through IPC and connect or reset only what is missing, each
 * test reads the prompts raised after its start, and the test that sets a signer fingerprint clears it
 * in `finally`. So every test passes alone or in any order.
 */
import { ETHSignature, EthSignRequest } from '@keystonehq/bc-ur-registry-eth';
import { URDecoder } from '@ngraveio/bc-ur';
import { Wallet } from 'ethers';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAirgapRequest } from '../../../src/main/signers/airgap/airgapRequest.js';
import { uuidBytes, uuidString } from '../../../src/main/signers/airgap/ethSignRequest.js';
import { renderQrFrames } from '../../../src/main/signers/airgap/qrFrames.js';
import { urParts } from '../../../src/main/signers/airgap/urParts.js';
import { openNodeSettings } from '../../../src/main/settings/settingsStore.js';
import type { TypedData } from '../../../src/shared/eip712/index.js';
import type { IpcEventPayload } from '../../../src/shared/ipc.js';
import { EthAppEmulator, walletAt } from '../../unit/signers/ledger/support/ethAppEmulator.js';
import { AppHarness } from './appHarness.js';

const DEVICE = '/dev/hidraw-emulated';
const PATH = "m/44'/60'/0'/0/0";

describe('Ledger blind-signing and offline prompts through IPC', () => {
  let h: AppHarness;
  const emulator = new EthAppEmulator({ clearSigning: false });

  beforeAll(async () => {
    h = await AppHarness.start('prompts', {
      core: { ledger: { listDevices: async () => [{ path: DEVICE }], open: async (p) => (p === DEVICE ? emulator : Promise.reject(new Error('no such device'))) } },
    });
  }, 60_000);

  afterAll(async () => {
    await h?.stop();
    h?.cleanup();
  });

  const offlineRequests = () => h.eventsOf<IpcEventPayload<'offlineSignatureRequest'>>('offlineSignatureRequest');
  /** The Ledger account at PATH as the main wallet (connected when another signer or none is). */
  const ensureLedger = async (): Promise<void> => {
    const current = await h.call('wallet:current', {});
    if (current.signer?.kind === 'ledger' && current.address === walletAt(PATH).address) return;
    await h.call('ledger:connect', { device_id: DEVICE, path: PATH });
  };
  /** An offline signer as the main wallet (a new one when another signer or none is connected). */
  const ensureOffline = async (): Promise<void> => {
    if ((await h.call('wallet:current', {})).signer?.kind === 'offline') return;
    await h.call('wallet:connectOffline', { address: Wallet.createRandom().address });
  };
  /** No signer fingerprint set (the air-gap settings at their defaults). */
  const ensureNoFingerprint = async (): Promise<void> => {
    if ((await h.call('settings:getAirgap', {})).fingerprint !== null) await h.call('settings:setAirgap', { fingerprint: null });
  };

  it('connects a Ledger account after listing devices and accounts', async () => {
    const { devices } = await h.call('ledger:listDevices', {});
    expect(devices).toEqual([{ device_id: DEVICE, label: 'Ledger' }]);
    const { accounts } = await h.call('ledger:listAccounts', { device_id: DEVICE, scheme: 'bip44', count: 2 });
    expect(accounts.map((a) => a.address)).toEqual([walletAt("m/44'/60'/0'/0/0").address, walletAt("m/44'/60'/0'/0/1").address]);
    expect((await h.fail('ledger:connect', { device_id: '/dev/not-listed', path: PATH })).reason).toBe('NO_DEVICE');
    const view = await h.call('ledger:connect', { device_id: DEVICE, path: PATH });
    expect(view.address).toBe(walletAt(PATH).address);
    expect(view.signer).toMatchObject({ kind: 'ledger', path: PATH });
    // The same device and path sign source-chain transactions (bridges, swaps) for the same wallet.
    expect(h.core.wallet.requireTransactionSigner()).toMatchObject({ kind: 'ledger', address: walletAt(PATH).address, path: PATH });
  });

  it('asks the renderer before blind signing: a decline signs nothing, an accept authorizes the key', async () => {
    await ensureLedger();
    const { agent } = await h.call('keys:create', {});
    const seen = h.eventsOf('blindSigningRequest').length;
    const requests = () => h.eventsOf<IpcEventPayload<'blindSigningRequest'>>('blindSigningRequest').slice(seen);

    const review1 = await h.call('keys:review', { action: 'authorize', agent });
    const declined = h.invoke('keys:authorize', { review_id: review1.review_id });
    const first = await h.waitFor('a blind-signing request', () => requests()[0]);
    expect(first.payload).toMatchObject({ primary_type: 'AuthorizeAgent' });
    expect(first.payload.summary.join('\n')).toContain(agent);
    expect(first.payload.domain_separator).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await h.call('prompt:respondBlindSigning', { prompt_id: first.payload.prompt_id, accept: false })).toEqual({ delivered: true });
    expect(await declined).toMatchObject({ ok: false, error: { code: 'BLIND_SIGNING_DECLINED' } });
    // An answer to a prompt that is gone is not delivered.
    expect(await h.call('prompt:respondBlindSigning', { prompt_id: first.payload.prompt_id, accept: true })).toEqual({ delivered: false });

    const review2 = await h.call('keys:review', { action: 'authorize', agent });
    const accepted = h.invoke('keys:authorize', { review_id: review2.review_id });
    const second = await h.waitFor('a second blind-signing request', () => requests()[1]);
    await h.call('prompt:respondBlindSigning', { prompt_id: second.payload.prompt_id, accept: true });
    const result = await accepted;
    expect(result).toMatchObject({ ok: true, value: { agent, stored_locally: true } });
    expect((await h.call('keys:list', {})).keys.find((k) => k.agent === agent)?.status).toBe('ACTIVE');
  });

  it('runs the offline ceremony: export the request, import the signature made elsewhere', async () => {
    await ensureNoFingerprint();
    const seen = offlineRequests().length;
    const offline = Wallet.createRandom();
    const view = await h.call('wallet:connectOffline', { address: offline.address });
    expect(view).toMatchObject({ address: offline.address, signer: { kind: 'offline' } });
    const { agent } = await h.call('keys:create', { name: 'offline' });
    const review = await h.call('keys:review', { action: 'authorize', agent, expires_in_days: 7 });
    const pending = h.invoke('keys:authorize', { review_id: review.review_id });
    const request = await h.waitFor('an offline signature request', () => offlineRequests()[seen]);
    expect(request.payload.signer).toBe(offline.address);
    // The document asks for exactly the reviewed typed data.
    expect(request.payload.digest).toBe(review.digest);
    const doc = JSON.parse(request.payload.document) as { typedData: { message: Record<string, unknown> } };
    expect(doc.typedData.message['agent']).toBe(agent);
    // No signer fingerprint is set: no QR code, and the dialog is told why.
    expect(request.payload.qr).toEqual({ unavailable: expect.stringContaining('Settings › Offline signer') });

    h.nextSaveFile = path.join(h.dataDir, 'request.json');
    expect(await h.call('prompt:exportSigningRequest', { prompt_id: request.payload.prompt_id })).toEqual({ saved: true, file_name: 'request.json' });
    expect(fs.readFileSync(h.nextSaveFile, 'utf8')).toBe(request.payload.document);

    // "Elsewhere": the offline machine signs the digest; the answer comes back as a file.
    const signature = offline.signingKey.sign(request.payload.digest).serialized;
    h.nextOpenFile = path.join(h.dataDir, 'signature.txt');
    fs.writeFileSync(h.nextOpenFile, `${signature}\n`);
    const imported = await h.call('prompt:importSignatureFile', { prompt_id: request.payload.prompt_id });
    expect(imported.signature).toBe(signature);
    await h.call('prompt:respondOfflineSignature', { prompt_id: request.payload.prompt_id, signature: imported.signature! });
    expect(await pending).toMatchObject({ ok: true, value: { agent, wallet: offline.address } });
    // A 7-day key is inside the 14-day warning window: the expiry stream and a notification say so.
    const notice = await h.waitFor('a key-expiry event', () =>
      h
        .eventsOf<IpcEventPayload<'keyExpiry'>>('keyExpiry')
        .flatMap((e) => e.payload.keys)
        .find((k) => k.agent === agent),
    );
    expect(notice).toMatchObject({ expired: false, name: 'offline' });
    expect(notice.expires_in_ms).toBeGreaterThan(6 * 86_400_000);
    expect(h.notifications.some((n) => n.title === 'Trading key expires soon' && n.body.includes(agent))).toBe(true);
    expect((await h.call('keys:list', {})).keys.find((k) => k.agent === agent)?.expiring_soon).toBe(true);
  });

  it('a cancelled offline request fails the action with a typed error', async () => {
    await ensureOffline();
    const seen = offlineRequests().length;
    const { agent } = await h.call('keys:create', {});
    const review = await h.call('keys:review', { action: 'authorize', agent });
    const pending = h.invoke('keys:authorize', { review_id: review.review_id });
    const request = await h.waitFor('the request', () => offlineRequests()[seen]);
    await h.call('prompt:respondOfflineSignature', { prompt_id: request.payload.prompt_id, cancel: true });
    expect(await pending).toMatchObject({ ok: false, error: { code: 'SIGNING_CANCELLED' } });
  });

  it('with a signer fingerprint set, shows the request as an animated eth-sign-request QR code and takes an eth-signature UR answer from the wallet only', async () => {
    const FINGERPRINT = 'f23f9fd2';
    await ensureNoFingerprint();
    try {
      // Set in Settings: a malformed fingerprint or a non-Ethereum path is refused and changes nothing.
      expect((await h.fail('settings:setAirgap', { fingerprint: 'xyz' })).code).toBe('INVALID_PAYLOAD');
      expect(await h.fail('settings:setAirgap', { fingerprint: FINGERPRINT, path: "m/44'/0'/0'" })).toMatchObject({ code: 'VALIDATION', reason: 'INVALID_PATH' });
      expect(await h.call('settings:getAirgap', {})).toEqual({ fingerprint: null, path: "m/44'/60'/0'/0/0" });
      expect(await h.call('settings:setAirgap', { fingerprint: FINGERPRINT.toUpperCase(), path: "m/44'/60'/0'/0/0" })).toEqual({ fingerprint: FINGERPRINT, path: "m/44'/60'/0'/0/0" });
      expect(openNodeSettings(h.dataDir).get('airgap.fingerprint')).toBe(FINGERPRINT);
      const offline = Wallet.createRandom();
      const intruder = Wallet.createRandom();
      await h.call('wallet:connectOffline', { address: offline.address });
      const { agent } = await h.call('keys:create', { name: 'qr' });
      const seen = offlineRequests().length;

      /** The signer's answer: an eth-signature UR with the request id, split in parts, given in reverse order. */
      const answer = (key: { signingKey: Wallet['signingKey'] }, digest: string, requestId: string) =>
        urParts(new ETHSignature(Buffer.from(key.signingKey.sign(digest).serialized.slice(2), 'hex'), uuidBytes(requestId), 'Keystone'), { maxFragmentLength: 30 })
          .reverse()
          .join('\n');

      const ask = async (n: number) => {
        const review = await h.call('keys:review', { action: 'authorize', agent });
        const pending = h.invoke('keys:authorize', { review_id: review.review_id });
        const request = await h.waitFor('an offline request with a QR code', () => offlineRequests()[seen + n]);
        expect(request.payload.digest).toBe(review.digest);
        const qr = request.payload.qr;
        if (!('frames' in qr)) throw new Error(`expected QR frames, got: ${qr.unavailable}`);
        expect(qr.interval_ms).toBeGreaterThan(0);
        expect(qr.frames.length).toBeGreaterThan(1);
        expect(qr.frames.every((f) => f.startsWith('<svg'))).toBe(true);
        // The frames are exactly the QR codes of this request's UR parts, and the parts decode to an
        // eth-sign-request for exactly the reviewed typed data, with this request id and fingerprint.
        const data = (JSON.parse(request.payload.document) as { typedData: TypedData }).typedData;
        const rebuilt = createAirgapRequest({ data, path: "m/44'/60'/0'/0/0", sourceFingerprint: FINGERPRINT, requestId: qr.request_id });
        expect(await renderQrFrames(rebuilt.urParts, { format: 'svg' })).toEqual(qr.frames);
        const decoder = new URDecoder();
        for (const part of rebuilt.urParts) {
          decoder.receivePart(part);
          if (decoder.isComplete()) break;
        }
        expect(decoder.isSuccess()).toBe(true);
        expect(decoder.resultUR().type).toBe('eth-sign-request');
        const signRequest = EthSignRequest.fromCBOR(decoder.resultUR().cbor);
        expect(JSON.parse(signRequest.getSignData().toString('utf8'))).toEqual(data);
        expect((data.message as Record<string, unknown>)['agent']).toBe(agent);
        expect(uuidString(signRequest.getRequestId()!)).toBe(qr.request_id);
        expect(signRequest.getSourceFingerprint().toString('hex')).toBe(FINGERPRINT);
        return { pending, request, requestId: qr.request_id };
      };

      // A UR signed by another key is refused: nothing is authorized.
      const wrong = await ask(0);
      await h.call('prompt:respondOfflineSignature', { prompt_id: wrong.request.payload.prompt_id, signature: answer(intruder, wrong.request.payload.digest, wrong.requestId) });
      expect(await wrong.pending).toMatchObject({ ok: false, error: { code: 'SIGNATURE_MISMATCH' } });
      expect((await h.call('keys:list', {})).keys.find((k) => k.agent === agent)?.status).not.toBe('ACTIVE');

      // The wallet's own answer, as UR lines in any order, authorizes the key.
      const right = await ask(1);
      await h.call('prompt:respondOfflineSignature', { prompt_id: right.request.payload.prompt_id, signature: answer(offline, right.request.payload.digest, right.requestId) });
      expect(await right.pending).toMatchObject({ ok: true, value: { agent, wallet: offline.address } });
      expect((await h.call('keys:list', {})).keys.find((k) => k.agent === agent)?.status).toBe('ACTIVE');
    } finally {
      // Back to no fingerprint: the other tests' offline requests carry no QR code.
      await h.call('settings:setAirgap', { fingerprint: null });
    }
  });
});
