#!/usr/bin/env node
// Runs the built command line (out/cli): plain JavaScript, so start-up pays for no TypeScript compiler.
//
// There is no `prepare` script to build it at install time (under .npmrc's strict-allow-scripts the
// project's own script made every `npx perps` fail), so this file builds it when it is missing or older
// than its sources: on the first run in a fresh clone, and after a source change or a `git pull`. The
// check reads out/cli/inputs.json (the files the bundle was made from, written by the build) and
// compares their modification times with the build's start: a few hundred stat calls, about a
// millisecond. The build itself (scripts/cli/build.mjs) is loaded only when it is needed.
import { fileURLToPath } from 'node:url';

const MIN_NODE = [20, 19];
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) {
  process.stderr.write(`perps: Node ${MIN_NODE.join('.')} or newer is needed (this is ${process.version}). See README, "Which Node".\n`);
  process.exit(1);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = new URL('../out/cli/main.js', import.meta.url);

// The check is shared with the tests' global setup (scripts/cli/stale.mjs). A bin/perps.js copied without
// its checkout cannot load it: then it goes on to say the command line cannot be built here.
const staleReason = await import('../scripts/cli/stale.mjs').then(
  ({ cliStaleReason }) => () => cliStaleReason(root),
  () => () => 'its build record cannot be checked',
);

const reason = staleReason();
if (reason !== undefined) {
  let ensureCliBuilt;
  try {
    ({ ensureCliBuilt } = await import('../scripts/cli/build.mjs'));
  } catch (err) {
    // A bin/perps.js without its checkout (copied alone, or node_modules missing): say what to do.
    const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
    process.stderr.write(`perps: the command line is not built (${reason}) and could not be built here (${why}). Run \`npm run build\` in the Perps Desk folder, after \`npm install\`.\n`);
    process.exit(1);
  }
  await ensureCliBuilt({ root, reason, isStale: () => staleReason() !== undefined });
}
const { run } = await import(entry.href);
await run();
