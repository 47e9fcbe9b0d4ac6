import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** ../shared beside the repo, as on every developer machine and in CI. */
export const SHARED_DIR = path.resolve(REPO_ROOT, '../shared');
