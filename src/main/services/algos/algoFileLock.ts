/**
 * The short write lock of an algorithm's files (its record, its run lock): the app and the command line
 * share the data folder, so a change asked from one terminal and the runner in another never lose each
 * other's writes. Busy for too long is `<code>_STORE_BUSY` (transient).
 */
import path from 'node:path';
import { withFileLockSync } from '../../files/recordLock.js';
import { OperationError } from '../errors.js';

export function withAlgoFileLock<T>(file: string, code: string, work: () => T): T {
  return withFileLockSync(file, (why, cause) => new OperationError(`${code}_STORE_BUSY`, `${path.basename(file)} ${why}`, { kind: 'transient', cause }), work);
}
