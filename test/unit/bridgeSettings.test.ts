/**
 * Bridge settings that protect the user: an RPC URL (which may carry a provider key in its path or query)
 * is never echoed whole in a refusal, venue_core takes no RPC URL, and the receipt wait a send allows
 * (--receipt-timeout, PERPS_RECEIPT_TIMEOUT) is checked before anything starts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileError, simProfile } from '../../src/main/profiles/profiles.js';
import { openNodeSettings } from '../../src/main/settings/settingsStore.js';
import { resolveReceiptTimeoutMs, resolveRpcUrl, saveRpcUrl } from '../../src/main/services/companion/index.js';
import { describeFailure } from '../../src/main/services/errors.js';

const KEY = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setup(env: NodeJS.ProcessEnv = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-bridge-settings-'));
  dirs.push(dir);
  const profile = simProfile({ base_url: 'http://127.0.0.1:8645/api/v1', venue_info_url: 'http://127.0.0.1:8645/venue/info' }, dir);
  return { profile, settings: openNodeSettings(dir), env };
}

const thrown = (f: () => unknown): unknown => {
  try {
    f();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
};

describe('RPC URLs in refusals', () => {
  it('a malformed RPC URL is refused without repeating its path or query; nothing is stored', () => {
    const input = setup();
    for (const url of [`ftp://rpc.example.io/v3/${KEY}`, `rpc.example.io/v3/${KEY}`]) {
      const err = thrown(() => saveRpcUrl(input, 'arbitrum', url));
      expect(err).toBeInstanceOf(ProfileError);
      expect(describeFailure(err).message).not.toContain(KEY);
    }
    expect(input.settings.get('companion.sim.rpc')).toBeUndefined();
  });

  it('a malformed URL in PERPS_RPC_URL_<CHAIN> is refused without its key', () => {
    const err = thrown(() => resolveRpcUrl(setup({ PERPS_RPC_URL_BASE: `wss://rpc.example.io/?key=${KEY}` }), 'base'));
    expect(describeFailure(err)).toMatchObject({ code: 'INVALID_URL', exitCode: 2 });
    expect(describeFailure(err).message).not.toContain(KEY);
    expect(describeFailure(err).message).toContain('wss://rpc.example.io/…');
  });

  it('venue_core (the spot layer) takes no RPC URL', () => {
    expect(describeFailure(thrown(() => saveRpcUrl(setup(), 'venue_core', 'https://rpc.example.io'))).exitCode).toBe(2);
  });
});

describe('receipt wait', () => {
  it('explicit, else PERPS_RECEIPT_TIMEOUT, else the client default: a duration of the one grammar, in ms', () => {
    expect(resolveReceiptTimeoutMs(setup())).toBeUndefined();
    expect(resolveReceiptTimeoutMs(setup({ PERPS_RECEIPT_TIMEOUT: '90s' }))).toBe(90_000);
    expect(resolveReceiptTimeoutMs(setup({ PERPS_RECEIPT_TIMEOUT: '90s' }), '2m')).toBe(120_000);
    expect(resolveReceiptTimeoutMs(setup(), '24h')).toBe(86_400_000);
  });

  it.each(['0s', '-1s', 'soon', '1e3s', '1.5s', '24h1s', '2d'])('%s is refused before anything starts (exit 2)', (v) => {
    const d = describeFailure(thrown(() => resolveReceiptTimeoutMs(setup(), v)));
    expect(d.exitCode).toBe(2);
    expect(d.message).toMatch(/receipt-timeout/);
  });

  it.each(['90', '1'])('a bare %s (seconds? minutes?) is refused with the unit hint, from the flag and from the environment', (v) => {
    const flag = describeFailure(thrown(() => resolveReceiptTimeoutMs(setup(), v)));
    expect(flag.exitCode).toBe(2);
    expect(flag.message).toContain(`receipt-timeout: '${v}' is not a duration: a number needs a unit, such as ${v}s (seconds) or ${v}m (minutes)`);
    const env = describeFailure(thrown(() => resolveReceiptTimeoutMs(setup({ PERPS_RECEIPT_TIMEOUT: v }))));
    expect(env.exitCode).toBe(2);
    expect(env.message).toMatch(/^PERPS_RECEIPT_TIMEOUT: .* a number needs a unit/);
  });
});
