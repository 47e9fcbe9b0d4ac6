/**
 * The custody signers that need the person in the loop, through the IPC handlers and the prompt events:
 *  - Ledger: listing devices and accounts, confirming the address, and an Ethereum app without clear
 *    signing, so authorizing a key falls back to blind signing: main sends blindSigningRequest with the
 *    two hashes, the renderer answers through prompt:respondBlindSigning (decline, then accept);
 *  - offline signer: main sends offlineSignatureRequest with the exact document, the request is exported
 *    through the save dialog, the signature made elsewhere is imported from a file and returned.
 * The Ledger is the project's APDU-level Ethereum-app emulator (no USB).
 */
import { Wallet } from 'ethers';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  it('connects a Ledger account after listing devices and accounts', async () => {
    const { devices } = await h.call('ledger:listDevices', {});
    expect(devices).toEqual([{ device_id: DEVICE, label: 'Ledger' }]);
    const { accounts } = await h.call('ledger:listAccounts', { device_id: DEVICE, scheme: 'bip44', count: 2 });
    expect(accounts.map((a) => a.address)).toEqual([walletAt("m/44'/60'/0'/0/0").address, walletAt("m/44'/60'/0'/0/1").address]);
    expect((await h.fail('ledger:connect', { device_id: '/dev/not-listed', path: PATH })).reason).toBe('NO_DEVICE');
    const view = await h.call('ledger:connect', { device_id: DEVICE, path: PATH });
    expect(view.address).toBe(walletAt(PATH).address);
    expect(view.signer).toMatchObject({ kind: 'ledger', path: PATH });
  });

  it('asks the renderer before blind signing: a decline signs nothing, an accept authorizes the key', async () => {
    const { agent } = await h.call('keys:create', {});
    const requests = () => h.eventsOf<IpcEventPayload<'blindSigningRequest'>>('blindSigningRequest');

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
    const offline = Wallet.createRandom();
    const view = await h.call('wallet:connectOffline', { address: offline.address });
    expect(view).toMatchObject({ address: offline.address, signer: { kind: 'offline' } });
    const { agent } = await h.call('keys:create', { name: 'offline' });
    const review = await h.call('keys:review', { action: 'authorize', agent, expires_in_days: 7 });
    const pending = h.invoke('keys:authorize', { review_id: review.review_id });
    const request = await h.waitFor('an offline signature request', () => h.eventsOf<IpcEventPayload<'offlineSignatureRequest'>>('offlineSignatureRequest')[0]);
    expect(request.payload.signer).toBe(offline.address);
    // The document asks for exactly the reviewed typed data.
    expect(request.payload.digest).toBe(review.digest);
    const doc = JSON.parse(request.payload.document) as { typedData: { message: Record<string, unknown> } };
    expect(doc.typedData.message['agent']).toBe(agent);

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
    const { agent } = await h.call('keys:create', {});
    const review = await h.call('keys:review', { action: 'authorize', agent });
    const pending = h.invoke('keys:authorize', { review_id: review.review_id });
    const request = await h.waitFor('the request', () => h.eventsOf<IpcEventPayload<'offlineSignatureRequest'>>('offlineSignatureRequest')[1]);
    await h.call('prompt:respondOfflineSignature', { prompt_id: request.payload.prompt_id, cancel: true });
    expect(await pending).toMatchObject({ ok: false, error: { code: 'SIGNING_CANCELLED' } });
  });
});
