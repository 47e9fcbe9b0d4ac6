// Builds the `perps` command line (out/cli) for bin/perps.js when it is missing or stale, in process,
// with vite.cli.config.ts (the same build as `npm run build:cli`).
//
// Several `perps` may start at once on a fresh clone (the README's `npx perps sim &` then `npx perps
// quickstart`): one builds under a lock while the others wait, then find the build fresh and use it. The
// bundle is written to a temporary folder beside out/cli and moved into place whole, so no process ever
// loads half a build.
import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

/** How long a waiting `perps` waits for another one's build before saying so (a build takes seconds). */
const LOCK_RETRIES = { retries: 240, factor: 1, minTimeout: 250, maxTimeout: 250 };

/**
 * Builds out/cli unless another process has just done it. Prints one line on stderr saying why it
 * builds; on failure prints what failed and exits 1 (stdout stays for the command's own output).
 */
export async function ensureCliBuilt({ root, reason, isStale }) {
  const outDir = path.join(root, 'out');
  fs.mkdirSync(outDir, { recursive: true });
  let release;
  try {
    release = await lockfile.lock(path.join(outDir, 'cli'), {
      realpath: false,
      lockfilePath: path.join(outDir, 'cli-build.lock'),
      retries: LOCK_RETRIES,
      stale: 30_000,
    });
  } catch (err) {
    fail(`another perps is building the command line and did not finish (${err.message}); remove out/cli-build.lock if no build is running`);
  }
  try {
    if (!isStale()) return; // another perps built it while this one waited
    process.stderr.write(`perps: building the command line (out/cli) because ${reason}; a few seconds, once.\n`);
    await buildInto(root, path.join(outDir, 'cli'));
  } catch (err) {
    fail(`could not build the command line: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await release();
  }
}

async function buildInto(root, target) {
  const staging = `${target}.building-${process.pid}`;
  const old = `${target}.old-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  try {
    const { build } = await import('vite');
    await build({ configFile: path.join(root, 'vite.cli.config.ts'), logLevel: 'warn', build: { outDir: staging, emptyOutDir: true } });
    if (fs.existsSync(target)) fs.renameSync(target, old);
    fs.renameSync(staging, target);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(old, { recursive: true, force: true });
  }
}

function fail(message) {
  process.stderr.write(`perps: ${message}\n`);
  process.exit(1);
}
