/**
 * Makes out/cli current before the tests that spawn bin/perps.js (the CLI tests, the benches), so they
 * run this checkout's code, never a stale bundle. The same check and the same build as bin/perps.js
 * (scripts/cli/stale.mjs, scripts/cli/build.mjs): nothing is built when out/cli is up to date with its
 * sources, and a build is made under a lock in a folder of its own, then moved into place whole.
 *
 * An unconditional build in place (this file's earlier form) emptied out/cli at every vitest start: a
 * second run beside the first (another terminal, another worktree's engineer) pulled the chunks from
 * under the first run's children, which died with ERR_MODULE_NOT_FOUND.
 */
import { cliStaleReason } from '../../scripts/cli/stale.mjs';
import { ensureCliBuilt } from '../../scripts/cli/build.mjs';
import { REPO_ROOT } from './paths.js';

export async function buildCli(): Promise<void> {
  const reason = cliStaleReason(REPO_ROOT);
  if (reason === undefined) return;
  await ensureCliBuilt({ root: REPO_ROOT, reason, isStale: () => cliStaleReason(REPO_ROOT) !== undefined });
}
