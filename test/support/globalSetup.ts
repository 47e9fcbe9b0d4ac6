/**
 * vitest's global setup: build out/cli before any test file runs. The CLI tests spawn bin/perps.js,
 * which runs the built bundle; building here means `npx vitest run` alone always tests the sources.
 */
import { buildCli } from './buildCli.js';

export default async function setup(): Promise<void> {
  await buildCli();
}
