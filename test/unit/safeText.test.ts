/* eslint-disable no-control-regex -- these tests look for exactly the control characters the output boundary must remove */
/**
 * Text from a device, a service or a file reaches a terminal or a notification without a control or bidi
 * character (issue 36, item 9): the attacks of the report (clear screen, OSC 52 clipboard write, a
 * forged "signed OK" line, a right-to-left override) and every code point a property run can find.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonForTerminal, oneLineText, terminalText } from '../../src/shared/safeText.js';

const DANGEROUS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029\uFEFF]/;

describe('safe text for terminals and notifications', () => {
  it('the report’s attacks lose every control: clear screen, OSC 52, a forged line, a right-to-left override', () => {
    const clear = 'Safe 5\x1b[2J\x1b[H';
    const osc52 = 'label\x1b]52;c;ZWNobyBoaQ==\x07';
    const forged = 'Cancelled\r\x1b[2K\x1b[1Asigned OK, sending withdrawal to 0xabc';
    const rlo = 'Open Long\u202Egnol\u202C';
    const c1 = 'x\u009b2Jy\u009d52;c;AA\u009c';
    for (const text of [clear, osc52, forged, rlo, c1]) {
      expect(terminalText(text)).not.toMatch(DANGEROUS);
      expect(oneLineText(text)).not.toMatch(DANGEROUS);
    }
    expect(terminalText(clear)).toBe('Safe 5[2J[H');
    expect(oneLineText(forged)).toBe('Cancelled [2K[1Asigned OK, sending withdrawal to 0xabc');
    expect(oneLineText(rlo)).toBe('Open Longgnol');
  });

  it('a document keeps its lines and tabs; a field never starts a line of its own', () => {
    expect(terminalText('a\tb\nc\r\nd\re')).toBe('a\tb\nc\r\nde');
    expect(oneLineText('note\nsigned OK, sending withdrawal')).toBe('note signed OK, sending withdrawal');
    expect(oneLineText('a\r\n\tb')).toBe('a b');
  });

  it('plain text, accents, CJK and emoji pass unchanged', () => {
    for (const text of ['BTC-PERP 97,000.5', 'Zürich café', '比特币', 'rocket 🚀', 'أ ب ت']) {
      expect(terminalText(text)).toBe(text);
      expect(oneLineText(text)).toBe(text);
    }
  });

  it('for any string: no control or bidi character remains, and printable text is never dropped', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const doc = terminalText(text);
        const line = oneLineText(text);
        // A CR survives only as part of a CRLF line ending.
        expect(doc.replace(/\r\n/g, '\n')).not.toMatch(DANGEROUS);
        expect(line).not.toMatch(DANGEROUS);
        expect(line).not.toMatch(/[\n\t]/);
        // What is removed is only what is dangerous (and line breaks, which a field turns into spaces).
        expect(line.replace(/ /g, '')).toBe(text.replace(/[\r\n\t ]/g, '').replace(new RegExp(DANGEROUS.source, 'g'), ''));
      }),
      { numRuns: 1000 },
    );
  });

  it('a JSON document parses to the same data, with DEL, C1 and bidi escaped', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string({ unit: 'binary', maxLength: 50 }), (value, text) => {
        const doc = { value, text };
        const json = jsonForTerminal(JSON.stringify(doc, null, 2));
        expect(json).not.toMatch(DANGEROUS);
        expect(JSON.parse(json)).toEqual(JSON.parse(JSON.stringify(doc)));
      }),
      { numRuns: 500 },
    );
  });
});
