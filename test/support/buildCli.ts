/**
 * Builds the command line (out/cli) from the current sources with vite.cli.config.ts, so whatever spawns
 * bin/perps.js (the CLI tests, the benches) runs this checkout's code, never a stale bundle. About a
 * second.
 */
import path from 'node:path';
import { build } from 'vite';
import { REPO_ROOT } from './paths.js';

export async function buildCli(): Promise<void> {
  await build({ configFile: path.join(REPO_ROOT, 'vite.cli.config.ts'), logLevel: 'warn' });
}
