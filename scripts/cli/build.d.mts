/** Builds out/cli under `root` (locked, staged, moved into place whole) unless `isStale` says another process just did. */
export function ensureCliBuilt(options: { root: string; reason: string; isStale: () => boolean }): Promise<void>;
