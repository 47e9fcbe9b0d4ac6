/**
 * The portfolio's page walk (services/portfolio/readPortfolio.ts readEveryPage): every page is read at
 * the spec's 200-row maximum, a row repeated by a page shift is kept once, and a walk ending before the
 * `total` the service announced (a missing page) is reported instead of passing as the whole history.
 * The whole read has a deadline and can be cancelled (the app's Cancel: nothing more is asked).
 */
import { describe, expect, it } from 'vitest';
import { PortfolioReadBudget, readEveryPage, readPortfolioRecords, type PortfolioProgress } from '../../../src/main/services/portfolio/readPortfolio.js';

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

  it('issue 36 item 14: a total of 10^15 is refused at its first page, not paged toward for hours', async () => {
    let asked = 0;
    const err = await readEveryPage(
      'trade-history of BTC',
      async (offset) => {
        asked++;
        return { items: rows(offset, 200), total: 1e15 };
      },
      (r) => r.id,
      [],
    ).then(
      () => null,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(err).toMatchObject({ code: 'PORTFOLIO_UNREADABLE' });
    expect(err!.message).toContain('announces 1000000000000000 rows');
    expect(asked).toBe(1);
  });

  it('issue 36 item 14: a slow service meets the overall deadline; progress is reported page by page; no page is asked after it', async () => {
    // The deadline's clock moves 1 s with every page the service answers (a slow service), plausible total.
    let clock = 0;
    let asked = 0;
    const seen: PortfolioProgress[] = [];
    const budget = new PortfolioReadBudget({ deadlineMs: 10_000, now: () => clock, onProgress: (p) => seen.push(p) });
    const api = {
      tradeHistory: async (q: { offset?: number }) => {
        asked++;
        clock += 1000;
        return { fills: rows(q.offset ?? 0, 200).map((r) => ({ tid: `t${r.id}` })), total: 1_000_000 };
      },
      fundingHistory: async () => ({ payments: [], total: 0 }),
      allDepositHistory: async () => [],
      allWithdrawalHistory: async () => [],
    };
    const ctx = { api, config: { markets: async () => [{ symbol: 'BTC' }] } } as unknown as Parameters<typeof readPortfolioRecords>[0];
    const err = await readPortfolioRecords(ctx, '0x' + '1'.repeat(40), budget).then(
      () => null,
      (e: unknown) => e as { code: string; message: string; errorKind?: string },
    );
    expect(err).toMatchObject({ code: 'PORTFOLIO_DEADLINE' });
    // Ten trade-history pages (one a second) and the empty funding-history page; nothing asked after.
    expect(err!.message).toMatch(/stopped after 10 s: 11 page\(s\), 2000 row\(s\), 0 of 1 market\(s\) read/);
    expect(asked).toBe(10);
    expect(seen.map((p) => p.pages)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(seen.at(-1)).toMatchObject({ markets: 1, rows: 2000, elapsed_ms: 10_000 });
  });

  it('issue 36 item 14: a request that never answers ends at the deadline too', async () => {
    const budget = new PortfolioReadBudget({ deadlineMs: 200 });
    const started = Date.now();
    const err = await readEveryPage('trade-history of BTC', () => new Promise<never>(() => undefined), (r: { id: string }) => r.id, [], budget).then(
      () => null,
      (e: unknown) => e as { code: string },
    );
    expect(err).toMatchObject({ code: 'PORTFOLIO_DEADLINE' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('a cancelled read (the app\'s Cancel) asks nothing more of the service and fails with PORTFOLIO_CANCELLED, even mid-request', async () => {
    const controller = new AbortController();
    let asked = 0;
    let askedAtCancel = -1;
    const budget = new PortfolioReadBudget({
      signal: controller.signal,
      onProgress: (p) => {
        if (p.pages === 3) {
          askedAtCancel = asked;
          controller.abort();
        }
      },
    });
    const api = {
      // Pages answer at once until the cancel; the one asked after it would never answer.
      tradeHistory: (q: { offset?: number }) => {
        asked++;
        return controller.signal.aborted ? new Promise<never>(() => undefined) : Promise.resolve({ fills: rows(q.offset ?? 0, 200).map((r) => ({ tid: `t${r.id}` })), total: 1_000_000 });
      },
      fundingHistory: () => new Promise<never>(() => undefined),
      allDepositHistory: async () => [],
      allWithdrawalHistory: async () => [],
    };
    const ctx = { api, config: { markets: async () => [{ symbol: 'BTC' }] } } as unknown as Parameters<typeof readPortfolioRecords>[0];
    const err = await readPortfolioRecords(ctx, '0x' + '1'.repeat(40), budget).then(
      () => null,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(err).toMatchObject({ code: 'PORTFOLIO_CANCELLED', message: 'the portfolio read was cancelled after 3 page(s), 600 row(s), 0 of 1 market(s)' });
    expect(askedAtCancel).toBe(3);
    expect(asked).toBe(3);
  });
});

