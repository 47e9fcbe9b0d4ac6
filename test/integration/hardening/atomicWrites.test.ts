/**
 * Issue 13, point 2, in-process writers: the nonce file, the simulator's state file and the offline
 * signer's request file. A link planted at the temporary name an old version used (FILE.PID.tmp) or at
 * the file itself never receives a byte; files are 0600 whatever the umask. (atomicWriter.test.ts tests
 * the writer under them.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { NonceSource } from '../../../src/main/nonces/nonceSource.js';
import { fileSink } from '../../../src/main/signers/offlineSigner.js';
import { startSimulator } from '../../../src/sim/index.js';
import { STATE_FILE_VERSION } from '../../../src/sim/state/persistence.js';
import { hostileFolder } from '../../support/hostileFolder.js';

const { folder, loot, mode } = hostileFolder('atomic-writes');

describe('a link at the old predictable temporary name receives nothing', () => {
  it('nonces.json', async () => {
    const dataDir = folder('nonces');
    fs.symlinkSync(loot('nonces'), path.join(dataDir, `nonces.json.${process.pid}.tmp`));
    const nonce = await new NonceSource({ dataDir }).next(Wallet.createRandom().address);
    expect(nonce).toBeGreaterThan(0);
    expect(fs.existsSync(loot('nonces'))).toBe(false);
    expect(mode(path.join(dataDir, 'nonces.json'))).toBe(0o600);
  });

  it("the simulator's state file (and the folder it creates is 0700)", async () => {
    const stateFile = path.join(folder('sim'), 'sim', 'state.json');
    fs.mkdirSync(path.dirname(stateFile), { mode: 0o700 });
    fs.symlinkSync(loot('sim-state'), `${stateFile}.${process.pid}.tmp`);
    const sim = await startSimulator({ port: 0, seed: 3, stateFile });
    await sim.stop();
    expect(fs.existsSync(loot('sim-state'))).toBe(false);
    expect(mode(stateFile)).toBe(0o600);
    // No order was placed, so the file is its head alone (the current version, written by the store rewrite).
    expect(JSON.parse(fs.readFileSync(stateFile, 'utf8'))).toMatchObject({ version: STATE_FILE_VERSION });

    const fresh = path.join(folder('sim-fresh'), 'made-by-sim', 'state.json');
    const again = await startSimulator({ port: 0, seed: 3, stateFile: fresh });
    await again.stop();
    expect(mode(path.dirname(fresh))).toBe(0o700);
    expect(mode(fresh)).toBe(0o600);
  });
});

describe('a link at the file itself is refused, and its target untouched', () => {
  it("the offline signer's request file", async () => {
    const dir = folder('request');
    const target = path.join(dir, 'request.json');
    fs.writeFileSync(loot('request'), 'unchanged');
    fs.symlinkSync(loot('request'), target);
    await expect(fileSink(target)('{"request":1}')).rejects.toMatchObject({ code: 'OFFLINE_IO', message: expect.stringContaining('symbolic link') });
    expect(fs.readFileSync(loot('request'), 'utf8')).toBe('unchanged');
    expect(fs.lstatSync(target).isSymbolicLink()).toBe(true);
    expect(fs.readdirSync(dir)).toEqual(['request.json']);
  });

});
