/**
 * Issue 35.5: tables show local time with its offset; --json keeps Unix ms. Run under two time zones in
 * child processes of node (TZ is read when a process starts), each formatting the same instant.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatTime } from '../../../src/cli/output.js';
import { REPO_ROOT } from '../../support/paths.js';

const AT = Date.UTC(2026, 11, 6, 8, 30, 5);

function formatIn(tz: string): string {
  const script = `import('${path.join(REPO_ROOT, 'src/cli/output.ts')}').then((m) => process.stdout.write(m.formatTime(${AT})))`;
  return execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: REPO_ROOT, env: { ...process.env, TZ: tz }, encoding: 'utf8' });
}

describe('formatTime', () => {
  it('is the local wall-clock time with its UTC offset, in any zone', () => {
    expect(formatIn('UTC')).toBe('2026-12-06 08:30:05 +00:00');
    expect(formatIn('Asia/Kolkata')).toBe('2026-12-06 14:00:05 +05:30');
    expect(formatIn('America/New_York')).toBe('2026-12-06 03:30:05 -05:00');
  });

  it('reads back as the same instant; no time is a dash', () => {
    const text = formatTime(AT);
    const [date, time, off] = text.split(' ');
    expect(Date.parse(`${date}T${time}${off}`)).toBe(AT);
    expect(formatTime(null)).toBe('-');
    expect(formatTime(undefined)).toBe('-');
  });
});
