/**
 * The follower's log limiter (src/sim/venue/follow/logLimiter.ts), issue 26 item 6: at most N lines of a
 * kind per window, then one line saying how many were suppressed; kinds do not starve each other.
 */
import { describe, expect, it } from 'vitest';
import { LogLimiter, MAX_LINE_CHARS } from '../../../src/sim/venue/follow/logLimiter.js';

describe('LogLimiter', () => {
  it('writes N lines of a kind per window, then one summary of the suppressed ones', () => {
    let now = 1000;
    const lines: string[] = [];
    const limiter = new LogLimiter((line) => lines.push(line), { perWindow: 3, windowMs: 1000, now: () => now });
    for (let i = 0; i < 10_000; i++) limiter.line('malformed', `bad ${i}`);
    limiter.line('held BTC', 'held');
    expect(lines).toEqual(['bad 0', 'bad 1', 'bad 2', 'held']);
    // Not before the window is over.
    now += 999;
    limiter.flush();
    expect(lines).toHaveLength(4);
    now += 1;
    limiter.flush();
    expect(lines.slice(4)).toEqual(['[sim follow] suppressed 9997 similar lines (malformed) in 1000 ms']);
    // A new window writes again.
    limiter.line('malformed', 'bad again');
    expect(lines.at(-1)).toBe('bad again');
    limiter.stop();
  });

  it('summarises a window when the next line of the kind comes after it, and on stop', () => {
    let now = 0;
    const lines: string[] = [];
    const limiter = new LogLimiter((line) => lines.push(line), { perWindow: 1, windowMs: 100, now: () => now });
    limiter.line('a', 'a1');
    limiter.line('a', 'a2');
    now = 150;
    limiter.line('a', 'a3');
    expect(lines).toEqual(['a1', '[sim follow] suppressed 1 similar line (a) in 100 ms', 'a3']);
    limiter.line('a', 'a4');
    limiter.stop();
    expect(lines.at(-1)).toBe('[sim follow] suppressed 1 similar line (a) in 100 ms');
  });

  it('writes the summary by itself once the window is over (a flood that then stops is still reported)', async () => {
    const lines: string[] = [];
    const limiter = new LogLimiter((line) => lines.push(line), { perWindow: 1, windowMs: 50 });
    limiter.line('flood', 'first');
    for (let i = 0; i < 100; i++) limiter.line('flood', 'more');
    await new Promise((r) => setTimeout(r, 200));
    expect(lines).toEqual(['first', '[sim follow] suppressed 100 similar lines (flood) in 50 ms']);
    limiter.stop();
  });

  it('writes what the upstream sent as one printable line: no escape sequences or newlines, cut to a length', () => {
    const lines: string[] = [];
    const limiter = new LogLimiter((line) => lines.push(line));
    limiter.line('malformed', 'not JSON: \u001b[2J\u001b[31mRED\nfake line\r');
    limiter.line('malformed', 'x'.repeat(10_000));
    expect(lines[0]).toBe('not JSON: \ufffd[2J\ufffd[31mRED\ufffdfake line\ufffd');
    expect(lines[1]).toHaveLength(MAX_LINE_CHARS + 1);
    limiter.stop();
  });
});
