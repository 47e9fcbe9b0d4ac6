/** The Points view's "last N days" range (src/renderer/src/ipc/companionQueries.ts), worked out when the read is made. (A .dom.test: typechecked with the renderer's DOM types.) */
import { describe, expect, it } from 'vitest';
import { lastDaysRange } from '../../../src/renderer/src/ipc/companionQueries.js';

describe('the last N days of points', () => {
  it('runs from local midnight N days back to the last millisecond of today', () => {
    const now = new Date(2026, 10, 25, 23, 59, 50).getTime();
    const r = lastDaysRange(30, now);
    expect(r.from).toBe(new Date(2026, 9, 26).getTime());
    expect(r.to).toBe(new Date(2026, 10, 26).getTime() - 1);
  });

  it('past midnight the range ends a day later, so what is credited after midnight is in it', () => {
    const before = lastDaysRange(30, new Date(2026, 10, 25, 23, 59, 59).getTime());
    const after = lastDaysRange(30, new Date(2026, 10, 26, 0, 0, 5).getTime());
    const creditedAt = new Date(2026, 10, 26, 0, 0, 1).getTime();
    expect(creditedAt).toBeGreaterThan(before.to);
    expect(creditedAt).toBeGreaterThanOrEqual(after.from);
    expect(creditedAt).toBeLessThanOrEqual(after.to);
  });
});
