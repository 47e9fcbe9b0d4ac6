import { Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { EnvKeySigner, envKeyWarning } from '../../../src/main/signers/envKeySigner.js';
import { SignerError } from '../../../src/main/signers/signerError.js';
import { ethersRecover, withdrawData } from './fixtures.js';

function recordingLogger(): { warn(m: string): void; lines: string[] } {
  const lines: string[] = [];
  return { lines, warn: (m) => lines.push(m) };
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SignerError);
    return (err as SignerError).code;
  }
  return undefined;
}

describe('EnvKeySigner', () => {
  const wallet = new Wallet(Wallet.createRandom().privateKey);

  it('signs with the key from the named variable and warns that it is for automation, without the key', async () => {
    const logger = recordingLogger();
    const signer = EnvKeySigner.fromEnv('PERPS_MAIN_KEY', { env: { PERPS_MAIN_KEY: wallet.privateKey }, logger });
    expect(signer.kind).toBe('env');
    expect(signer.address).toBe(wallet.address);
    expect(logger.lines).toEqual([envKeyWarning('PERPS_MAIN_KEY')]);
    expect(logger.lines[0]).toMatch(/automation only/);
    expect(logger.lines[0]).toContain('PERPS_MAIN_KEY');
    expect(logger.lines[0]!.toLowerCase()).not.toContain(wallet.privateKey.slice(2).toLowerCase());
    const data = withdrawData(wallet.address, '10.5');
    const sig = await signer.signTypedData(data);
    expect(ethersRecover(data, sig)).toBe(wallet.address);
    expect(JSON.stringify(signer).toLowerCase()).not.toContain(wallet.privateKey.slice(2).toLowerCase());
  });

  it('accepts the key without 0x and with surrounding whitespace', () => {
    const signer = EnvKeySigner.fromEnv('K', { env: { K: `  ${wallet.privateKey.slice(2)}\n` }, logger: recordingLogger() });
    expect(signer.address).toBe(wallet.address);
  });

  it('a missing or empty variable is ENV_KEY_MISSING and nothing is logged', () => {
    const logger = recordingLogger();
    expect(codeOf(() => EnvKeySigner.fromEnv('K', { env: {}, logger }))).toBe('ENV_KEY_MISSING');
    expect(codeOf(() => EnvKeySigner.fromEnv('K', { env: { K: '  ' }, logger }))).toBe('ENV_KEY_MISSING');
    expect(logger.lines).toEqual([]);
  });

  it('an invalid value is ENV_KEY_INVALID and the message never contains the value', () => {
    const logger = recordingLogger();
    const secretish = 'ab'.repeat(31); // 62 hex characters: one byte short
    for (const value of [secretish, 'not-a-key', '0x' + 'zz'.repeat(32), '0'.repeat(64), 'f'.repeat(64)]) {
      try {
        EnvKeySigner.fromEnv('K', { env: { K: value }, logger });
        expect.unreachable(`accepted ${value}`);
      } catch (err) {
        expect((err as SignerError).code).toBe('ENV_KEY_INVALID');
        expect((err as Error).message).not.toContain(value);
        expect((err as Error).cause).toBeUndefined();
      }
    }
    expect(logger.lines).toEqual([]);
  });
});
