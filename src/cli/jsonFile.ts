/**
 * Reading a user's JSON file (`keys submit FILE`, `withdraw submit FILE`, `order batch FILE`).
 *
 * A parse error must never quote the file: V8's JSON.parse messages do (`Unexpected token '0', "0x4c08..."
 * is not valid JSON`), and a file given to the wrong command may hold a private key. So the error says
 * where the file is malformed (line and column, 1-based) and what was expected there, located by
 * jsonc-parser (VS Code's JSON scanner, with comments and trailing commas disallowed), and nothing of
 * what the file holds. JSON.parse stays the judge of validity; jsonc-parser only locates its failure.
 */
import { readFile } from 'node:fs/promises';
import { printParseErrorCode, visit, type ParseErrorCode } from 'jsonc-parser';
import { ValidationError } from '../main/services/errors.js';

export interface JsonFileOptions {
  /** What the file should hold, for the message: "a JSON register body". */
  what: string;
  /** ValidationError field and code of the caller's command. */
  field: string;
  code?: string;
}

const EXPECTATIONS: Partial<Record<ReturnType<typeof printParseErrorCode>, string>> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'a property name in double quotes is expected',
  ValueExpected: 'a value is expected',
  ColonExpected: 'a colon is expected',
  CommaExpected: 'a comma is expected',
  CloseBraceExpected: "a closing '}' is expected",
  CloseBracketExpected: "a closing ']' is expected",
  EndOfFileExpected: 'the JSON value should have ended',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut short',
  InvalidUnicode: 'a malformed \\u escape',
  InvalidEscapeCharacter: 'a malformed escape in a string',
  InvalidCharacter: 'a control character inside a string',
};

/** Where and why `text` is not JSON, with no byte of `text` in the answer; null if not located. */
export function jsonSyntaxErrorAt(text: string): { line: number; column: number; problem: string } | null {
  let first: { line: number; column: number; problem: string } | null = null;
  visit(
    text,
    {
      onError: (error: ParseErrorCode, _offset, _length, startLine, startCharacter) => {
        if (first) return;
        const name = printParseErrorCode(error);
        first = { line: startLine + 1, column: startCharacter + 1, problem: EXPECTATIONS[name] ?? 'malformed JSON' };
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  return first;
}

/** Parses `text` as JSON; a syntax error becomes a ValidationError naming `file`, line and column only. */
export function parseJsonText(text: string, file: string, options: JsonFileOptions): unknown {
  // Editors on Windows may save a byte-order mark, which JSON.parse refuses; it is not content.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch {
    // The SyntaxError is not kept (not even as the cause): its message quotes the file.
    const at = jsonSyntaxErrorAt(body);
    const where = at ? `at line ${at.line}, column ${at.column}: ${at.problem}` : '(the position could not be located)';
    throw new ValidationError(`${file} is not ${options.what}: not valid JSON ${where}`, {
      field: options.field,
      ...(options.code !== undefined ? { code: options.code } : {}),
      hint: 'Check that this is the right file; its content is not shown, since a file given by mistake may hold a secret.',
    });
  }
}

/** Reads and parses `file`; read and syntax errors are ValidationErrors that never quote the file. */
export async function readJsonFile(file: string, options: JsonFileOptions): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    // fs messages name the path and the reason (ENOENT, EACCES), never the content.
    throw new ValidationError(`cannot read ${options.what} from ${file}: ${(err as Error).message}`, {
      field: options.field,
      ...(options.code !== undefined ? { code: options.code } : {}),
      cause: err,
    });
  }
  return parseJsonText(text, file, options);
}
