/**
 * `--out FILE` of the command line (`keys authorize --out`, `withdraw --out`): the signed body goes to
 * FILE through main's atomic writer (random temporary name opened exclusively, 0600, fsync, rename),
 * and a symlink at FILE is refused, so a link planted in a shared folder never receives the body.
 */
import { writeFileAtomic, UnsafeTargetError } from '../main/files/atomicWrite.js';
import { OperationError } from '../main/services/errors.js';

/** Writes `text` to `file`, readable only by the user; failures name the file and say nothing was written. */
export async function writePrivateFile(file: string, text: string): Promise<void> {
  try {
    await writeFileAtomic(file, text);
  } catch (err) {
    if (err instanceof UnsafeTargetError) {
      throw new OperationError('UNSAFE_OUTPUT_FILE', `${err.message}; nothing was written and nothing was sent`, {
        cause: err,
        hint: 'Choose a path that is not a symbolic link, preferably in a folder only you can write to.',
      });
    }
    throw new OperationError('OUTPUT_WRITE_FAILED', `cannot write ${file}: ${(err as Error).message}; nothing was sent`, { cause: err });
  }
}
