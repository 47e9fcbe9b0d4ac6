/** Profile resolution: precedence of flags, environment and stored settings; mainnet never guesses URLs. */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ProfileError, resolveProfile, saveProfileUrls, simProfile, SIM_DEFAULT_PORT } from '../../src/main/profiles/profiles.js';
import { openNodeSettings } from '../../src/main/settings/settingsStore.js';
import { describeFailure } from '../../src/main/services/errors.js';

const dir = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'perps-profiles-'));

describe('resolveProfile', () => {
  it('defaults to the sim profile: testnet flavour at the simulator default address', () => {
    const p = resolveProfile({ dataDir: dir() }, {});
    expect(p).toMatchObject({ name: 'sim', network: 'testnet', environment: 'Testnet', tradingChainId: 998 });
    expect(p.baseUrl).toBe(`http://127.0.0.1:${SIM_DEFAULT_PORT}/api/v1`);
    expect(p.venueWsUrl).toBe(`ws://127.0.0.1:${SIM_DEFAULT_PORT}/venue/ws`);
  });

  it('flags beat environment variables, which beat stored settings', () => {
    const dataDir = dir();
    saveProfileUrls(openNodeSettings(dataDir), 'sim', { baseUrl: 'http://stored:1/api/v1', venueInfoUrl: 'http://stored:1/venue/info' });
    expect(resolveProfile({ dataDir }, {}).baseUrl).toBe('http://stored:1/api/v1');
    const env = { PERPS_BASE_URL: 'http://env:2/api/v1/' };
    expect(resolveProfile({ dataDir }, env).baseUrl).toBe('http://env:2/api/v1');
    expect(resolveProfile({ dataDir, baseUrl: 'https://flag:3/api/v1' }, env).baseUrl).toBe('https://flag:3/api/v1');
  });

  it('PERPS_DATA_DIR and PERPS_PROFILE are honoured', () => {
    const dataDir = dir();
    const p = resolveProfile({}, { PERPS_DATA_DIR: dataDir, PERPS_PROFILE: 'mainnet', PERPS_BASE_URL: 'https://x/api/v1', PERPS_VENUE_URL: 'https://v/info' });
    expect(p).toMatchObject({ name: 'mainnet', environment: 'Mainnet', tradingChainId: 999, dataDir, venueWsUrl: 'wss://v/ws' });
  });

  it('mainnet without configured URLs is a clear configuration error (exit 2), never a guess', () => {
    const err = (() => {
      try {
        resolveProfile({ profile: 'mainnet', dataDir: dir() }, {});
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(ProfileError);
    expect((err as ProfileError).code).toBe('PROFILE_NOT_CONFIGURED');
    expect((err as Error).message).toMatch(/--base-url or PERPS_BASE_URL/);
    expect((err as Error).message).toMatch(/--venue-url or PERPS_VENUE_URL/);
    expect(describeFailure(err).exitCode).toBe(2);
  });

  it('refuses unknown profiles and malformed URLs', () => {
    expect(() => resolveProfile({ profile: 'staging', dataDir: dir() }, {})).toThrow(/unknown profile/);
    expect(() => resolveProfile({ baseUrl: 'not a url', dataDir: dir() }, {})).toThrow(/not a URL/);
    expect(() => resolveProfile({ baseUrl: 'ftp://x/api/v1', dataDir: dir() }, {})).toThrow(/http or https/);
  });

  it('simProfile builds the profile of a running simulator', () => {
    const p = simProfile({ base_url: 'http://127.0.0.1:5/api/v1', venue_info_url: 'http://127.0.0.1:5/venue/info', venue_ws_url: 'ws://127.0.0.1:5/venue/ws' }, dir());
    expect(p).toMatchObject({ name: 'sim', environment: 'Testnet', tradingChainId: 998, venueWsUrl: 'ws://127.0.0.1:5/venue/ws' });
  });
});
