/** Why out/cli under `root` must be (re)built, or undefined when it is up to date with its sources. */
export function cliStaleReason(root: string): string | undefined;
