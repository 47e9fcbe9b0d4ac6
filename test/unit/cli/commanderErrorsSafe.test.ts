/**
 * Commander's own usage errors quote what was typed (an unknown option, an option's refused argument). A
 * pasted escape sequence (a screen clear, an OSC 52 clipboard write, a bidi override) must not reach the
 * terminal as typed (issue 36, item 9): the message is printed as terminal text, and the --json document
 * keeps the text with its controls escaped. Exit 2 either way; nothing runs.
 */
import { describe, expect, it } from 'vitest';
import { perpsInProcess } from '../../support/perpsInProcess.js';

const HOSTILE = ['\u001b[2J', '\u001b]52;c;cGF5bWU=\u0007', '\u202E', '\u009b31m'];
// eslint-disable-next-line no-control-regex -- the control characters are what is looked for
const RAW = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

describe("commander's usage errors on a terminal", () => {
  for (const bad of HOSTILE) {
    const shown = JSON.stringify(bad);
    it(`an unknown option ${shown} is exit 2, named without its control characters`, async () => {
      const r = await perpsInProcess(['markets', `--x${bad}y`]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/unknown option '--x.*y'/);
      expect(r.stderr).not.toMatch(RAW);
    });

    it(`a refused option argument ${shown} is exit 2, named without its control characters, and so is its --json document`, async () => {
      const r = await perpsInProcess(['sim', '--seed', `1${bad}`]);
      expect(r.code).toBe(2);
      expect(r.stderr).not.toMatch(RAW);
      const j = await perpsInProcess(['--json', 'markets', `--x${bad}y`]);
      expect(j.code).toBe(2);
      expect(j.stdout + j.stderr).not.toMatch(RAW);
      expect(JSON.parse(j.stdout)).toMatchObject({ error: { code: 'USAGE', exit_code: 2 } });
    });
  }
});
