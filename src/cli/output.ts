/**
 * Output and exit codes of the `perps` command, one contract for every subcommand:
 *  - with --json, stdout carries exactly one JSON document: the command's result on success, or
 *    { "error": { code, message, hint?, exit_code, ... } } on failure. Nothing else is written to stdout,
 *    so scripts can pipe it straight into a JSON parser.
 *  - without --json, results are human text (tables for lists) on stdout; errors go to stderr as
 *    "error [CODE]: message" plus a "hint:" line.
 *  - exit codes: 0 success, 1 the operation failed (service rejection, network, keychain), 2 bad usage or
 *    a validation error (nothing was signed or sent). Commander's own usage errors also exit 2.
 */
import type { Writable } from 'node:stream';
import { describeFailure, type FailureDescription } from '../main/services/errors.js';
import { jsonForTerminal, oneLineText, terminalText } from '../shared/safeText.js';

/**
 * The output boundary (issue 36): text from a device, the service or a file never reaches the terminal
 * with a control or bidi character. Human text keeps its lines; a JSON document stays exact data.
 */
export function forTerminal(text: string, json = false): string {
  return json ? jsonForTerminal(text) : terminalText(text);
}

export interface OutputOptions {
  json: boolean;
  stdout?: Writable;
  stderr?: Writable;
}

export interface Column<R> {
  header: string;
  /** Cell text of a row. */
  value: (row: R) => string;
  /** Numbers read best right-aligned. */
  align?: 'left' | 'right';
}

/** A fixed-width text table; an empty list prints `empty` instead of a header with no rows. */
export function formatTable<R>(rows: readonly R[], columns: readonly Column<R>[], empty = '(none)'): string {
  if (rows.length === 0) return empty;
  // A cell is one line whatever its data holds (a hostile fill's dir cannot start a line of its own).
  const cells = rows.map((r) => columns.map((c) => oneLineText(c.value(r))));
  // A loop, not Math.max(...cells): spreading 200,000 rows as arguments overflows the call stack.
  const widths = columns.map((c, i) => cells.reduce((w, row) => Math.max(w, row[i]!.length), c.header.length));
  const line = (values: string[]): string =>
    values
      .map((v, i) => (columns[i]!.align === 'right' ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** "key: value" lines, aligned. */
export function formatFields(fields: readonly (readonly [string, string])[]): string {
  const width = Math.max(0, ...fields.map(([k]) => k.length));
  return fields.map(([k, v]) => `${(k + ':').padEnd(width + 1)} ${oneLineText(v)}`).join('\n');
}

/**
 * A time in a table or a result as a trader reads it: the machine's local time with its UTC offset
 * ("2026-12-06 09:30:00 +01:00"), so it matches the clock on the wall and is still unambiguous. --json
 * and --csv keep the service's Unix ms.
 */
export function formatTime(ms: number | null | undefined): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '-';
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  const off = -d.getTimezoneOffset();
  const offset = `${off < 0 ? '-' : '+'}${p(Math.floor(Math.abs(off) / 60))}:${p(Math.abs(off) % 60)}`;
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())} ${offset}`;
}

/** JSON document of a failure (snake_case like the service's own fields). */
export function failureDocument(f: FailureDescription): { error: Record<string, unknown> } {
  const error: Record<string, unknown> = { code: f.code, message: f.message, exit_code: f.exitCode };
  if (f.hint) error['hint'] = f.hint;
  if (f.status !== undefined) error['status'] = f.status;
  if (f.details) Object.assign(error, f.details);
  return { error };
}

export class Output {
  readonly json: boolean;
  private readonly stdout: Writable;
  private readonly stderr: Writable;
  private wroteDocument = false;

  constructor(options: OutputOptions) {
    this.json = options.json;
    this.stdout = options.stdout ?? process.stdout;
    this.stderr = options.stderr ?? process.stderr;
  }

  /**
   * The command's result: `data` as the JSON document with --json, else the human rendering. Call once
   * per command; a second call is a bug (it would break the one-document contract) and throws.
   */
  result(data: unknown, human: string | (() => string)): void {
    if (this.wroteDocument) throw new Error('a command printed two results; --json allows exactly one document');
    this.wroteDocument = true;
    if (this.json) this.stdout.write(forTerminal(JSON.stringify(data, null, 2), true) + '\n');
    else {
      const text = forTerminal(typeof human === 'string' ? human : human());
      this.stdout.write(text.endsWith('\n') ? text : text + '\n');
    }
  }

  /** A note for people (warnings, "this is a preview"): stderr, and never with --json. */
  note(text: string): void {
    if (this.json) return;
    const safe = forTerminal(text);
    this.stderr.write(safe.endsWith('\n') ? safe : safe + '\n');
  }

  /** Reports a failure and returns the exit code (1 or 2). */
  fail(err: unknown): 1 | 2 {
    const f = describeFailure(err);
    const line = (text: string): string => oneLineText(text);
    if (this.json) {
      if (!this.wroteDocument) {
        this.wroteDocument = true;
        this.stdout.write(forTerminal(JSON.stringify(failureDocument(f), null, 2), true) + '\n');
      } else {
        // The result is already out; the failure still reaches a person through stderr.
        this.stderr.write(`error [${line(f.code)}]: ${line(f.message)}\n`);
      }
    } else {
      this.stderr.write(`error [${line(f.code)}]: ${line(f.message)}\n`);
      if (f.details) for (const [k, v] of Object.entries(f.details)) this.stderr.write(`  ${line(k)}: ${line(typeof v === 'string' ? v : JSON.stringify(v))}\n`);
      if (f.hint) this.stderr.write(`hint: ${line(f.hint)}\n`);
    }
    return f.exitCode;
  }
}

/**
 * Runs one command's action with the output contract: the exit code lands in process.exitCode (never
 * process.exit, so pending output is flushed before Node exits). The action returns 1 to report a
 * failed operation after printing its result document; thrown errors print the failure document.
 */
export async function runAction(options: OutputOptions, action: (out: Output) => Promise<void | 1>): Promise<void> {
  const out = new Output(options);
  try {
    // An action may print its result and still report failure (1), e.g. a batch where one item failed.
    process.exitCode = (await action(out)) ?? 0;
  } catch (err) {
    process.exitCode = out.fail(err);
  }
}
