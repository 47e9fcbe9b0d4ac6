#!/usr/bin/env node
// `npm start` and `npm run dev`: make sure Electron's binary is installed, then run electron-vite.
//
// Electron 45 has no install script: its binary is fetched by its own installer (the `install-electron`
// bin, or on the first `require('electron')`), and electron-vite reads node_modules/electron/path.txt
// itself, failing with "Electron uninstall" when the binary was never fetched. So this runs Electron's
// installer first (scripts/electron/installer.cjs: the package's install.js, unchanged, so ELECTRON_MIRROR,
// electron_config_cache, electron_use_remote_checksums and the checksums shipped in the package all
// apply and the download is verified), and only then electron-vite. When the binary cannot be fetched it
// prints one message (what is missing, why, what to run) and exits 1, before building anything.
//
// Usage: node scripts/electron/launch.mjs preview|dev [electron-vite options...]
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const requireFromRoot = createRequire(path.join(root, 'package.json'));
const [mode, ...rest] = process.argv.slice(2);
const SCRIPT = mode === 'dev' ? 'npm run dev' : 'npm start';

if (mode !== 'preview' && mode !== 'dev') {
  process.stderr.write('usage: node scripts/electron/launch.mjs preview|dev [electron-vite options]\n');
  process.exit(2);
}

function fail(lines) {
  process.stderr.write(`\n${SCRIPT}: ${lines.join('\n  ')}\n\n`);
  process.exit(1);
}

let electronDir;
try {
  electronDir = path.dirname(requireFromRoot.resolve('electron/package.json'));
} catch {
  fail(['the electron package is not installed (node_modules/electron is missing).', 'Run `npm install` in this folder first.']);
}
const { version } = JSON.parse(fs.readFileSync(path.join(electronDir, 'package.json'), 'utf8'));
const platform = process.env.ELECTRON_INSTALL_PLATFORM || process.env.npm_config_platform || process.platform;
const arch = process.env.ELECTRON_INSTALL_ARCH || process.env.npm_config_arch || process.arch;
const remoteChecksums = Boolean(process.env.electron_use_remote_checksums || process.env.npm_config_electron_use_remote_checksums);
const pathFile = path.join(electronDir, 'path.txt');
// Someone pointing electron-vite at an Electron of their own (its ELECTRON_EXEC_PATH) needs no download.
const ownElectron = Boolean(process.env.ELECTRON_EXEC_PATH);
const firstFetch = !ownElectron && !fs.existsSync(pathFile);

if (firstFetch) {
  const mirror = process.env.npm_config_electron_mirror || process.env.ELECTRON_MIRROR;
  process.stderr.write(
    `${SCRIPT}: Electron ${version}'s binary is not here yet: fetching it once (${platform}-${arch}, about 100 MB)` +
      ` ${mirror ? `from the mirror ${mirror}` : "from Electron's GitHub releases"}, checked against ` +
      `${remoteChecksums ? "the mirror's SHASUMS256.txt" : 'the checksums shipped in the electron package'}.\n`,
  );
}

const failure = ownElectron ? undefined : await runInstaller();
if (failure !== undefined) {
  fail([
    `Electron's binary is missing and could not be fetched, so the app cannot open.`,
    `Needed: Electron ${version} for ${platform}-${arch}, in ${path.relative(root, path.join(electronDir, 'dist')) || electronDir}.`,
    `Cause: ${failure}`,
    `Once online, run \`${SCRIPT}\` again (it fetches Electron first), or fetch Electron alone with \`npx install-electron\`.`,
    `Without access to GitHub, point at a mirror of Electron's releases: ELECTRON_MIRROR=https://your-mirror/electron/ ${SCRIPT}`,
    `(a mirror without this version's checksums in the electron package also needs electron_use_remote_checksums=1).`,
    `The perps command line, the simulator, \`npm run build\` and \`npm test\` need no Electron binary.`,
  ]);
}
if (firstFetch) process.stderr.write(`${SCRIPT}: Electron ${version} is installed (checksum verified).\n`);

/** Runs Electron's installer; resolves to the reason it failed, or undefined once the binary is in place. */
function runInstaller() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [fileURLToPath(new URL('installer.cjs', import.meta.url)), path.join(electronDir, 'install.js')], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit', 'pipe'],
    });
    let report = '';
    child.stdio[3].setEncoding('utf8').on('data', (chunk) => (report += chunk));
    child.on('error', (err) => resolve(`could not run Electron's installer (${err.message})`));
    child.on('close', (code, signal) => {
      if (code === 0 && fs.existsSync(pathFile)) resolve(undefined);
      // "Error: could not download ..." reads as "could not download ...": the kind of error says nothing.
      else resolve(report.trim().split('\n')[0]?.replace(/^\w*Error: /, '') || `Electron's installer stopped (${signal ?? `exit code ${code}`})`);
    });
  });
}

// electron-vite's own command line, run with this Node. It is told which binary to run (its
// ELECTRON_EXEC_PATH): the one of the electron package this project resolves and just installed, whatever
// copy of electron electron-vite itself would find from where it is installed.
const env = { ...process.env };
if (!ownElectron) env.ELECTRON_EXEC_PATH = path.join(electronDir, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
const evPackage = requireFromRoot.resolve('electron-vite/package.json');
const evBin = JSON.parse(fs.readFileSync(evPackage, 'utf8')).bin;
const evCli = path.join(path.dirname(evPackage), typeof evBin === 'string' ? evBin : evBin['electron-vite']);
const app = spawn(process.execPath, [evCli, mode, ...rest], { cwd: root, env, stdio: 'inherit' });
// Ctrl-C reaches electron-vite and Electron directly (same process group): this waits for them to finish.
// A signal sent to this process alone is passed on.
process.on('SIGINT', () => {});
for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => app.kill(signal));
app.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
