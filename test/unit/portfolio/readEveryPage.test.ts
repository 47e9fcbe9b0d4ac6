/**
 * The portfolio's page walk (services/portfolio/readPortfolio.ts readEveryPage): every page is read at
 * the spec's 200-row maximum, a row repeated by a page shift is kept once, and a walk ending before the
 * `total` the service announced (a missing page) is reported instead of passing as the whole history.
 */
import { describe, expect, it } from 'vitest';
import { readEveryPage } from '../../../src/main/services/portfolio/readPortfolio.js';

const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ id: String(from + i) }));

describe('readEveryPage', () => {
  it('reads every page of 200 and keeps a row repeated by a page shift once', async () => {
    const asked: [number, number][] = [];
    const issues: string[] = [];
    // Newest first: a new row ("n") arrives after the first page, shifting the older rows down by one.
    let arrived = false;
    const list = () => (arrived ? [{ id: 'n' }, ...rows(0, 450)] : rows(0, 450));
    const got = await readEveryPage(
      'trade-history of BTC',
      async (offset, limit) => {
        asked.push([offset, limit]);
        const page = { items: list().slice(offset, offset + limit), total: list().length };
        arrived = true;
        return page;
      },
      (r) => r.id,
      issues,
    );
    expect(asked.map(([, l]) => l).every((l) => l === 200)).toBe(true);
    expect(new Set(got.map((r) => r.id)).size).toBe(got.length);
    expect(got.length).toBe(451);
    expect(issues).toEqual([]);
  });

  it('reports a missing page: an empty page before the announced total', async () => {
    const issues: string[] = [];
    const got = await readEveryPage('funding-history of ETH', async (offset) => (offset === 0 ? { items: rows(0, 200), total: 600 } : { items: [], total: 600 }), (r) => r.id, issues);
    expect(got.length).toBe(200);
    expect(issues).toEqual(['funding-history of ETH: 200 of 600 rows could be read (a page is missing)']);
  });
});
