/**
 * A saved snapshot that its part's restore refuses: the venue's, the companions' or the engine's part of a
 * state file's head, or one of its records, is not of the shape or content that part saves (a damaged or
 * edited file). Whatever restores from outside input throws this; startSimulator reports it as the state
 * file's refusal (StateFileError, naming the file), which the command line answers with exit 2.
 */
export class SnapshotError extends Error {}
