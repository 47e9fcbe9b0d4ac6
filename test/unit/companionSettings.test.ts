/**
 * Where the companion services and chain RPCs are: flag, then environment, then the settings store, then
 * (sim profile only) the simulator's address on the trading API's origin. The real services' addresses are
 * never guessed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileError, simProfile, type Profile } from '../../src/main/profiles/profiles.js';
import { openNodeSettings } from '../../src/main/settings/settingsStore.js';
import {
  clearRpcUrl,
  requirePartnerCode,
  resolveCompanionUrl,
  resolvePartnerCode,
  resolveRpcUrl,
  saveCompanionUrl,
  savePartnerCode,
  saveRpcUrl,
  storedRpcUrls,
} from '../../src/main/services/companion/index.js';
import { ValidationError } from '../../src/main/services/errors.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function setup(name: 'sim' | 'mainnet' = 'sim') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-companion-settings-'));
  dirs.push(dir);
  const sim = simProfile({ base_url: 'http://127.0.0.1:8645/api/v1', venue_info_url: 'http://127.0.0.1:8645/venue/info' }, dir);
  const profile: Profile = name === 'sim' ? sim : { ...sim, name: 'mainnet', network: 'mainnet', environment: 'Mainnet', tradingChainId: 999, baseUrl: 'https://trading.example/api/v1' };
  return { profile, settings: openNodeSettings(dir), env: {} as NodeJS.ProcessEnv };
}

describe('companion settings', () => {
  it('sim: defaults on the trading origin; settings, env and flag override in that order', () => {
    const input = setup();
    expect(resolveCompanionUrl(input, 'bridge')).toBe('http://127.0.0.1:8645/bridge/v1');
    expect(resolveCompanionUrl(input, 'platform')).toBe('http://127.0.0.1:8645/platform');
    expect(resolveRpcUrl(input, 'arbitrum')).toBe('http://127.0.0.1:8645/rpc/arbitrum');
    saveCompanionUrl(input, 'bridge', 'http://stored.example/v1/');
    expect(resolveCompanionUrl(input, 'bridge')).toBe('http://stored.example/v1');
    input.env['PERPS_BRIDGE_URL'] = 'http://env.example/v1';
    expect(resolveCompanionUrl(input, 'bridge')).toBe('http://env.example/v1');
    expect(resolveCompanionUrl(input, 'bridge', 'http://flag.example/v1')).toBe('http://flag.example/v1');

    saveRpcUrl(input, 'arbitrum', 'https://arb.example/rpc');
    expect(resolveRpcUrl(input, 'arbitrum')).toBe('https://arb.example/rpc');
    expect(storedRpcUrls(input)).toEqual({ arbitrum: 'https://arb.example/rpc' });
    input.env['PERPS_RPC_URL_ARBITRUM'] = 'https://env-arb.example';
    expect(resolveRpcUrl(input, 'arbitrum')).toBe('https://env-arb.example');
    expect(clearRpcUrl(input, 'arbitrum')).toBe(true);
    expect(storedRpcUrls(input)).toEqual({});
  });

  it('mainnet: nothing is built in; unset is a PROFILE_NOT_CONFIGURED saying how to set it', () => {
    const input = setup('mainnet');
    expect(() => resolveCompanionUrl(input, 'inference')).toThrow(ProfileError);
    expect(() => resolveRpcUrl(input, 'base')).toThrow(/PERPS_RPC_URL_BASE|no JSON-RPC URL/);
    expect(() => saveRpcUrl(input, 'base', 'ftp://x')).toThrow(ProfileError);
    expect(() => saveRpcUrl(input, 'Base', 'https://x')).toThrow(ValidationError);
  });

  it('partner code: flag, env, stored; required where the flow needs it', () => {
    const input = setup();
    expect(resolvePartnerCode(input)).toBeUndefined();
    expect(() => requirePartnerCode(input, undefined, 'for a swap')).toThrow(expect.objectContaining({ code: 'PARTNER_CODE_REQUIRED' }));
    savePartnerCode(input, 'perpsdesk');
    expect(resolvePartnerCode(input)).toBe('perpsdesk');
    input.env['PERPS_PARTNER_CODE'] = 'alpha';
    expect(resolvePartnerCode(input)).toBe('alpha');
    expect(resolvePartnerCode(input, 'beta')).toBe('beta');
  });
});
