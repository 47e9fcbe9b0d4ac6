/**
 * Account reads through the services: every page walked (order-history beyond the 200-row page, open
 * orders beyond the default 10), the market filters, trade and funding history, and CSV export (RFC 4180
 * quoting, decimal strings written exactly as the service sent them).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { ValidationError } from '../../../src/main/services/errors.js';
import { cancelAll, placeOrders, type LegInput } from '../../../src/main/services/orders/index.js';
import { waitForPosition } from '../../../src/main/services/positions/index.js';
import {
  FILL_CSV_COLUMNS,
  FUNDING_CSV_COLUMNS,
  ORDER_CSV_COLUMNS,
  csvField,
  readBalance,
  readFundingHistory,
  readOpenOrders,
  readOrderHistory,
  readPositions,
  readTradeHistory,
  readTriggers,
  toCsv,
} from '../../../src/main/services/reads/index.js';
import { TradingWorld, Trader, priceAt, sizeFor } from '../orders/tradingWorld.js';

let w: TradingWorld;
let t: Trader;
const SYM = 'SOL';
beforeAll(async () => {
  w = await TradingWorld.boot('reads');
  t = await w.trader();
});
afterAll(async () => {
  await w?.stop();
});

/** A minimal RFC 4180 parser for checking what was written. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field).toBe('');
  return rows;
}

function resting(count: number, mark: Decimal, offset: number): LegInput[] {
  const m = w.market(SYM);
  return Array.from({ length: count }, (_, i) => {
    const price = new Decimal(priceAt(m, mark, 0.8)).minus(new Decimal(m.tick_size).mul(offset + i));
    return { market: SYM, side: 'BUY', size: sizeFor(m, price), order_type: 'LIMIT', limit_price: price.toFixed() };
  });
}

describe('reads', () => {
  it('walks every page: open orders past the default 10, order history past 200 rows', async () => {
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const perRound = Math.min(40, m.max_open_orders);
    let offset = 0;
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < perRound; i += 20) {
        await placeOrders(w.ctx, { wallet: t.wallet, legs: resting(Math.min(20, perRound - i), mark, offset) });
        offset += 20;
      }
      await w.advance(1_000);
      if (round < 3) {
        const open = await readOpenOrders(w.ctx, t.wallet);
        expect(open.length).toBe(perRound);
        const res = await cancelAll(w.ctx, { wallet: t.wallet, market: SYM });
        expect(res.remaining).toEqual([]);
      }
    }
    const from = w.requests.length;
    const history = await readOrderHistory(w.ctx, t.wallet);
    const pages = w.since(from).filter((r) => r.path === '/account/order-history').length;
    const total = (await w.ctx.api.orderHistory({ wallet: t.wallet, limit: 1 })).total;
    expect(total).toBeGreaterThan(200);
    expect(history.length).toBe(total);
    expect(pages).toBe(Math.ceil(total / 200));
    // Newest first across the page boundary.
    for (let i = 1; i < history.length; i++) expect(history[i - 1]!.status_at).toBeGreaterThanOrEqual(history[i]!.status_at);
    expect((await readOpenOrders(w.ctx, t.wallet, { market: SYM })).length).toBe(perRound);
    expect(await readOpenOrders(w.ctx, t.wallet, { market: 'BTC' })).toEqual([]);
    await cancelAll(w.ctx, { wallet: t.wallet });
  });

  it('balance, positions, triggers, trades and hourly funding', async () => {
    const u = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    expect(new Decimal((await readBalance(w.ctx, u.wallet)).free_balance).gt(0)).toBe(true);
    const r = await placeOrders(w.ctx, { wallet: u.wallet, legs: [{ market: SYM, side: 'BUY', size: sizeFor(m, mark, 5), leverage: 3 }] }, { wait: true });
    expect(r.legs[0]!.final?.status).toBe('FILLED');
    await waitForPosition(w.ctx, u.accountId, SYM, (p) => p !== undefined, 'position');
    const positions = await readPositions(w.ctx, u.wallet);
    expect(positions.map((p) => p.market)).toEqual([SYM]);
    await placeOrders(w.ctx, { wallet: u.wallet, legs: [{ market: SYM, side: 'SELL', size: '0', order_type: 'TRIGGER', reduce_only: true, trigger: { trigger_price: priceAt(m, mark, 1.2), tpsl: 'TP' } }] }, { wait: true });
    expect((await readTriggers(w.ctx, u.wallet, { market: SYM })).length).toBe(1);
    expect(await readTriggers(w.ctx, u.wallet, { market: 'BTC' })).toEqual([]);

    const fills = await readTradeHistory(w.ctx, u.wallet);
    expect(fills.length).toBeGreaterThanOrEqual(1);
    expect(fills.every((f) => f.order_id === r.legs[0]!.order_id)).toBe(true);

    // Two funding hours pass with the position open: one payment per position per hour.
    await w.advance(2 * 60 * 60 * 1000 + 1_000);
    const funding = await readFundingHistory(w.ctx, u.wallet);
    expect(funding.length).toBeGreaterThanOrEqual(2);
    expect(funding.every((p) => p.direction === 'LONG')).toBe(true);

    // CSV of real rows: the service's strings, unchanged, one record per row.
    for (const [rows, columns] of [
      [fills, FILL_CSV_COLUMNS],
      [funding, FUNDING_CSV_COLUMNS],
    ] as const) {
      const parsed = parseCsv(toCsv(rows as never[], columns as never));
      expect(parsed.length).toBe(rows.length + 1);
      expect(parsed[0]).toEqual(columns.map((c) => c.header));
    }
    const fundingCsv = parseCsv(toCsv(funding, FUNDING_CSV_COLUMNS));
    const rateCol = FUNDING_CSV_COLUMNS.findIndex((c) => c.header === 'funding_rate');
    const paymentCol = FUNDING_CSV_COLUMNS.findIndex((c) => c.header === 'payment');
    funding.forEach((p, i) => {
      expect(fundingCsv[i + 1]![rateCol]).toBe(p.funding_rate);
      expect(fundingCsv[i + 1]![paymentCol]).toBe(p.payment);
    });
    const history = await readOrderHistory(w.ctx, u.wallet);
    const orderCsv = parseCsv(toCsv(history, ORDER_CSV_COLUMNS));
    const priceCol = ORDER_CSV_COLUMNS.findIndex((c) => c.header === 'limit_price');
    history.forEach((o, i) => expect(orderCsv[i + 1]![priceCol]).toBe(o.limit_price));
  });

  it('an unknown market filter is refused rather than read as "no rows"', async () => {
    await expect(readOrderHistory(w.ctx, t.wallet, { market: 'NOPE' })).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('CSV (RFC 4180)', () => {
  it('quotes commas, quotes and line breaks; leaves decimal strings exactly as given', () => {
    expect(csvField('0.000120')).toBe('0.000120');
    expect(csvField('-1.50')).toBe('-1.50');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField(null)).toBe('');
    expect(csvField(false)).toBe('false');
    const text = toCsv([{ a: 'x,y', b: '1.10' }], [
      { header: 'a', value: (r: { a: string; b: string }) => r.a },
      { header: 'b', value: (r: { a: string; b: string }) => r.b },
    ]);
    expect(text).toBe('a,b\r\n"x,y",1.10\r\n');
    expect(parseCsv(text)).toEqual([
      ['a', 'b'],
      ['x,y', '1.10'],
    ]);
  });
});
