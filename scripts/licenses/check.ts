/**
 * The dependency gate (`npm run licenses`, run by .ci/run): every production dependency's licence must
 * pass scripts/licenses/policy.ts. Prints the licence table of the production tree and each refused
 * package with the reason; exits 1 when any is refused or the tree cannot be read.
 *
 *   tsx scripts/licenses/check.ts [--start DIR]     (default: the repository)
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { judgeLicense } from './policy.js';
import { productionTree, type PackageLicense } from './productionTree.js';

export interface GateResult {
  packages: PackageLicense[];
  /** Licence (as declared) -> how many packages carry it. */
  table: Map<string, number>;
  refused: { id: string; reason: string }[];
}

export async function runGate(start: string): Promise<GateResult> {
  const packages = await productionTree(start);
  const table = new Map<string, number>();
  const refused: { id: string; reason: string }[] = [];
  for (const p of packages) {
    const shown = Array.isArray(p.licenses) ? p.licenses.join(' AND ') : (p.licenses ?? 'UNKNOWN');
    table.set(shown, (table.get(shown) ?? 0) + 1);
    const verdict = judgeLicense(p.licenses);
    if (!verdict.ok) refused.push({ id: p.id, reason: verdict.reason });
  }
  return { packages, table: new Map([...table].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))), refused };
}

export function formatTable(table: Map<string, number>): string {
  const width = Math.max(...[...table.keys()].map((k) => k.length), 'Licence'.length);
  return [`${'Licence'.padEnd(width)}  Packages`, ...[...table].map(([licence, n]) => `${licence.padEnd(width)}  ${n}`)].join('\n');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const at = args.indexOf('--start');
  const start = at >= 0 && args[at + 1] ? path.resolve(args[at + 1]!) : path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const result = await runGate(start);
  console.log(`Production dependencies: ${result.packages.length}`);
  console.log(formatTable(result.table));
  if (result.refused.length > 0) {
    console.error(`\nRefused licences (${result.refused.length}):`);
    for (const r of result.refused) console.error(`  ${r.id}: ${r.reason}`);
    console.error('\nReplace the dependency, or review its licence and extend scripts/licenses/policy.ts with the reason.');
    process.exit(1);
  }
  console.log('\nEvery production dependency has an allowed licence.');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(`licence gate: ${(err as Error).message}`);
    process.exit(1);
  });
}
