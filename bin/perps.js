#!/usr/bin/env node
// Runs the built command line (out/cli, made by `npm run build`, `npm install` or `npm run build:cli`):
// plain JavaScript, so start-up pays for no TypeScript compiler.
import { existsSync } from 'node:fs';

const entry = new URL('../out/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('perps: the command line is not built (out/cli/main.js is missing). Run `npm run build` in the Perps Desk folder.\n');
  process.exit(1);
}
const { run } = await import(entry.href);
await run();
