/**
 * The README's shell blocks, as a reader types them: the first ```sh block under a heading, one command
 * per line, with comment lines and trailing comments taken out (the commands themselves hold no #).
 */
export interface ReadmeCommand {
  /** The line as written, without its comment. */
  readonly line: string;
  /** Run in the background (`... &`). */
  readonly background: boolean;
  /** The `# ...` lines that follow it (example output). */
  readonly comments: readonly string[];
}

export function readmeBlock(readme: string, heading: string): ReadmeCommand[] {
  const lines = readme.split('\n');
  const at = lines.findIndex((l) => /^#{1,6} /.test(l) && l.replace(/^#+ /, '') === heading);
  if (at < 0) throw new Error(`README.md has no heading "${heading}"`);
  const open = lines.findIndex((l, i) => i > at && l.trim() === '```sh');
  const nextHeading = lines.findIndex((l, i) => i > at && /^#{1,6} /.test(l));
  if (open < 0 || (nextHeading >= 0 && open > nextHeading)) throw new Error(`README.md's "${heading}" has no sh block`);
  const close = lines.findIndex((l, i) => i > open && l.trim() === '```');
  const commands: { line: string; background: boolean; comments: string[] }[] = [];
  for (const raw of lines.slice(open + 1, close)) {
    const text = raw.trim();
    if (text === '') continue;
    if (text.startsWith('#')) {
      commands.at(-1)?.comments.push(text.slice(1).trim());
      continue;
    }
    const line = text.replace(/\s+#\s.*$/, '').trim();
    const background = line.endsWith(' &');
    commands.push({ line: background ? line.slice(0, -2).trim() : line, background, comments: [] });
  }
  return commands;
}
