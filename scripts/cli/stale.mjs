// Whether out/cli is up to date with its sources: read by bin/perps.js before every run and by the
// tests' global setup before any test. out/cli/inputs.json (written by the build) lists the files the
// bundle was made from and when the build started; a file changed (or gone) since makes it stale. A few
// hundred stat calls, about a millisecond; no dependency, so bin/perps.js loads nothing more for it.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** Why out/cli under `root` must be (re)built, or undefined when it is up to date with its sources. */
export function cliStaleReason(root) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(root, 'out/cli/inputs.json'), 'utf8'));
    statSync(path.join(root, 'out/cli/main.js'));
  } catch {
    return 'it is not built yet';
  }
  if (typeof manifest?.startedAt !== 'number' || !Array.isArray(manifest.files)) return 'its build record is unreadable';
  for (const file of manifest.files) {
    let mtime;
    try {
      mtime = statSync(path.join(root, file)).mtimeMs;
    } catch {
      return `${file} is gone`;
    }
    if (mtime > manifest.startedAt) return `${file} changed since it was built`;
  }
  return undefined;
}
