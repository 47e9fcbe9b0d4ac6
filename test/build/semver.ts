/**
 * npm's own range logic (the semver package npm and its tools depend on; not a direct dependency, and
 * untyped), for the engines checks: what npm compares a package's `engines.node` with is what they use.
 */
import { createRequire } from 'node:module';

interface Semver {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
  major(version: string): number;
  minor(version: string): number;
}

export const semver = createRequire(import.meta.url)('semver') as Semver;
