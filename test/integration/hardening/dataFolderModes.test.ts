/**
 * Issue 13, point 1: the data folder is private. settings.json holds RPC URLs (which carry provider API
 * keys) and the withdrawal records hold signed bodies, so after a first run of each front end (into a
 * data folder that did not exist) the folder is 0700 and every file in it 0600. Command line: the real
 * `perps` program against a simulator on loopback (keys, an RPC URL, saved service URLs, a withdrawal).
 * App: AppCore through a first start and stop (which saves the simulator's state into the folder).
 *
 * Where each run happens (issue 37): the first run, which makes the data folder, is the real bin/perps.js
 * in a child process (the file's one child, exit 0); the runs after it are `perps` in this process
 * (perpsInProcess.ts: the same main writing the same files, with the same variables, set for the run and
 * restored after; the umask is this process's, as a child inherits it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppHarness } from '../app/appHarness.js';
import { SimHarness } from '../support/keysMoney.js';
import { jsonOf, runPerps } from '../../support/perpsCli.js';
import { perpsInProcess } from '../../support/perpsInProcess.js';
import { tempDir, testService, wipeService } from '../../support/keychain.js';

/** Every folder and file under `dir` (itself included), with its permission bits. */
function modesUnder(dir: string): { path: string; kind: 'folder' | 'file'; mode: number }[] {
  const out: { path: string; kind: 'folder' | 'file'; mode: number }[] = [{ path: dir, kind: 'folder', mode: fs.lstatSync(dir).mode & 0o777 }];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...modesUnder(p));
    else out.push({ path: p, kind: 'file', mode: fs.lstatSync(p).mode & 0o777 });
  }
  return out;
}

const octal = (m: number): string => `0${m.toString(8)}`;

describe('the command line leaves a private data folder', { timeout: 180_000 }, () => {
  let h: SimHarness;
  const root = tempDir('modes-cli');
  // Not created by the test: the command line makes it.
  const dataDir = path.join(root, 'perps-data');
  const service = testService('modes-cli');
  const main = Wallet.createRandom();

  beforeAll(async () => {
    h = await SimHarness.boot();
  });
  afterAll(async () => {
    await wipeService(service);
    await h.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('keys new, keys authorize, bridge rpc set, config --save and a withdrawal: folder 0700, every file 0600', async () => {
    const vars = {
      PERPS_BASE_URL: h.urls.base_url,
      PERPS_VENUE_URL: h.urls.venue_info_url,
      PERPS_DATA_DIR: dataDir,
      PERPS_KEYCHAIN_SERVICE: service,
      PERPS_TEST_MAIN_KEY: main.privateKey,
    };
    const created = await runPerps(['keys', 'new', '--wallet', main.address, '--json'], { ...process.env, ...vars });
    expect(created.code, created.stderr).toBe(0);
    const agent = jsonOf(created)['agent'] as string;
    const authorized = await perpsInProcess(['keys', 'authorize', '--wallet', main.address, '--agent', agent, '--signer', 'env:PERPS_TEST_MAIN_KEY', '--json'], vars);
    expect(authorized.code, authorized.stderr).toBe(0);
    const origin = new URL(h.urls.base_url).origin;
    const rpc = await perpsInProcess(['bridge', 'rpc', 'set', 'arbitrum', `${origin}/rpc/arbitrum/`, '--json'], vars);
    expect(rpc.code, rpc.stderr).toBe(0);
    const saved = await perpsInProcess(['config', '--save', '--json'], vars);
    expect(saved.code, saved.stderr).toBe(0);
    await h.fund(main.address, '100');
    const withdrawn = await perpsInProcess(['withdraw', '--wallet', main.address, '--amount', '25', '--signer', 'env:PERPS_TEST_MAIN_KEY', '--json'], vars);
    expect(withdrawn.code, withdrawn.stderr).toBe(0);

    const entries = modesUnder(dataDir);
    expect(entries.map((e) => `${path.relative(root, e.path)} ${octal(e.mode)}`)).toEqual(entries.map((e) => `${path.relative(root, e.path)} ${e.kind === 'folder' ? '0700' : '0600'}`));
    const files = entries.filter((e) => e.kind === 'file').map((e) => path.relative(dataDir, e.path));
    // What the runs wrote: the settings (keys' metadata, the RPC URL, the service URLs), the nonce
    // marks and the withdrawal's record.
    expect(files).toEqual(expect.arrayContaining(['settings.json', 'nonces.json']));
    expect(files.filter((f) => f.startsWith(`withdrawals${path.sep}`))).toHaveLength(1);
    expect(fs.readFileSync(path.join(dataDir, 'settings.json'), 'utf8')).toContain('/rpc/arbitrum');
  });

  it('a data folder and settings file left 0755/0644 by an older version are made private on the next run', async () => {
    // A folder of its own, as an older version left it (this test does not rely on the one above).
    const legacy = path.join(root, 'legacy-data');
    fs.mkdirSync(legacy, { mode: 0o755 });
    fs.chmodSync(legacy, 0o755);
    fs.writeFileSync(path.join(legacy, 'settings.json'), '{}\n', { mode: 0o644 });
    fs.chmodSync(path.join(legacy, 'settings.json'), 0o644);
    const r = await perpsInProcess(['keys', 'list', '--wallet', main.address, '--json'], {
      PERPS_BASE_URL: h.urls.base_url,
      PERPS_VENUE_URL: h.urls.venue_info_url,
      PERPS_DATA_DIR: legacy,
      PERPS_KEYCHAIN_SERVICE: service,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(octal(fs.statSync(legacy).mode & 0o777)).toBe('0700');
    expect(octal(fs.statSync(path.join(legacy, 'settings.json')).mode & 0o777)).toBe('0600');
  });
});

describe('the app leaves a private data folder', { timeout: 120_000 }, () => {
  const root = tempDir('modes-app');
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('after a first start and stop of the app core (simulator profile): folder 0700, every file 0600', async () => {
    const dataDir = path.join(root, 'Perps Desk');
    const h = await AppHarness.start('modes', { dataDir });
    try {
      await h.call('settings:setAirgap', { fingerprint: '1a2b3c4d', path: "m/44'/60'/0'/0/0" });
    } finally {
      await h.stop();
    }
    const entries = modesUnder(dataDir);
    const files = entries.filter((e) => e.kind === 'file').map((e) => path.relative(dataDir, e.path));
    expect(files).toEqual(expect.arrayContaining(['settings.json', path.join('sim', 'state.json')]));
    expect(octal(entries[0]!.mode)).toBe('0700');
    for (const e of entries.filter((x) => x.kind === 'file')) expect(`${path.relative(root, e.path)} ${octal(e.mode)}`).toBe(`${path.relative(root, e.path)} 0600`);
    // sim/ is made by AppCore (src/main/app, outside this change; see the report) with the default
    // mode: it is at least never writable by others, and reachable only through the 0700 data folder.
    for (const e of entries.slice(1).filter((x) => x.kind === 'folder')) expect(e.mode & 0o022).toBe(0);
  });
});
