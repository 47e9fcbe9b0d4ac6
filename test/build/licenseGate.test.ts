/**
 * The dependency gate (scripts/licenses, run by .ci/run as `npm run licenses`): the licence policy on
 * its own, then the gate on a made-up installed tree with the licences it must refuse (a Trezor-style
 * T-RSL package with an AGPL dependency, SSPL, GPL, none declared, a guess), where the CLI exits 1 and
 * names each one, while a GPL devDependency is not its business. Then the SBOM (`npm run sbom`) and the
 * third-party notices of the real production tree.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeLicense } from '../../scripts/licenses/policy.js';
import { runGate } from '../../scripts/licenses/check.js';
import { NOTICES_FILE, renderNotices } from '../../scripts/licenses/notices.js';
import { REPO_ROOT } from '../support/paths.js';

const TSX = path.join(REPO_ROOT, 'node_modules/.bin/tsx');
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the licence policy', () => {
  it.each(['MIT', 'ISC', 'Apache-2.0', 'BSD-2-Clause', 'BSD-3-Clause', '0BSD', 'MPL-2.0', 'BlueOak-1.0.0', 'CC0-1.0', 'Unlicense', 'Python-2.0', '(MIT OR GPL-3.0-only)', '(MIT AND BSD-3-Clause)', '(BSD-2-Clause OR MIT OR Apache-2.0)'])('allows %s', (licence) => {
    expect(judgeLicense(licence)).toEqual({ ok: true });
  });

  it.each([
    ['AGPL-3.0-only', /AGPL/],
    ['AGPL-3.0-or-later', /AGPL/],
    ['(MIT AND AGPL-3.0-only)', /AGPL/],
    ['GPL-3.0-only', /GPL \(copyleft\)/],
    ['GPL-2.0-or-later', /GPL/],
    ['LGPL-3.0-only', /LGPL/],
    ['SSPL-1.0', /SSPL/],
    ['SEE LICENSE IN LICENSE.md', /not in the allowlist/],
    ['LicenseRef-T-RSL', /T-RSL/],
    ['T-RSL', /T-RSL/],
    ['Custom: https://example.invalid/licence', /custom licence/],
    ['UNKNOWN', /unknown/],
    ['UNLICENSED', /unknown/],
    ['', /unknown/],
    ['MIT*', /guessed/],
    ['Commercial', /not in the allowlist/],
  ])('refuses %s', (licence, reason) => {
    const verdict = judgeLicense(licence);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });

  it('refuses a package that declares none, and a list with one bad entry', () => {
    expect(judgeLicense(undefined).ok).toBe(false);
    expect(judgeLicense([]).ok).toBe(false);
    expect(judgeLicense(['MIT', 'GPL-2.0-only']).ok).toBe(false);
    expect(judgeLicense(['MIT', 'Apache-2.0'])).toEqual({ ok: true });
  });
});

describe('the gate on an installed tree', () => {
  let root: string;

  function pkg(dir: string, manifest: Record<string, unknown>, licenceFile?: string): void {
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
    if (licenceFile !== undefined) fs.writeFileSync(path.join(dir, 'LICENSE.md'), licenceFile);
  }

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'perps-licence-tree-'));
    temp.push(root);
    const nm = path.join(root, 'node_modules');
    pkg(root, {
      name: 'fixture-app',
      version: '1.0.0',
      private: true,
      dependencies: { 'fine-mit': '1.0.0', '@trezor-like/connect': '1.0.0', 'sspl-db': '1.0.0', 'no-licence': '1.0.0', 'gpl-lib': '1.0.0' },
      devDependencies: { 'gpl-dev-tool': '1.0.0' },
    });
    pkg(path.join(nm, 'fine-mit'), { name: 'fine-mit', version: '1.0.0', license: 'MIT' });
    pkg(path.join(nm, '@trezor-like/connect'), { name: '@trezor-like/connect', version: '1.0.0', license: 'SEE LICENSE IN LICENSE.md', dependencies: { 'agpl-inside': '1.0.0' } }, 'TREZOR REFERENCE SOURCE LICENSE (T-RSL)\n');
    pkg(path.join(nm, 'agpl-inside'), { name: 'agpl-inside', version: '1.0.0', license: 'AGPL-3.0-only' });
    pkg(path.join(nm, 'sspl-db'), { name: 'sspl-db', version: '1.0.0', license: 'SSPL-1.0' });
    pkg(path.join(nm, 'no-licence'), { name: 'no-licence', version: '1.0.0' });
    pkg(path.join(nm, 'gpl-lib'), { name: 'gpl-lib', version: '1.0.0', license: 'GPL-3.0-or-later' });
    pkg(path.join(nm, 'gpl-dev-tool'), { name: 'gpl-dev-tool', version: '1.0.0', license: 'GPL-3.0-only' });
  });

  it('refuses each bad production licence, and looks at production dependencies only', async () => {
    const result = await runGate(root);
    const refused = Object.fromEntries(result.refused.map((r) => [r.id, r.reason]));
    expect(Object.keys(refused).sort()).toEqual(['@trezor-like/connect@1.0.0', 'agpl-inside@1.0.0', 'gpl-lib@1.0.0', 'no-licence@1.0.0', 'sspl-db@1.0.0']);
    expect(refused['agpl-inside@1.0.0']).toMatch(/AGPL/);
    expect(refused['sspl-db@1.0.0']).toMatch(/SSPL/);
    expect(refused['no-licence@1.0.0']).toMatch(/unknown|guessed|custom|allowlist/);
    expect(result.packages.map((p) => p.id)).toContain('fine-mit@1.0.0');
    expect(result.packages.map((p) => p.id)).not.toContain('gpl-dev-tool@1.0.0');
  });

  it('fails the CI step (exit 1) and names the refused packages', () => {
    const r = spawnSync(TSX, [path.join(REPO_ROOT, 'scripts/licenses/check.ts'), '--start', root], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/agpl-inside@1\.0\.0: AGPL-3\.0-only: AGPL/);
    expect(r.stderr).toMatch(/@trezor-like\/connect@1\.0\.0/);
    expect(r.stdout).toMatch(/Licence\s+Packages/);
  });
});

describe('the real production tree', () => {
  it('passes the gate, and its third-party notices are the committed file', async () => {
    // One read of the tree (about half of this file's time): the gate's own list is what the notices render.
    const result = await runGate(REPO_ROOT);
    const packages = result.packages;
    expect(result.refused).toEqual([]);
    expect(packages.map((p) => p.id)).toEqual(expect.arrayContaining([expect.stringMatching(/^keytar@/), expect.stringMatching(/^ethers@/)]));
    expect(packages.map((p) => p.id).some((id) => /^(vitest|electron|electron-builder)@/.test(id))).toBe(false);
    expect(fs.readFileSync(NOTICES_FILE, 'utf8')).toBe(renderNotices(packages));
  });

  it('has a CycloneDX SBOM of its production dependencies (npm run sbom)', () => {
    execFileSync('npm', ['run', '--silent', 'sbom'], { cwd: REPO_ROOT, stdio: 'pipe', timeout: 120_000 });
    /* eslint-disable @typescript-eslint/no-explicit-any -- the SBOM is JSON */
    const bom = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'dist/sbom.cdx.json'), 'utf8'));
    expect(bom.bomFormat).toBe('CycloneDX');
    expect(bom.metadata.component).toMatchObject({ name: 'perps-desk', type: 'application' });
    const names = new Set<string>();
    const walk = (components: any[] | undefined): void => {
      for (const c of components ?? []) {
        names.add(c.group ? `${c.group}/${c.name}` : c.name);
        expect(c.purl, c.name).toMatch(/^pkg:npm\//);
        walk(c.components);
      }
    };
    walk(bom.components);
    for (const name of ['keytar', 'ethers', 'react', '@ledgerhq/hw-app-eth', 'node-hid']) expect(names.has(name), name).toBe(true);
    for (const dev of ['vitest', 'electron', 'electron-builder', '@playwright/test', 'license-checker-rseidelsohn']) expect(names.has(dev), dev).toBe(false);
  });
});
