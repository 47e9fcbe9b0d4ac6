/**
 * Ways another process can drive a running Perps Desk, and so use its vault: Chromium's remote debugging
 * (--remote-debugging-port / --remote-debugging-pipe let it script the page and click "Sign and place"),
 * a Node inspector on the main process (--inspect*, or one already open), and NODE_OPTIONS that loads
 * code into main (--require, --import, --loader). The packaged build's fuses close the Node ones at the
 * binary (README, "Packaging"); Chromium's switches are not fuses, and a build without fuses has none of
 * this, so main looks for all of them itself when it starts and before every keychain access.
 *
 * Plain Node (no Electron): index.ts passes in what it knows (process.argv, execArgv, NODE_OPTIONS,
 * inspector.url(), app.commandLine.hasSwitch).
 */

export interface StartConditions {
  /** The process's command line (Electron puts Chromium and Node switches here). */
  argv: readonly string[];
  /** Node's own options (a node started with --inspect). */
  execArgv: readonly string[];
  /** The environment (NODE_OPTIONS). */
  env: Readonly<Record<string, string | undefined>>;
  /** inspector.url(): the URL of an open inspector, undefined when none is open. */
  inspectorUrl: string | undefined;
  /** Chromium's own parse of the command line (app.commandLine.hasSwitch), when there is one. */
  hasSwitch?: (name: string) => boolean;
}

const CHROMIUM_SWITCHES = ['remote-debugging-port', 'remote-debugging-pipe'] as const;
/**
 * Node's debugger switches (--inspect, --inspect-brk, --inspect-port, --inspect-wait, Electron's
 * --inspect-brk-node, and the old --debug ones), matched on the spelling normalised by nodeSpelling.
 */
const INSPECT_SWITCH = /^--(inspect(-brk-node|-brk|-port|-wait|-publish-uid)?|debug(-brk|-port)?)(=|$)/;
/**
 * NODE_OPTIONS entries that load code or hand key material out: -r/--require, --import,
 * --loader/--experimental-loader, --openssl-config (an OpenSSL config loads engine libraries), and
 * --heapsnapshot-signal (any process that may signal this one gets the heap, keys included, on disk).
 */
const CODE_LOADING_OPTION = /^(-r|--require|--import|--loader|--experimental-loader|--openssl-config|--heapsnapshot-signal)(=|$)/;

/**
 * An option as Node reads it: in a "--name" or "--name=value", Node takes "_" for "-" in the name
 * (its docs: "--pending-deprecation is equivalent to --pending_deprecation"), so "--experimental_loader"
 * and "--inspect_brk" are the same doors (issue 36). The value is left alone.
 */
function nodeSpelling(token: string): string {
  if (!token.startsWith('--')) return token;
  const eq = token.indexOf('=');
  const name = eq < 0 ? token : token.slice(0, eq);
  return name.replace(/_/g, '-') + (eq < 0 ? '' : token.slice(eq));
}

/** Chromium accepts "--name", "-name" and (Windows) "/name", with "=value" or not, in any letter case. */
function chromiumSwitchIn(argv: readonly string[], name: string): string | undefined {
  return argv.find((arg) => new RegExp(`^(--|-|/)${name}(=|$)`, 'i').test(arg));
}

/** NODE_OPTIONS split as Node splits it: on spaces, with double quotes grouping. */
function nodeOptionTokens(value: string): string[] {
  return [...value.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? '');
}

/** What is open, each as the user would name it ("--remote-debugging-port", "NODE_OPTIONS --require"). Empty: nothing. */
export function findDebugAccess(start: StartConditions): string[] {
  const found: string[] = [];
  for (const name of CHROMIUM_SWITCHES) {
    if (chromiumSwitchIn(start.argv, name) !== undefined || start.hasSwitch?.(name)) found.push(`--${name}`);
  }
  const inspectArgs = [...start.execArgv, ...start.argv].map((a) => nodeSpelling(a).match(INSPECT_SWITCH)?.[1]).filter((a): a is string => a !== undefined);
  for (const name of new Set(inspectArgs)) found.push(`--${name}`);
  if (start.inspectorUrl !== undefined && start.inspectorUrl !== '') found.push('an open inspector');
  const nodeOptions = start.env['NODE_OPTIONS'];
  if (nodeOptions) {
    const tokens = nodeOptionTokens(nodeOptions).map(nodeSpelling);
    const loading = new Set(tokens.map((t) => t.match(CODE_LOADING_OPTION)?.[1]).filter((t): t is string => t !== undefined));
    for (const option of loading) found.push(`NODE_OPTIONS ${option}`);
    const inspecting = new Set(tokens.map((t) => t.match(INSPECT_SWITCH)?.[1]).filter((t): t is string => t !== undefined));
    for (const option of inspecting) found.push(`NODE_OPTIONS --${option}`);
  }
  return found;
}

/** Why the vault stays closed (VaultError VAULT_CLOSED adds what to do). */
export function vaultRefusal(found: readonly string[]): string {
  return (
    `Perps Desk was started with a way for another program to control it (${found.join(', ')}), so the vault stays ` +
    'closed: no trading key or wallet in the keychain is read or written in this session'
  );
}
