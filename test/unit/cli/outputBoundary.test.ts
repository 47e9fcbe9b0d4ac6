/* eslint-disable no-control-regex -- these tests look for exactly the control characters the output boundary must remove */
/**
 * The command line's output boundary (issue 36, item 9): whatever a device, the service or a file put in
 * the text, stdout and stderr carry no control or bidi character; a table cell or a field is one line, so
 * a hostile fill's `dir` cannot forge a line; a JSON document still parses to exactly the same data.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Output, formatFields, formatTable } from '../../../src/cli/output.js';
import { OperationError } from '../../../src/main/services/errors.js';

class Capture extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: () => void): void {
    this.text += chunk.toString();
    cb();
  }
}

const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const FORGED = '\r\x1b[2K\x1b[1Asigned OK, sending withdrawal to 0x2222\n';
const hostileFill = { dir: `Open Long\x1b[2J\x1b]52;c;ZXZpbA==\x07${FORGED}\u202Egnol`, size: '0.5', price: '97000' };

function output(json: boolean): { out: Output; stdout: Capture; stderr: Capture } {
  const stdout = new Capture();
  const stderr = new Capture();
  return { out: new Output({ json, stdout, stderr }), stdout, stderr };
}

describe('the output boundary', () => {
  it('a fills table with a hostile dir prints clean, one row per fill', () => {
    const { out, stdout } = output(false);
    const table = formatTable([hostileFill, { dir: 'Close Long', size: '0.5', price: '97100' }], [
      { header: 'DIR', value: (f) => f.dir },
      { header: 'SIZE', value: (f) => f.size, align: 'right' },
      { header: 'PRICE', value: (f) => f.price, align: 'right' },
    ]);
    out.result({ fills: [hostileFill] }, () => `${table}\n${formatFields([['last dir', hostileFill.dir]])}`);
    expect(stdout.text).not.toMatch(CONTROLS);
    const lines = stdout.text.trimEnd().split('\n');
    // Header, rule, two rows, one field: the forged words stay inside their cell.
    expect(lines).toHaveLength(5);
    expect(lines.some((l) => l.startsWith('signed OK'))).toBe(false);
    expect(lines[2]).toContain('Open Long[2J]52;c;ZXZpbA== [2K[1Asigned OK, sending withdrawal to 0x2222 gnol');
  });

  it('a JSON document escapes what JSON.stringify leaves raw and parses to the same data', () => {
    const { out, stdout } = output(true);
    out.result({ fills: [hostileFill] }, 'unused');
    expect(stdout.text).not.toMatch(CONTROLS);
    expect(JSON.parse(stdout.text)).toEqual({ fills: [hostileFill] });
  });

  it('notes and failures (message, details, hint) are clean; a failure message is one line', () => {
    const { out, stderr } = output(false);
    out.note(`stored note: ${hostileFill.dir}`);
    const code = out.fail(new OperationError('SERVICE_ERROR', `the service said: ${hostileFill.dir}`, { kind: 'rejected', hint: `try \x1b]8;;http://x\x07this\x1b]8;;\x07` }));
    expect(code).toBe(1);
    expect(stderr.text).not.toMatch(CONTROLS);
    const errorLine = stderr.text.split('\n').find((l) => l.startsWith('error [SERVICE_ERROR]'))!;
    expect(errorLine).toContain('signed OK, sending withdrawal to 0x2222');
    // The carriage return and cursor moves that would have put "signed OK" over a line are gone.
    expect(stderr.text.split('\n').filter((l) => l.startsWith('signed OK'))).toEqual([]);
    expect(stderr.text).toContain('hint: try ]8;;http://xthis]8;;');
  });
});
