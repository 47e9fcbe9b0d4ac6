import { DataType, EthSignRequest } from '@keystonehq/bc-ur-registry-eth';
import { URDecoder } from '@ngraveio/bc-ur';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { digestOf, typedData, type TypedData } from '../../../../src/shared/eip712/index.js';
import { createAirgapRequest, expectationOf } from '../../../../src/main/signers/airgap/airgapRequest.js';
import { AirgapError } from '../../../../src/main/signers/airgap/airgapError.js';
import { buildEthSignRequest, uuidString } from '../../../../src/main/signers/airgap/ethSignRequest.js';
import { renderQrFrames } from '../../../../src/main/signers/airgap/qrFrames.js';
import { summarize } from '../../../../src/main/signers/airgap/summary.js';
import { TYPED_DATA_FILE_FORMAT, typedDataFileJson, typedDataV4Json } from '../../../../src/main/signers/airgap/typedDataFile.js';
import { qrText, urParts } from '../../../../src/main/signers/airgap/urParts.js';
import { AGENT, FINGERPRINT, PATH, REQUEST_ID, WALLET, authorize, revoke, withdraw } from './fixtures.js';

function decodeRequest(parts: readonly string[]): EthSignRequest {
  const decoder = new URDecoder();
  for (const p of parts) {
    decoder.receivePart(p);
    if (decoder.isComplete()) break;
  }
  expect(decoder.isSuccess()).toBe(true);
  const ur = decoder.resultUR();
  expect(ur.type).toBe('eth-sign-request');
  return EthSignRequest.fromCBOR(ur.cbor);
}

function expectRequestCarries(req: EthSignRequest, data: TypedData): void {
  expect(req.getDataType()).toBe(DataType.typedData);
  expect(DataType.typedData).toBe(2); // Keystone registry: 1 tx, 2 typed data, 3 personal message, 4 typed tx
  expect(uuidString(req.getRequestId()!)).toBe(REQUEST_ID);
  expect(req.getDerivationPath()).toBe("44'/60'/0'/0/0");
  expect(req.getSourceFingerprint().toString('hex')).toBe(FINGERPRINT);
  expect(req.getChainId()).toBe(data.domain.chainId);
  expect('0x' + req.getSignRequestAddress()!.toString('hex')).toBe(WALLET.toLowerCase());
  expect(req.getOrigin()).toBe('Perps Desk');
  const signed = JSON.parse(req.getSignData().toString('utf8')) as TypedData;
  expect(signed).toEqual(data);
  expect(digestOf(signed)).toEqual(digestOf(data));
}

describe('summary and JSON file', () => {
  it('summarizes each custody action in words', () => {
    const a = summarize(authorize);
    expect(a).toMatchObject({ primaryType: 'AuthorizeAgent', wallet: WALLET, agent: AGENT, chainId: 42161, serviceEnvironment: 'Mainnet', expiresAt: '2026-01-01T00:00:00.000Z' });
    const w = summarize(withdraw);
    expect(w).toMatchObject({ primaryType: 'Withdraw', wallet: WALLET, amountUsdc: '25.5', amountBaseUnits: '25500000', destination: WALLET, chainId: 999 });
    expect(w.lines).toContain('Amount: 25.5 USDC (signed as 25500000 base units)');
    expect(w.lines.some((l) => l.includes('(the wallet itself)'))).toBe(true);
    expect(summarize(revoke)).toMatchObject({ primaryType: 'RevokeAgent', agent: AGENT, nonce: '1760000000001' });
  });

  it('writes the exact eth_signTypedData_v4 object at the top level, plus the summary', () => {
    const file = JSON.parse(typedDataFileJson(withdraw)) as Record<string, unknown>;
    expect({ domain: file.domain, types: file.types, primaryType: file.primaryType, message: file.message }).toEqual(withdraw);
    expect(file.format).toBe(TYPED_DATA_FILE_FORMAT);
    expect((file.summary as { digest: string }).digest).toBe(summarize(withdraw).digest);
    expect(JSON.parse(typedDataV4Json(withdraw))).toEqual(withdraw);
  });

  it('refuses order-flow typed data (the main wallet does not sign it)', () => {
    const cancel = typedData('Cancel', 999, { account: WALLET, orderId: '1', orderType: 'LIMIT', nonce: '1' });
    expect(() => summarize(cancel)).toThrow(AirgapError);
    expect(() => createAirgapRequest({ data: cancel, path: PATH, sourceFingerprint: FINGERPRINT })).toThrow(/only AuthorizeAgent/);
  });
});

describe('eth-sign-request UR', () => {
  it('round-trips a multi-part request: built, fountain-encoded, decoded back to identical typed data', () => {
    const req = createAirgapRequest({ data: authorize, path: PATH, sourceFingerprint: FINGERPRINT, requestId: REQUEST_ID, maxFragmentLength: 60 });
    expect(req.urParts.length).toBeGreaterThan(4);
    expect(req.urParts.every((p) => /^ur:eth-sign-request\/\d+-\d+\/[a-z]+$/.test(p))).toBe(true);
    expectRequestCarries(decodeRequest(req.urParts), authorize);
    expect(expectationOf(req)).toEqual({ data: authorize, wallet: WALLET, requestId: REQUEST_ID });
  });

  it('decodes the animated sequence out of order, and with a frame missed (fountain mixes)', () => {
    const { request } = buildEthSignRequest({ data: withdraw, path: PATH, sourceFingerprint: FINGERPRINT, requestId: REQUEST_ID });
    const parts = urParts(request, { maxFragmentLength: 50, count: 60 });
    const n = Number(/\/\d+-(\d+)\//.exec(parts[0]!)![1]);
    expect(n).toBeGreaterThan(3);
    const pure = parts.slice(0, n);
    expectRequestCarries(decodeRequest([...pure].reverse()), withdraw);
    // Fragment 1 never seen: the later mixed parts carry it.
    expectRequestCarries(decodeRequest([...pure.slice(1), ...parts.slice(n)].reverse()), withdraw);
  });

  it('is one part when it fits one fragment', () => {
    const { request } = buildEthSignRequest({ data: revoke, path: PATH, sourceFingerprint: FINGERPRINT, requestId: REQUEST_ID });
    const parts = urParts(request, { maxFragmentLength: 4000 });
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatch(/^ur:eth-sign-request\/[a-z]+$/);
    expectRequestCarries(decodeRequest(parts), revoke);
  });

  it('uppercase QR text decodes the same (UR is case-insensitive) and uses alphanumeric QR mode', () => {
    const { request } = buildEthSignRequest({ data: revoke, path: PATH, sourceFingerprint: FINGERPRINT, requestId: REQUEST_ID });
    const parts = urParts(request, { maxFragmentLength: 80 });
    expectRequestCarries(decodeRequest(parts.map(qrText)), revoke);
    const qr = QRCode.create(qrText(parts[0]!), { errorCorrectionLevel: 'L' });
    expect(qr.segments.map((s) => s.mode.id)).toEqual(['Alphanumeric']);
  });

  it('renders one QR frame per part, as PNG data URLs or SVG', async () => {
    const req = createAirgapRequest({ data: authorize, path: PATH, sourceFingerprint: FINGERPRINT, maxFragmentLength: 120, count: 6 });
    const png = await renderQrFrames(req.urParts, { format: 'png-data-url' });
    expect(png).toHaveLength(req.urParts.length);
    expect(png.every((f) => f.startsWith('data:image/png;base64,'))).toBe(true);
    const svg = await renderQrFrames(req.urParts.slice(0, 2), { format: 'svg' });
    expect(svg.every((f) => f.includes('<svg'))).toBe(true);
  });

  it('a fresh request gets a fresh UUID', () => {
    const a = createAirgapRequest({ data: revoke, path: PATH, sourceFingerprint: FINGERPRINT });
    const b = createAirgapRequest({ data: revoke, path: PATH, sourceFingerprint: FINGERPRINT });
    expect(a.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.requestId).not.toBe(b.requestId);
  });

  it.each([
    [{ path: "m/44'/0'/0'/0/0" }, /derivation path/],
    [{ path: "m/44'/60'/0'/x" }, /derivation path/],
    [{ sourceFingerprint: 'xyz' }, /fingerprint/],
    [{ requestId: 'not-a-uuid' }, /UUID/],
  ])('refuses invalid parameters %o', (override, message) => {
    expect(() => buildEthSignRequest({ data: revoke, path: PATH, sourceFingerprint: FINGERPRINT, ...override })).toThrow(message);
  });
});
