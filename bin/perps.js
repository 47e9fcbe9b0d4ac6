#!/usr/bin/env node
// Runs the built command line (out/cli): plain JavaScript, so start-up pays for no TypeScript compiler.
//
// There is no `prepare` script to build it at install time (under .npmrc's strict-allow-scripts the
// project's own script made every `npx perps` fail), so this file builds it when it is missing or older
// than its sources: on the first run in a fresh clone, and after a source change or a `git pull`. The
// check reads out/cli/inputs.json (the files the bundle was made from, written by the build) and
// compares their modification times with the build's start: a few hundred stat calls, about a
// millisecond. The build itself (scripts/cli/build.mjs) is loaded only when it is needed.
import { readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MIN_NODE = [20, 19];
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < MIN_NODE[0] || (major === MIN_NODE[0] && minor < MIN_NODE[1])) {
  process.stderr.write(`perps: Node ${MIN_NODE.join('.')} or newer is needed (this is ${process.version}). See README, "Which Node".\n`);
  process.exit(1);
}

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = new URL('../out/cli/main.js', import.meta.url);

/** Why out/cli must be (re)built, or undefined when it is up to date with its sources. */
function staleReason() {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(new URL('../out/cli/inputs.json', import.meta.url), 'utf8'));
    statSync(entry);
  } catch {
    return 'it is not built yet';
  }
  if (typeof manifest?.startedAt !== 'number' || !Array.isArray(manifest.files)) return 'its build record is unreadable';
  for (const file of manifest.files) {
    let mtime;
    try {
      mtime = statSync(new URL(`../${file}`, import.meta.url)).mtimeMs;
    } catch {
      return `${file} is gone`;
    }
    if (mtime > manifest.startedAt) return `${file} changed since it was built`;
  }
  return undefined;
}

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
