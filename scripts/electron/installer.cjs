// Runs Electron's own installer (node_modules/electron/install.js, the package's `install-electron` bin)
// for scripts/electron/launch.mjs, unchanged, with two additions that only shape its report:
//
// - fetch() failures name the URL and the network's reason ("fetch failed" alone says neither);
// - the installer reports a failure as `console.error(err.stack)`: the first line (the error itself) is
//   written to file descriptor 3 for the launcher, which prints one clear message instead of a stack.
//
// Everything else is the installer's: @electron/get with ELECTRON_MIRROR (and npm's electron_mirror),
// electron_config_cache, electron_use_remote_checksums and the checksums shipped in the package.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: Electron's installer is a CommonJS script run by require() */
const fs = require('node:fs');

const installer = process.argv[2];
const REPORT_FD = 3;

const realFetch = globalThis.fetch;
globalThis.fetch = async function fetchNamingTheUrl(input, init) {
  try {
    return await realFetch(input, init);
  } catch (err) {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const cause = err && err.cause ? err.cause : err;
    const reason = (cause && (cause.message || cause.code)) || String(err);
    throw new Error(`could not download ${url} (${reason})`);
  }
};

console.error = (...args) => {
  const text = args.map((a) => (a instanceof Error ? a.stack ?? a.message : String(a))).join(' ');
  const firstLine = text.split('\n').find((l) => l.trim() !== '') ?? 'the installer failed without saying why';
  try {
    fs.writeSync(REPORT_FD, `${firstLine}\n`);
  } catch {
    process.stderr.write(`${firstLine}\n`); // run by hand, without the launcher's descriptor
  }
};

require(installer);
