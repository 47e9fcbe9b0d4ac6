/**
 * The command grammar of the palette and `perps do` (src/shared/commands): many phrasings of each
 * command, then what is refused and how it is said (understood / missing, ambiguous, invalid), then
 * properties: a generated phrase reads back as the intent it was built from; random text never becomes a
 * trade; an amount is never rounded (an off-tick price or an over-precise size is refused).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonical, Decimal, isDecimalText } from '../../../src/shared/decimal/index.js';
import { describeCommand, isTradeCommand, MAX_PHRASE_LENGTH, orderIntentOf, parsePhrase, twapRequestOf, type CommandIntent, type CommandMarket, type PhraseResult } from '../../../src/shared/commands/index.js';

const market = (symbol: string, tick: string, sz: number, venue = symbol): CommandMarket => ({
  symbol,
  venue_symbol: venue,
  tick_size: tick,
  px_decimals: Math.max(0, new Decimal(tick).decimalPlaces()),
  sz_decimals: sz,
  min_order_value: '10',
  max_notional: '0',
});
const MARKETS = [market('BTC', '1', 5), market('ETH', '0.1', 4), market('ETC', '0.001', 2), market('PEPE', '0.000001', 0, 'kPEPE'), market('SOL', '0.01', 2)];

const ok = (text: string): CommandIntent => {
  const r = parsePhrase(text, MARKETS);
  if (r.status !== 'ok') throw new Error(`${text}: ${r.message}`);
  return r.intent;
};
const refused = (text: string, markets = MARKETS): Exclude<PhraseResult, { status: 'ok' }> => {
  const r = parsePhrase(text, markets);
  if (r.status === 'ok') throw new Error(`${text} was read as ${r.message}`);
  return r;
};

describe('orders', () => {
  it.each([
    ['buy 0.1 btc', { side: 'BUY', market: 'BTC', size: '0.1', price: null }],
    ['BUY 0.1 BTC', { side: 'BUY', market: 'BTC', size: '0.1', price: null }],
    ['long btc 0.1', { side: 'BUY', market: 'BTC', size: '0.1', price: null }],
    ['  buy   0.10   btc  ', { side: 'BUY', market: 'BTC', size: '0.1', price: null }],
    ['buy 0.1 btc at market', { side: 'BUY', market: 'BTC', size: '0.1', price: null }],
    ['buy 0.1 btc market', { side: 'BUY', market: 'BTC', size: '0.1', price: null }],
    ['sell 2 eth at 3400', { side: 'SELL', market: 'ETH', size: '2', price: '3400' }],
    ['short 2 eth @ 3400.5', { side: 'SELL', market: 'ETH', size: '2', price: '3400.5' }],
    ['sell 2 eth @3400', { side: 'SELL', market: 'ETH', size: '2', price: '3400' }],
    ['sell eth 2 limit 3400', { side: 'SELL', market: 'ETH', size: '2', price: '3400' }],
    ['buy 1000 kpepe', { side: 'BUY', market: 'PEPE', size: '1000', price: null }],
    ['buy 1000 KPEPE at 0.000012', { side: 'BUY', market: 'PEPE', size: '1000', price: '0.000012' }],
  ])('%j', (text, expected) => {
    expect(ok(text)).toEqual({ kind: 'order', ...expected });
  });

  it('becomes the ticket intent: a market order without a price, a limit order with its price', () => {
    expect(orderIntentOf({ kind: 'order', side: 'BUY', market: 'BTC', size: '0.1', price: null })).toEqual({ kind: 'single', market: 'BTC', side: 'BUY', order_type: 'MARKET', size: '0.1' });
    expect(orderIntentOf({ kind: 'order', side: 'SELL', market: 'ETH', size: '2', price: '3400' })).toEqual({ kind: 'single', market: 'ETH', side: 'SELL', order_type: 'LIMIT', size: '2', limit_price: '3400' });
    expect(describeCommand(ok('sell 2 eth at 3400'))).toBe('Sell 2 ETH, limit 3400');
    expect(describeCommand(ok('buy 0.1 btc'))).toBe('Buy 0.1 BTC at market');
  });

  it('says what it understood and what is missing', () => {
    expect(refused('buy')).toMatchObject({ status: 'incomplete', understood: 'buy', missing: expect.stringMatching(/^a size and a market/) });
    expect(refused('buy 0.1')).toMatchObject({ status: 'incomplete', understood: 'buy 0.1', missing: expect.stringMatching(/^a market/) });
    expect(refused('sell eth')).toMatchObject({ status: 'incomplete', understood: 'sell ETH', missing: expect.stringMatching(/^a size/) });
    expect(refused('sell 2 eth at')).toMatchObject({ status: 'incomplete', missing: expect.stringMatching(/limit price/) });
    expect(refused('buy 0.01').message).toBe('Understood “buy 0.01”; missing a market (such as buy 0.01 BTC).');
    expect(refused('sell eth').message).toBe('Understood “sell ETH”; missing a size (such as sell 0.1 ETH).');
  });

  it.each([
    ['buy 1e3 btc', /size “1e3” is not a decimal/],
    ['buy -1 btc', /size “-1” must not be negative/],
    ['buy +1 btc', /not a decimal/],
    ['buy .5 btc', /not a decimal/],
    ['buy 0 btc', /greater than 0/],
    ['buy 0.1 btc at 0x10', /price “0x10” is not a decimal/],
    ['buy 0.1 btc at -5', /must not be negative/],
    ['buy 0.1 btc at 0', /greater than 0/],
    ['buy 0.1 doge', /no market “doge”/],
    ['buy 0.1 bt', /no market “bt” \(did you mean BTC\?\)/],
    ['buy 0.1 btc please', /“please” after it is not part of any command/],
    ['buy 0.1 0.2 btc', /“0.2” is not part of any command/],
    ['buy 0.1 btc eth', /not part of any command/],
  ])('refuses %j', (text, reason) => {
    const r = refused(text);
    expect(r.status).toBe('invalid');
    expect(r.message).toMatch(reason);
  });

  it('never rounds: too many size places or an off-tick price is reported with the values that would do', () => {
    expect(refused('buy 0.123456 btc').message).toMatch(/size 0.123456 has more than 5 decimal places for BTC; it is not rounded/);
    expect(refused('sell 2 eth at 3400.05').message).toMatch(/price 3400.05 is not on ETH's tick of 0.1; it is not rounded: type 3400 or 3400.1/);
    expect(refused('buy 1 btc at 95000.5').message).toMatch(/type 95000 or 95001/);
  });

  it('asks which market when a word begins several', () => {
    const r = refused('buy 1 et');
    expect(r).toMatchObject({ status: 'ambiguous', choices: ['ETH', 'ETC'] });
    expect(r.message).toMatch(/“et” could be the market ETH or ETC/);
    // The venue's name of one market equal to another's symbol: never guessed.
    const clash = [market('PEPE', '0.000001', 0, 'kPEPE'), market('KPEPE', '1', 0, 'KP')];
    expect(refused('buy 1 kpepe', clash)).toMatchObject({ status: 'ambiguous', choices: ['PEPE', 'KPEPE'] });
  });
});

describe('close, cancel, twap', () => {
  it.each([
    ['close eth', { kind: 'close', market: 'ETH', percent: null }],
    ['close ETH position', { kind: 'close', market: 'ETH', percent: null }],
    ['close eth 50%', { kind: 'close', market: 'ETH', percent: '50' }],
    ['close eth 50 %', { kind: 'close', market: 'ETH', percent: '50' }],
    ['close 25% of my btc position', { kind: 'close', market: 'BTC', percent: '25' }],
    ['close half eth', { kind: 'close', market: 'ETH', percent: '50' }],
    ['close eth 100%', { kind: 'close', market: 'ETH', percent: null }],
    ['close eth 12.5%', { kind: 'close', market: 'ETH', percent: '12.5' }],
    ['close all', { kind: 'close_all' }],
    ['close all positions', { kind: 'close_all' }],
    ['close all eth', { kind: 'close', market: 'ETH', percent: null }],
    ['cancel all', { kind: 'cancel_all', market: null }],
    ['cancel all orders', { kind: 'cancel_all', market: null }],
    ['cancel all btc', { kind: 'cancel_all', market: 'BTC' }],
    ['cancel all orders on btc', { kind: 'cancel_all', market: 'BTC' }],
    ['cancel btc orders', { kind: 'cancel_all', market: 'BTC' }],
    ['twap buy 1 btc over 30m', { kind: 'twap', side: 'BUY', market: 'BTC', size: '1', duration: '30m', duration_ms: 1_800_000, slices: 10 }],
    ['twap sell 2 eth 1h in 12 slices', { kind: 'twap', side: 'SELL', market: 'ETH', size: '2', duration: '1h', duration_ms: 3_600_000, slices: 12 }],
    ['TWAP short eth 2 for 90s 3 slices', { kind: 'twap', side: 'SELL', market: 'ETH', size: '2', duration: '1m30s', duration_ms: 90_000, slices: 3 }],
    ['twap buy 1 btc over 20s', { kind: 'twap', side: 'BUY', market: 'BTC', size: '1', duration: '20s', duration_ms: 20_000, slices: 4 }],
  ])('%j', (text, expected) => {
    expect(ok(text)).toEqual(expected);
  });

  it('a TWAP becomes the ticket request', () => {
    expect(twapRequestOf(ok('twap buy 1 btc over 30m') as Extract<CommandIntent, { kind: 'twap' }>)).toEqual({ market: 'BTC', side: 'BUY', total_size: '1', duration_s: 1800, slices: 10 });
  });

  it.each([
    ['close', 'incomplete', /which position/],
    ['close eth 50', 'ambiguous', /“50” could be 50% of the position or a size of 50/],
    ['close eth 0.5%', 'invalid', /1% to 100%, not 0.5%/],
    ['close eth 150%', 'invalid', /not 150%/],
    ['close eth -5%', 'invalid', /must not be negative/],
    ['close all 50%', 'incomplete', /which position/],
    ['close eth btc', 'invalid', /“btc” after it/],
    ['cancel', 'incomplete', /what to cancel/],
    ['cancel orders', 'incomplete', /what to cancel/],
    ['cancel all dog', 'invalid', /no market “dog”/],
    ['twap', 'incomplete', /buy or sell/],
    ['twap hold 1 btc over 30m', 'invalid', /“hold” is not buy or sell/],
    ['twap buy 1 btc', 'incomplete', /how long/],
    ['twap buy 1 btc over 1.5h', 'invalid', /span “1.5h” is not a duration/],
    ['twap buy 1 btc over 5s', 'invalid', /at least 5 s apart/],
    ['twap buy 1 btc over 30m in 1 slices', 'invalid', /2 to 2000 slices/],
    ['twap buy 1 btc over 30s in 12 slices', 'invalid', /at most 6 slices/],
    ['twap buy 1 btc over 8d', 'invalid', /at most 7d/],
    ['twap buy 1 btc over 30m in 12', 'incomplete', /“slices”/],
  ])('refuses %j (%s)', (text, status, reason) => {
    const r = refused(text);
    expect(r.status).toBe(status);
    expect(r.message).toMatch(reason);
  });
});

describe('going somewhere', () => {
  it.each([
    ['history', { kind: 'view', view: 'history' }],
    ['History', { kind: 'view', view: 'history' }],
    ['go to history', { kind: 'view', view: 'history' }],
    ['open settings', { kind: 'view', view: 'settings' }],
    ['show trading keys', { kind: 'view', view: 'keys' }],
    ['trading keys', { kind: 'view', view: 'keys' }],
    ['goto portfolio', { kind: 'view', view: 'portfolio' }],
    ['btc', { kind: 'market', market: 'BTC' }],
    ['go to eth', { kind: 'market', market: 'ETH' }],
    ['kpepe', { kind: 'market', market: 'PEPE' }],
  ])('%j', (text, expected) => {
    const intent = ok(text);
    expect(intent).toEqual(expected);
    expect(isTradeCommand(intent)).toBe(false);
  });

  it('an unknown word says what commands there are', () => {
    expect(refused('hello').message).toMatch(/“hello” is not a command: start with buy, sell, close, cancel or twap, or name a view \(trade, history/);
    expect(refused('go to nowhere').message).toMatch(/no view or market “nowhere”/);
    expect(refused('go to')).toMatchObject({ status: 'incomplete' });
    expect(refused('e')).toMatchObject({ status: 'ambiguous', choices: ['ETH', 'ETC'] });
    expect(parsePhrase('   ', MARKETS).status).toBe('empty');
  });
});

describe('hostile text', () => {
  it.each([
    ['buy 0.1 btc\u0000', /control or invisible/],
    ['buy\t0.1 btc', /control or invisible/],
    ['buy 0.1 btc\n', /control or invisible/],
    ['buy 0.1 \u202ectb', /control or invisible/],
    ['buy 0.\u200b1 btc', /control or invisible/],
    [`buy 0.1 btc ${'x'.repeat(MAX_PHRASE_LENGTH)}`, /longer than 200 characters/i],
  ])('%j is refused as a whole', (text, reason) => {
    const r = refused(text);
    expect(r.status).toBe('invalid');
    expect(r.message).toMatch(reason);
  });

  it('a number written any other way is never a size', () => {
    for (const n of ['1e3', '1E3', '0x10', '1,5', '1_000', 'Infinity', 'NaN', '١', '５', '1.', '01', '1.2.3']) expect(refused(`buy ${n} btc`).status).toBe('invalid');
    expect(parsePhrase(42, MARKETS).status).toBe('invalid');
  });
});

// ---- properties -----------------------------------------------------------------------------------

const symbolArb = fc.stringMatching(/^[A-Z][A-Z0-9]{1,6}$/).filter((s) => !/^(AT|ALL|OVER|FOR|IN|LIMIT|MARKET|HALF|EVERY|ORDERS?|ON|THE|MY|OF|POSITIONS?|OPEN|EVERYTHING|SLICES?)$/.test(s));
const marketArb = fc.record({ symbol: symbolArb, tickExp: fc.integer({ min: -6, max: 2 }), sz: fc.integer({ min: 0, max: 6 }) }).map(({ symbol, tickExp, sz }) => market(symbol, canonical(new Decimal(10).pow(tickExp)), sz));
const marketsArb = fc.uniqueArray(marketArb, { minLength: 1, maxLength: 6, selector: (m) => m.symbol });
const caseOf = (s: string, upper: boolean[]): string => [...s].map((c, i) => (upper[i % upper.length] ? c.toUpperCase() : c.toLowerCase())).join('');
/** A positive amount with at most `places` decimals, in the grammar. */
const amountArb = (places: number) => fc.tuple(fc.integer({ min: 0, max: 99999 }), fc.integer({ min: 0, max: 10 ** Math.min(places, 6) - 1 })).filter(([i, f]) => i > 0 || f > 0).map(([i, f]) => (places === 0 ? String(i || 1) : canonical(new Decimal(i).plus(new Decimal(f).div(new Decimal(10).pow(Math.min(places, 6)))))));

describe('properties', () => {
  it('a generated order phrase reads back as the order it was built from', () => {
    fc.assert(
      fc.property(marketsArb, fc.nat(), fc.boolean(), fc.constantFrom('buy', 'long', 'sell', 'short'), fc.boolean(), fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }), fc.constantFrom('at', '@', 'limit'), fc.option(fc.integer({ min: 1, max: 10 ** 6 })), (markets, pick, sizeFirst, verb, _unused, upper, at, ticks) => {
        const m = markets[pick % markets.length]!;
        const size = fc.sample(amountArb(m.sz_decimals), { numRuns: 1, seed: pick })[0]!;
        const price = ticks === null ? null : canonical(new Decimal(m.tick_size).mul(ticks));
        const words = sizeFirst ? [size, caseOf(m.symbol, upper)] : [caseOf(m.symbol, upper), size];
        const phrase = `${caseOf(verb, upper)} ${words.join(' ')}${price === null ? '' : ` ${at} ${price}`}`;
        const r = parsePhrase(phrase, markets);
        expect(r.status, `${phrase}: ${r.message}`).toBe('ok');
        expect((r as { intent: CommandIntent }).intent).toEqual({ kind: 'order', side: verb === 'buy' || verb === 'long' ? 'BUY' : 'SELL', market: m.symbol, size, price });
      }),
    );
  });

  it('a generated close, cancel or TWAP phrase reads back as what it was built from', () => {
    fc.assert(
      fc.property(marketsArb, fc.nat(), fc.integer({ min: 1, max: 99 }), fc.integer({ min: 2, max: 50 }), fc.integer({ min: 0, max: 3 }), (markets, pick, pct, slices, which) => {
        const m = markets[pick % markets.length]!;
        const size = canonical(new Decimal(pick % 1000).plus(1));
        const cases: [string, CommandIntent][] = [
          [`close ${m.symbol.toLowerCase()} ${pct}%`, { kind: 'close', market: m.symbol, percent: String(pct) }],
          [`cancel all ${m.symbol}`, { kind: 'cancel_all', market: m.symbol }],
          [`twap sell ${size} ${m.symbol} over ${slices * 5}s in ${slices} slices`, { kind: 'twap', side: 'SELL', market: m.symbol, size, duration: `${Math.floor((slices * 5) / 60) > 0 ? `${Math.floor((slices * 5) / 60)}m` : ''}${(slices * 5) % 60 > 0 ? `${(slices * 5) % 60}s` : ''}`, duration_ms: slices * 5000, slices }],
          [`close ${m.symbol}`, { kind: 'close', market: m.symbol, percent: null }],
        ];
        const [phrase, intent] = cases[which]!;
        const r = parsePhrase(phrase, markets);
        expect(r.status, `${phrase}: ${r.message}`).toBe('ok');
        expect((r as { intent: CommandIntent }).intent).toEqual(intent);
      }),
    );
  });

  it('random text never becomes a trade unless it is one, word for word', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 80 }), fc.array(fc.constantFrom('buy', 'sell', 'close', 'cancel', 'twap', 'all', 'btc', 'eth', 'at', '@', '%', '1e3', '-1', '0x10', 'over', '30m', '0.1', '3400', 'in', 'slices', ' ', '\u0000', '\u202e'), { maxLength: 8 }).map((w) => w.join(' '))), (text) => {
        const r = parsePhrase(text, MARKETS);
        if (r.status !== 'ok' || !isTradeCommand(r.intent)) return;
        // A trade read from random text: its verb opens the text, and every amount is a word of it as typed.
        const words = text.toLowerCase().split(/[ @%]+/);
        expect(['buy', 'long', 'sell', 'short', 'close', 'cancel', 'twap']).toContain(words.find((w) => w !== ''));
        for (const v of [(r.intent as { size?: string }).size, (r.intent as { price?: string | null }).price]) {
          if (typeof v === 'string') expect(words.some((w) => isDecimalText(w) && new Decimal(w).eq(v)), `${v} in ${text}`).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('an amount is never rounded: a size past sz_decimals or a price off the tick is refused', () => {
    fc.assert(
      fc.property(marketsArb, fc.nat(), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 1, max: 10 ** 6 }), fc.boolean(), (markets, pick, digit, ticks, onPrice) => {
        const m = markets[pick % markets.length]!;
        const step = new Decimal(m.tick_size);
        // One more place than allowed, or a price a fraction of a tick off.
        const size = onPrice ? '1' : `1.${'0'.repeat(m.sz_decimals)}${digit}`;
        const price = onPrice ? canonical(step.mul(ticks).plus(step.div(10).mul(digit))) : canonical(step.mul(ticks));
        const r = parsePhrase(`buy ${size} ${m.symbol} at ${price}`, markets);
        expect(r.status).toBe('invalid');
        expect(r.message).toMatch(/it is not rounded/);
      }),
    );
  });
});

describe('the words traders add (issue 35.5)', () => {
  it.each([
    ['buy 0.01 btc at 90000 limit', { side: 'BUY', market: 'BTC', size: '0.01', price: '90000' }],
    ['buy 0.01 btc limit at 90000', { side: 'BUY', market: 'BTC', size: '0.01', price: '90000' }],
    ['buy 0.01 btc at 90000 limit post only', { price: '90000', post_only: true }],
    ['buy 0.01 btc @90000 post-only 10x', { price: '90000', post_only: true, leverage: 10 }],
    ['sell 1 sol reduce only', { side: 'SELL', market: 'SOL', size: '1', price: null, reduce_only: true }],
    ['sell 1 sol market reduce-only', { price: null, reduce_only: true }],
    ['buy 0.5 eth at market with tp 3600 sl 3200', { size: '0.5', price: null, tp: '3600', sl: '3200' }],
    ['buy 0.5 eth 5x with sl 3200', { leverage: 5, sl: '3200' }],
    ['buy 250 usd of btc', { size: '250', usd: true, market: 'BTC', price: null }],
    ['buy 250.5 usd btc at 90000', { size: '250.5', usd: true, price: '90000' }],
    ['buy btc 250 usd', { size: '250', usd: true, market: 'BTC' }],
  ])('%j', (text, expected) => {
    expect(ok(text)).toMatchObject({ kind: 'order', ...expected });
  });

  it('says what it became, and becomes the ticket intent (a bracket with levels, post-only as ALO)', () => {
    const c = ok('buy 0.01 btc at 90000 limit post only 10x with tp 99000 sl 85000');
    expect(describeCommand(c)).toBe('Buy 0.01 BTC, limit 90000, post only, 10x, TP 99000, SL 85000');
    expect(orderIntentOf(c as never)).toEqual({ kind: 'bracket', market: 'BTC', side: 'BUY', order_type: 'LIMIT', size: '0.01', limit_price: '90000', time_in_force: 'ALO', leverage: 10, tp: { trigger_price: '99000' }, sl: { trigger_price: '85000' } });
    const ro = ok('sell 1 sol reduce only');
    expect(orderIntentOf(ro as never)).toEqual({ kind: 'single', market: 'SOL', side: 'SELL', order_type: 'MARKET', size: '1', reduce_only: true });
    const usd = ok('buy 250 usd of btc');
    expect(describeCommand(usd)).toBe('Buy 250 USD of BTC at market');
    expect(() => orderIntentOf(usd as never)).toThrow(/size worked out first/);
    expect(orderIntentOf(usd as never, '0.00263')).toMatchObject({ size: '0.00263', order_type: 'MARKET' });
  });

  it('refuses words that contradict or are incomplete, with what was understood', () => {
    expect(refused('buy 0.01 btc at 90000 market')).toMatchObject({ status: 'invalid', message: expect.stringMatching(/a market order takes no limit price/) });
    expect(refused('buy 0.01 btc limit')).toMatchObject({ status: 'incomplete', missing: expect.stringMatching(/the limit price/) });
    expect(refused('buy 0.01 btc post only')).toMatchObject({ status: 'invalid', message: expect.stringMatching(/post only is for a limit order/) });
    expect(refused('sell 1 sol reduce only with sl 200')).toMatchObject({ status: 'invalid', message: expect.stringMatching(/not to a reduce-only one/) });
    expect(refused('buy 0.01 btc with tp')).toMatchObject({ status: 'incomplete', missing: expect.stringMatching(/take-profit trigger price/) });
    expect(refused('buy 0.01 btc 10x 5x')).toMatchObject({ status: 'invalid', message: expect.stringMatching(/said twice/) });
    expect(refused('buy 0.01 btc with tp 99000.5')).toMatchObject({ status: 'invalid', message: expect.stringMatching(/not on BTC's tick/) });
    expect(refused('buy 0.01 btc 0x')).toMatchObject({ status: 'invalid' });
    expect(refused('buy 0.01 btc soon')).toMatchObject({ status: 'invalid', message: expect.stringMatching(/“soon” after it is not part of any command/) });
  });
});
