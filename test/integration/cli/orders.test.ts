/**
 * The `perps` order, position, margin and read commands, run by the CLI's own main in this process
 * (test/support/perpsWorld.ts) with --json against a simulator on loopback, on its manual clock (issue
 * 37): a --wait's polls move that clock, so an order settles in simulated time, without waiting.
 * Contract checked: exactly one JSON document on stdout, exit 0 on success, 1 when the operation failed,
 * 2 on bad usage or a validation error (and then nothing was sent: the order history stays empty).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TypedDataEncoder } from 'ethers';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { perpsOn, type J } from '../../support/perpsWorld.js';
import { TradingWorld, priceAt, sizeFor } from '../orders/tradingWorld.js';

let w: TradingWorld;
const SYM = 'BTC';


/** `perps ARGS` on the world (test/support/perpsWorld.ts), in this process. */
const perps = perpsOn(() => w);


beforeAll(async () => {
  w = await TradingWorld.boot('cli-orders');
}, 60_000);
afterAll(async () => {
  await w?.stop();
});

// Each flow has its own wallet, so the flows run side by side (their runs of `perps` take turns).
describe.concurrent('perps order / orders / position / margin / positions / history', () => {
  it('place a limit with --wait, read it back, modify it, cancel it', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const price = priceAt(m, mark, 0.9);
    const size = sizeFor(m, new Decimal(price));
    const placed = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--size', size, '--type', 'limit', '--price', price, '--wait']);
    expect(placed.code, placed.stderr).toBe(0);
    const doc = placed.json as J;
    expect(doc.success).toBe(true);
    expect(doc.legs[0]).toMatchObject({ status: 'SUBMITTED', leg: { limit_price: price, size, order_type: 'LIMIT', time_in_force: 'GTC' }, final: { status: 'ACCEPTED' } });
    const id = doc.legs[0].order_id as string;

    const got = await perps(['--json', 'order', 'get', id]);
    expect(got.code).toBe(0);
    expect(got.json).toMatchObject({ order_id: id, status: 'ACCEPTED' });

    const newPrice = priceAt(m, mark, 0.85);
    const modified = await perps(['--json', 'order', 'modify', id, '--wallet', t.wallet, '--price', newPrice, '--size', size, '--wait']);
    expect(modified.code, modified.stderr).toBe(0);
    const mod = modified.json as J;
    expect(mod).toMatchObject({ old_order_id: id, status: 'SUBMITTED', outcome: 'applied' });

    const open = await perps(['orders', 'open', '--wallet', t.wallet, '--csv']);
    expect(open.code).toBe(0);
    const lines = open.stdout.split('\r\n').filter((l) => l.length > 0);
    expect(lines[0]).toMatch(/^order_id,market,side,/);
    expect(lines.length).toBe(2);
    expect(lines[1]).toContain(`${mod.new_order_id},${SYM},buy,LIMIT,GTC,${size},0,${newPrice}`);

    const cancelled = await perps(['--json', 'order', 'cancel', mod.new_order_id, '--wallet', t.wallet]);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect((cancelled.json as J).results[0]).toMatchObject({ order_id: mod.new_order_id, order_type: 'LIMIT', status: 'SUBMITTED', confirmed: true, final_status: 'CANCELLED' });
  });

  it('a validation error exits 2 with one JSON error document, and nothing was sent', async () => {
    const u = await w.trader(null);
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const offTick = new Decimal(priceAt(m, mark, 0.9)).plus(new Decimal(m.tick_size).div(2)).toFixed();
    const r = await perps(['--json', 'order', 'place', '--wallet', u.wallet, '--market', SYM, '--side', 'buy', '--size', sizeFor(m, mark), '--type', 'limit', '--price', offTick]);
    expect(r.code).toBe(2);
    expect((r.json as J).error).toMatchObject({ code: 'VALIDATION_ERROR', exit_code: 2 });
    expect((r.json as J).error.message).toMatch(/limit_price.*tick_size/);
    // A decimal of any length used to be signed and posted: now the 64-character bound of every input
    // door applies before signing (exit 2), however the size is written.
    const huge = await perps(['--json', 'order', 'place', '--wallet', u.wallet, '--market', SYM, '--side', 'buy', '--size', '1'.repeat(80), '--type', 'limit', '--price', priceAt(m, mark, 0.9)]);
    expect(huge.code).toBe(2);
    expect((huge.json as J).error.message).toMatch(/at most 64 characters/);
    const hugeBatch = path.join(w.dataDir, `huge-${u.wallet}.json`);
    fs.writeFileSync(hugeBatch, JSON.stringify([{ market: SYM, side: 'BUY', size: '0.' + '1'.repeat(200), order_type: 'LIMIT', limit_price: priceAt(m, mark, 0.9) }]));
    expect((await perps(['--json', 'order', 'batch', '--wallet', u.wallet, hugeBatch])).code).toBe(2);
    // Bad usage (a missing required option) is 2 as well.
    const usage = await perps(['--json', 'order', 'place', '--wallet', u.wallet, '--market', SYM, '--size', '1']);
    expect(usage.code).toBe(2);
    expect((usage.json as J).error.code).toBe('USAGE');
    expect((await w.ctx.api.orderHistory({ wallet: u.wallet })).total).toBe(0);
  });

  it('a market entry with --tp/--sl and --wait: filled, legs armed; then position close', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const r = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--size', sizeFor(m, mark, 3), '--leverage', '5', '--tp', priceAt(m, mark, 1.1), '--sl', priceAt(m, mark, 0.9), '--wait']);
    expect(r.code, r.stderr).toBe(0);
    const legs = (r.json as J).legs as J[];
    expect(legs.map((l) => l.final.status)).toEqual(['FILLED', 'SUBMITTED', 'SUBMITTED']);
    expect(legs.slice(1).map((l) => [l.leg.side, l.leg.size, l.leg.reduce_only, l.leg.trigger.tpsl, l.final.armed])).toEqual([
      ['SELL', '0', true, 'TP', true],
      ['SELL', '0', true, 'SL', true],
    ]);
    const triggers = await perps(['--json', 'orders', 'triggers', '--wallet', t.wallet, '--market', SYM]);
    expect(((triggers.json as J).orders as J[]).length).toBe(2);

    const closed = await perps(['--json', 'position', 'close', '--wallet', t.wallet, '--market', SYM]);
    expect(closed.code, closed.stderr).toBe(0);
    const c = closed.json as J;
    expect(c.cancelled_triggers.length).toBe(2);
    expect(c).toMatchObject({ closed: true, position_after: null, order: { leg: { side: 'SELL', reduce_only: true, order_type: 'MARKET' }, final: { status: 'FILLED' } } });

    const trades = await perps(['--json', 'history', 'trades', '--wallet', t.wallet]);
    expect(((trades.json as J).fills as J[]).length).toBeGreaterThanOrEqual(2);

    // Order history: one row per order, the entry at the price it filled at (not its slippage bound).
    const events = ((await perps(['--json', 'history', 'orders', '--wallet', t.wallet, '--events'])).json as J).orders as J[];
    const grouped = ((await perps(['--json', 'history', 'orders', '--wallet', t.wallet])).json as J).orders as J[];
    const ids = [...new Set(events.map((e) => e.order_id as string))];
    expect(events.length).toBeGreaterThan(ids.length);
    expect(grouped.map((g) => g.order_id).sort()).toEqual([...ids].sort());
    const placedEntry = legs[0]!;
    const entryId = placedEntry.order_id as string;
    const entry = grouped.find((g) => g.order_id === entryId)!;
    expect(entry).toMatchObject({ order_type: 'MARKET', status: 'filled', price: placedEntry.final.avg_fill_price, avg_fill_price: placedEntry.final.avg_fill_price });
    expect(entry.price).not.toBe(entry.limit_price);
    expect((entry.changes as J[]).map((c) => c.status)).toEqual(events.filter((e) => e.order_id === entryId).map((e) => e.status).reverse());
    const tableOut = (await perps(['history', 'orders', '--wallet', t.wallet])).stdout.trim().split('\n');
    // A header line, its underline, then one line per order.
    expect(tableOut).toHaveLength(2 + ids.length);
    const entryLine = tableOut.find((l) => l.includes(entryId))!;
    expect(entryLine).toContain(placedEntry.final.avg_fill_price);
    expect(entryLine).not.toContain(` ${entry.limit_price} `);
    const csv = (await perps(['history', 'orders', '--wallet', t.wallet, '--csv'])).stdout.trim().split('\r\n');
    expect(csv[0]).toMatch(/,price,statuses$/);
    expect(csv).toHaveLength(1 + ids.length);
    const rawCsv = (await perps(['history', 'orders', '--wallet', t.wallet, '--csv', '--events'])).stdout.trim().split('\r\n');
    expect(rawCsv[0]).toBe('order_id,market,side,order_type,time_in_force,size,filled_size,limit_price,avg_fill_price,reduce_only,trigger_price,tpsl,status,reason,parent_order_id,submitted_at,status_at');
    expect(rawCsv).toHaveLength(1 + events.length);
    // `perps orders history` is the same command, beside `orders open` where a trader looks for it.
    const alias = await perps(['--json', 'orders', 'history', '--wallet', t.wallet]);
    expect(alias.code).toBe(0);
    expect((alias.json as J).orders).toEqual(grouped);
    expect(((await perps(['--json', 'orders', 'history', '--wallet', t.wallet, '--events'])).json as J).orders).toEqual(events);
  });

  it('batch from a file, then cancel-all on the market', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const file = path.join(w.dataDir, `legs-${t.wallet}.json`);
    const p1 = priceAt(m, mark, 0.8);
    const p2 = priceAt(m, mark, 0.79);
    fs.writeFileSync(
      file,
      JSON.stringify({
        orders: [
          { market: SYM, side: 'BUY', size: sizeFor(m, new Decimal(p1)), order_type: 'LIMIT', time_in_force: 'GTC', limit_price: p1, client_order_id: 'a' },
          { market: SYM, side: 'BUY', size: sizeFor(m, new Decimal(p2)), order_type: 'LIMIT', time_in_force: 'ALO', limit_price: p2, client_order_id: 'b' },
        ],
      }),
    );
    const r = await perps(['--json', 'order', 'batch', '--wallet', t.wallet, file, '--wait']);
    expect(r.code, r.stderr).toBe(0);
    expect(((r.json as J).legs as J[]).map((l) => [l.client_order_id, l.final.status])).toEqual([
      ['a', 'ACCEPTED'],
      ['b', 'ACCEPTED'],
    ]);
    const all = await perps(['--json', 'order', 'cancel-all', '--wallet', t.wallet, '--market', SYM]);
    expect(all.code, all.stderr).toBe(0);
    expect(((all.json as J).results as J[]).every((x) => x.confirmed && x.final_status === 'CANCELLED')).toBe(true);
    expect((all.json as J).remaining).toEqual([]);
  });

  it('a rejected leg exits 1 with every leg in the document (post-only that would cross)', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const r = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--size', sizeFor(m, mark), '--type', 'limit', '--tif', 'alo', '--price', priceAt(m, mark, 1.02), '--wait']);
    expect(r.code).toBe(1);
    expect((r.json as J).legs[0].final).toMatchObject({ status: 'REJECTED', reason: 'post_only_would_take' });
  });

  it('the app\'s defaults: without --leverage it signs 1x (never 0, the market maximum), or the default set with `config leverage`', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const price = priceAt(m, mark, 0.9);
    const size = sizeFor(m, new Decimal(price));
    const first = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--size', size, '--type', 'limit', '--price', price]);
    expect(first.code, first.stderr).toBe(0);
    expect((first.json as J).legs[0].leg.leverage).toBe(1);
    const human = await perps(['order', 'place', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--size', size, '--type', 'limit', '--price', priceAt(m, mark, 0.89)]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr).toMatch(/signed with leverage 1x \(your default/);
    expect(human.stdout).toMatch(/LEV[\s\S]*1x/);

    const set = await perps(['--json', 'config', 'leverage', '4', '--market', SYM]);
    expect(set.code, set.stderr).toBe(0);
    expect((set.json as J).effective.find((e: J) => e.market === SYM)).toMatchObject({ leverage: 4, own: true });
    const second = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--size', size, '--type', 'limit', '--price', priceAt(m, mark, 0.88)]);
    expect((second.json as J).legs[0].leg.leverage).toBe(4);
    // What was signed is what the service holds: its margin rate is 1/4, not the market's maximum.
    expect((await perps(['--json', 'config', 'leverage', '--clear', '--market', SYM])).code).toBe(0);
    const help = await perps(['order', 'place', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toMatch(/--leverage <n\|max> .*[Dd]efault: your default for the market, `perps config leverage`, else 1x/);
  });

  it('an order the free balance cannot pay for is refused before signing: exit 2, nothing sent', async () => {
    const u = await w.trader('50');
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const price = priceAt(m, mark, 0.95);
    // Worth about 10 times the balance, at 2x: the margin alone is 5 times what the account holds.
    const size = new Decimal(500).div(price).toDecimalPlaces(m.sz_decimals, Decimal.ROUND_CEIL).toFixed();
    const r = await perps(['--json', 'order', 'place', '--wallet', u.wallet, '--market', SYM, '--side', 'buy', '--size', size, '--type', 'limit', '--price', price, '--leverage', '2']);
    expect(r.code).toBe(2);
    expect((r.json as J).error).toMatchObject({ code: 'INSUFFICIENT_BALANCE', exit_code: 2 });
    expect((await w.ctx.api.orderHistory({ wallet: u.wallet })).total).toBe(0);
  });

  it('--dry-run prints exactly what would be signed and sends nothing (exit 0)', async () => {
    const t = await w.trader();
    const m = w.market(SYM);
    const mark = await w.mark(SYM);
    const price = priceAt(m, mark, 0.9);
    const size = sizeFor(m, new Decimal(price));
    const dry = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--size', size, '--type', 'limit', '--price', price, '--sl', priceAt(m, mark, 0.8), '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    const doc = dry.json as J;
    expect(doc).toMatchObject({ dry_run: true, action: 'order', signer: { role: 'trading-key', address: t.agent }, view: { kind: 'bracket', market: SYM } });
    expect(doc.requests.map((r: J) => r.label)).toEqual(['entry', 'sl']);
    for (const r of doc.requests as J[]) {
      // The digest printed is the EIP-712 digest of the typed data printed (computed independently).
      const { domain, types, message } = r.typed_data;
      const { EIP712Domain: _domain, ...structs } = types;
      expect(TypedDataEncoder.hash(domain, structs, message)).toBe(r.digest);
    }
    // Read by a person: the plain line of each leg comes first, before the review's fields and the typed data.
    // (An explicit leverage: the flows run side by side and another one changes the shared default.)
    const human = await perps(['order', 'place', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--size', size, '--type', 'limit', '--price', price, '--leverage', '2', '--sl', priceAt(m, mark, 0.8), '--dry-run']);
    expect(human.code, human.stderr).toBe(0);
    const lines = human.stdout.split('\n');
    expect(lines[0]).toMatch(/^DRY RUN: nothing was signed or sent/);
    const [int, frac] = price.split('.');
    const grouped = `${int!.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}${frac !== undefined ? `.${frac}` : ''}`;
    expect(lines[2]).toBe(`entry: Buy ${size} BTC at ${grouped} limit, GTC, 2x`);
    expect(lines[3]).toMatch(/^sl: Sell the whole position when the mark reaches [\d,.]+ \(stop loss\), at market, worst price [\d,.]+, once the entry fills$/);
    expect(human.stdout.indexOf('entry: Buy')).toBeLessThan(human.stdout.indexOf('EIP-712 typed data'));
    const modify = await perps(['--json', 'order', 'cancel-all', '--wallet', t.wallet, '--dry-run']);
    expect(modify.code, modify.stderr).toBe(0);
    expect((modify.json as J).view.targets).toEqual([]);
    expect((await w.ctx.api.orderHistory({ wallet: t.wallet })).total).toBe(0);
    // A dry run cannot wait for anything.
    expect((await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', SYM, '--side', 'buy', '--size', size, '--type', 'limit', '--price', price, '--dry-run', '--wait'])).code).toBe(2);
  });

  it('margin APPLIED (exit 0) and REJECTED with its reason (exit 1); positions', async () => {
    const t = await w.trader();
    const m = w.market('ETH');
    const mark = await w.mark('ETH');
    const open = await perps(['--json', 'order', 'place', '--wallet', t.wallet, '--market', 'ETH', '--side', 'sell', '--size', sizeFor(m, mark, 3), '--leverage', '5', '--wait']);
    expect(open.code, open.stderr).toBe(0);
    // The fill reaches /positions a moment later on the simulator's clock: move it until it shows.
    let pos: J | undefined;
    for (let i = 0; i < 50 && pos === undefined; i++) {
      if (i > 0) await w.advance(100);
      const positions = await perps(['--json', 'positions', '--wallet', t.wallet]);
      pos = ((positions.json as J).positions as J[]).find((p) => p.market === 'ETH');
    }
    expect(new Decimal(pos!.size).isNeg()).toBe(true);

    const add = await perps(['--json', 'margin', '--wallet', t.wallet, '--market', 'ETH', '--amount', '5', '--wait']);
    expect(add.code, add.stderr).toBe(0);
    expect(add.json).toMatchObject({ status: 'APPLIED', amount: '5' });
    const remove = await perps(['--json', 'margin', '--wallet', t.wallet, '--market', 'ETH', '--amount', `-${new Decimal(pos!.isolated_margin).mul(10).toFixed()}`, '--wait']);
    expect(remove.code).toBe(1);
    expect(remove.json).toMatchObject({ status: 'REJECTED', reason: 'EXCEEDS_MAX_REMOVABLE' });

    const funding = await perps(['history', 'funding', '--wallet', t.wallet, '--csv']);
    expect(funding.code).toBe(0);
    expect(funding.stdout.startsWith('market,direction,size,payment,funding_rate,epoch_time,settled_at\r\n')).toBe(true);
  });
});
