/**
 * Plain words to an intent: the one reader of the palette (Ctrl+K) and `perps do "<phrase>"`, so both
 * accept exactly the same phrases.
 *
 *   buy 0.1 btc            sell 2 eth at 3400        long btc 0.1 @ 95000       sell 2 eth limit 3400
 *   buy 0.01 btc at 90000 limit post only 10x        buy 250 usd of btc          sell 1 sol reduce only
 *   buy 0.5 eth at market with tp 3600 sl 3200
 *   close eth              close eth 50%             close half eth             close all
 *   cancel all             cancel all btc            cancel btc orders
 *   twap buy 1 btc over 30m                          twap sell 2 eth over 1h in 12 slices
 *   history   go to settings   open keys   btc   kpepe (a market by the venue's name for it)
 *
 * Sizes, prices and percentages are read by the one decimal grammar (src/shared/decimal), durations by
 * the one duration grammar (src/shared/duration), markets against the live list passed in. Nothing is
 * rounded or guessed: a size with more places than the market allows, an off-tick price, a word that only
 * begins a symbol, a bare number after "close" are reported with what was understood, never adjusted.
 * Pure: the same text and markets always give the same result.
 */
import { decimalTextProblem, parseDecimalText, roundToStep, canonical, Decimal } from '../decimal/decimal.js';
import { durationTextProblem, formatDuration, parseDuration } from '../duration/duration.js';
import { checkPrice, checkSize } from '../protocol/marketRules.js';
import { TWAP_MAX_DURATION_MS, TWAP_MAX_SLICES, TWAP_MIN_INTERVAL_MS, TWAP_MIN_SLICES } from '../algos/twap/twapSchedule.js';
import { describeCommand, type CommandIntent, type CommandSide } from './commandIntents.js';
import { COMMAND_VIEWS, viewNamed } from './commandViews.js';
import { lookupMarket, type CommandMarket } from './marketWords.js';
import { phraseTextProblem, tokenize, type PhraseToken } from './phraseTokens.js';

/** Slices of a TWAP whose phrase names none (the ticket's default), fewer when the span is short. */
export const DEFAULT_TWAP_SLICES = 10;

export type PhraseResult =
  | { status: 'empty'; message: string }
  | { status: 'ok'; intent: CommandIntent; message: string }
  | { status: 'incomplete'; understood: string; missing: string; message: string }
  | { status: 'ambiguous'; understood: string | null; choices: string[]; message: string }
  | { status: 'invalid'; understood: string | null; reason: string; message: string };

/** A phrase that cannot become an intent: thrown inside the reader, returned as its result. */
class Refusal {
  constructor(readonly result: Exclude<PhraseResult, { status: 'ok' | 'empty' }>) {}
}

function incomplete(understood: string, missing: string): Refusal {
  return new Refusal({ status: 'incomplete', understood, missing, message: `Understood “${understood}”; missing ${missing}.` });
}

function invalid(understood: string | null, reason: string): Refusal {
  return new Refusal({ status: 'invalid', understood, reason, message: understood ? `Understood “${understood}”, but ${reason}.` : `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.` });
}

function ambiguous(understood: string | null, word: string, choices: string[], what: string): Refusal {
  const list = choices.length === 2 ? `${choices[0]} or ${choices[1]}` : `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}`;
  return new Refusal({ status: 'ambiguous', understood, choices, message: `${understood ? `Understood “${understood}”, but ` : ''}“${word}” could be ${what}${list}: which one?` });
}

const SIDES: Record<string, CommandSide> = { buy: 'BUY', long: 'BUY', sell: 'SELL', short: 'SELL' };
const PRICE_WORDS = new Set(['at', '@', 'limit']);
const NAV_VERBS = new Set(['go', 'goto', 'open', 'show', 'view']);

/** A word that is meant as a number (so a bad one is reported as a bad number, not as an unknown market). */
const looksNumeric = (t: PhraseToken): boolean => /^[-+.\d]/.test(t.text);

/** Reading position over the words, with what has been understood so far (for the messages). */
class Reader {
  private i = 0;
  understood: string;
  constructor(
    readonly tokens: PhraseToken[],
    first: string,
  ) {
    this.understood = first;
  }
  peek(): PhraseToken | undefined {
    return this.tokens[this.i];
  }
  next(): PhraseToken | undefined {
    return this.tokens[this.i++];
  }
  done(): boolean {
    return this.i >= this.tokens.length;
  }
  hear(words: string): void {
    this.understood = `${this.understood} ${words}`;
  }
  /** Nothing may follow a complete phrase: an extra word is never ignored. */
  end(): void {
    const extra = this.peek();
    if (extra) throw invalid(this.understood, `“${extra.text}” after it is not part of any command`);
  }
}

function marketOf<M extends CommandMarket>(r: Reader, t: PhraseToken, markets: readonly M[]): M {
  const found = lookupMarket(t.text, markets);
  if (found.status === 'found') return found.market;
  if (found.status === 'ambiguous') throw ambiguous(r.understood, t.text, found.choices, 'the market ');
  throw invalid(r.understood, `there is no market “${t.text}”${found.suggestion ? ` (did you mean ${found.suggestion}?)` : ''}`);
}

/** A positive amount in the decimal grammar, as its canonical text (equal in value: nothing rounded). */
function amountOf(r: Reader, t: PhraseToken, what: string): string {
  const problem = decimalTextProblem(t.text);
  if (problem !== null) throw invalid(r.understood, `the ${what} ${problem.replace(`'${t.text}'`, `“${t.text}”`)}`);
  const value = parseDecimalText(t.text, what);
  if (value.isZero()) throw invalid(r.understood, `the ${what} must be greater than 0`);
  return canonical(value);
}

function checkedSize(r: Reader, size: string, m: CommandMarket): void {
  const v = checkSize(m, size);
  if (v) throw invalid(r.understood, `the size ${size} has more than ${m.sz_decimals} decimal places for ${m.symbol}; it is not rounded: type at most ${m.sz_decimals}`);
}

function checkedPrice(r: Reader, price: string, m: CommandMarket): void {
  const v = checkPrice(m, price);
  if (!v) return;
  const down = canonical(roundToStep(price, m.tick_size, 'down'));
  const up = canonical(roundToStep(price, m.tick_size, 'up'));
  const near = down === '0' ? up : `${down} or ${up}`;
  throw invalid(r.understood, `the price ${price} is not on ${m.symbol}'s tick of ${m.tick_size}; it is not rounded: type ${near}`);
}

const USD_WORDS = new Set(['usd', 'usdc', 'dollars']);

/** The size and the market of an order or a TWAP, in either order ("0.1 btc" or "btc 0.1"); an order's size may be in USD ("250 usd of btc"). */
function sizeAndMarket<M extends CommandMarket>(r: Reader, markets: readonly M[], verb: string, tail = '', allowUsd = false): { size: string; market: M; usd: boolean } {
  let size: string | null = null;
  let market: M | null = null;
  let usd = false;
  while ((size === null || market === null) && !r.done()) {
    const t = r.peek()!;
    if (PRICE_WORDS.has(t.word) || t.word === 'over' || t.word === 'for') break;
    r.next();
    if (allowUsd && size !== null && !usd && USD_WORDS.has(t.word)) {
      usd = true;
      r.hear('USD');
      if (r.peek()?.word === 'of' || r.peek()?.word === 'worth') r.next();
      continue;
    }
    if (market === null && lookupMarket(t.text, markets).status === 'found') {
      market = marketOf(r, t, markets);
      r.hear(market.symbol);
    } else if (size === null && looksNumeric(t)) {
      size = amountOf(r, t, 'size');
      r.hear(size);
    } else if (market === null && !looksNumeric(t)) {
      marketOf(r, t, markets);
    } else {
      throw invalid(r.understood, `“${t.text}” is not part of any command`);
    }
  }
  // The example keeps what was typed: "buy 0.01" is missing a market "such as buy 0.01 BTC".
  const example = `${verb} ${size ?? '0.1'} ${market?.symbol ?? markets[0]?.symbol ?? 'BTC'}${tail}`;
  if (size === null && market === null) throw incomplete(r.understood, `a size and a market (such as ${example})`);
  if (size === null) throw incomplete(r.understood, `a size (such as ${example})`);
  if (market === null) throw incomplete(r.understood, `a market (such as ${example})`);
  // "250 usd of btc" after the market has been read ("buy btc 250 usd") is read the same way.
  if (allowUsd && !usd && USD_WORDS.has(r.peek()?.word ?? '')) {
    r.next();
    usd = true;
    r.hear('USD');
  }
  if (!usd) checkedSize(r, size, market);
  return { size, market, usd };
}

/** "10x": a whole number of at least 1 before an x. */
const LEVERAGE_WORD = /^([1-9]\d{0,3})x$/;

/**
 * An order, then the words a trader adds, in any order: a price (at / @ / limit 3400), "limit" or
 * "market" alone, "post only", "reduce only", a leverage ("10x"), TP/SL levels ("with tp 3600 sl 3200").
 * Each may be said once; words that contradict each other are refused with what was understood.
 */
function readOrder<M extends CommandMarket>(r: Reader, side: CommandSide, markets: readonly M[]): CommandIntent {
  const { size, market, usd } = sizeAndMarket(r, markets, r.understood, '', true);
  let price: string | null = null;
  let atMarket = false;
  let limitWord = false;
  let postOnly = false;
  let reduceOnly = false;
  let leverage: number | null = null;
  let tp: string | null = null;
  let sl: string | null = null;
  const once = (said: boolean, t: PhraseToken): void => {
    if (said) throw invalid(r.understood, `“${t.text}” is said twice`);
  };
  while (!r.done()) {
    const t = r.next()!;
    const w = t.word;
    if (w === 'with' || w === 'and') continue;
    if (w === 'at' || w === '@' || w === 'limit') {
      const after = r.peek();
      if (after && looksNumeric(after)) {
        once(price !== null, after);
        r.next();
        price = amountOf(r, after, 'price');
        r.hear(`at ${price}`);
        checkedPrice(r, price, market);
      } else if (w !== 'limit' && after?.word === 'market') {
        r.next();
        once(atMarket, after);
        atMarket = true;
        r.hear('at market');
      } else if (w === 'limit') {
        once(limitWord, t);
        limitWord = true;
        r.hear('limit');
      } else {
        throw incomplete(`${r.understood} ${t.text}`, 'the limit price (such as at 3400), or “at market”');
      }
    } else if (w === 'market') {
      once(atMarket, t);
      atMarket = true;
      r.hear('at market');
    } else if ((w === 'post' && r.peek()?.word === 'only') || w === 'post-only' || w === 'alo') {
      if (w === 'post') r.next();
      once(postOnly, t);
      postOnly = true;
      r.hear('post only');
    } else if ((w === 'reduce' && r.peek()?.word === 'only') || w === 'reduce-only') {
      if (w === 'reduce') r.next();
      once(reduceOnly, t);
      reduceOnly = true;
      r.hear('reduce only');
    } else if (LEVERAGE_WORD.test(w)) {
      once(leverage !== null, t);
      leverage = Number(LEVERAGE_WORD.exec(w)![1]);
      r.hear(`${leverage}x`);
    } else if (w === 'tp' || w === 'sl') {
      const level = r.next();
      if (!level || !looksNumeric(level)) throw incomplete(`${r.understood} ${t.text}`, `the ${w === 'tp' ? 'take-profit' : 'stop-loss'} trigger price (such as ${w} ${w === 'tp' ? '3600' : '3200'})`);
      once(w === 'tp' ? tp !== null : sl !== null, t);
      const v = amountOf(r, level, w === 'tp' ? 'take-profit' : 'stop-loss');
      checkedPrice(r, v, market);
      if (w === 'tp') tp = v;
      else sl = v;
      r.hear(`${w} ${v}`);
    } else {
      throw invalid(r.understood, `“${t.text}” after it is not part of any command`);
    }
  }
  if (atMarket && (price !== null || limitWord)) throw invalid(r.understood, 'a market order takes no limit price: say “limit 3400” or “at market”, not both');
  if (limitWord && price === null) throw incomplete(r.understood, 'the limit price (such as limit 3400)');
  if (postOnly && price === null) throw invalid(r.understood, 'post only is for a limit order: add its price (such as at 3400)');
  if (reduceOnly && (tp !== null || sl !== null)) throw invalid(r.understood, 'TP/SL levels attach to an opening order, not to a reduce-only one');
  return {
    kind: 'order',
    side,
    market: market.symbol,
    size,
    price,
    ...(usd ? { usd: true as const } : {}),
    ...(postOnly ? { post_only: true as const } : {}),
    ...(reduceOnly ? { reduce_only: true as const } : {}),
    ...(leverage !== null ? { leverage } : {}),
    ...(tp !== null ? { tp } : {}),
    ...(sl !== null ? { sl } : {}),
  };
}

function readTwap<M extends CommandMarket>(r: Reader, markets: readonly M[]): CommandIntent {
  const s = r.next();
  const side = s ? SIDES[s.word] : undefined;
  if (!s || !side) throw s ? invalid(r.understood, `“${s.text}” is not buy or sell`) : incomplete(r.understood, 'buy or sell, a size, a market and a span (such as twap buy 1 BTC over 30m)');
  r.hear(s.word);
  const { size, market } = sizeAndMarket(r, markets, `twap ${s.word}`, ' over 30m');
  const kw = r.peek();
  if (kw && (kw.word === 'over' || kw.word === 'for')) r.next();
  const d = r.next();
  if (!d) throw incomplete(r.understood, 'how long (such as over 30m)');
  const problem = durationTextProblem(d.text);
  if (problem !== null) throw invalid(r.understood, `the span ${problem.replace(`'${d.text}'`, `“${d.text}”`)}`);
  const ms = parseDuration(d.text);
  const duration = formatDuration(ms);
  if (ms <= 0) throw invalid(r.understood, 'the span must be longer than 0s');
  if (ms > TWAP_MAX_DURATION_MS) throw invalid(r.understood, `a TWAP runs at most ${formatDuration(TWAP_MAX_DURATION_MS)}`);
  r.hear(`over ${duration}`);
  const most = Math.floor(ms / TWAP_MIN_INTERVAL_MS);
  let slices = Math.min(DEFAULT_TWAP_SLICES, most);
  // "in 12 slices" or "12 slices"
  let n = r.peek();
  if (n?.word === 'in') {
    r.next();
    n = r.peek();
    if (!n) throw incomplete(`${r.understood} in`, 'the number of slices (such as in 12 slices)');
  }
  if (n) {
    r.next();
    if (!/^[1-9]\d{0,5}$/.test(n.text)) throw invalid(r.understood, `“${n.text}” is not a number of slices (a whole number such as 12)`);
    const unit = r.next();
    if (!unit || (unit.word !== 'slices' && unit.word !== 'slice')) throw incomplete(`${r.understood} in ${n.text}`, '“slices” after the number');
    slices = Number(n.text);
    r.hear(`in ${slices} slices`);
    if (slices < TWAP_MIN_SLICES || slices > TWAP_MAX_SLICES) throw invalid(r.understood, `a TWAP has ${TWAP_MIN_SLICES} to ${TWAP_MAX_SLICES} slices`);
  }
  if (slices < TWAP_MIN_SLICES || slices > most) {
    throw invalid(r.understood, `slices must be at least ${TWAP_MIN_INTERVAL_MS / 1000} s apart: over ${duration} that is at most ${most} slice${most === 1 ? '' : 's'} (${TWAP_MIN_SLICES} at least)`);
  }
  r.end();
  return { kind: 'twap', side, market: market.symbol, size, duration, duration_ms: ms, slices };
}

const CLOSE_FILLERS = new Set(['position', 'positions', 'the', 'my', 'of']);

function readClose<M extends CommandMarket>(r: Reader, markets: readonly M[]): CommandIntent {
  let market: M | null = null;
  let percent: string | null = null;
  let all = false;
  const example = `close ${markets[0]?.symbol ?? 'ETH'}, close ${markets[0]?.symbol ?? 'ETH'} 50% or close all`;
  while (!r.done()) {
    const t = r.next()!;
    if (CLOSE_FILLERS.has(t.word)) continue;
    if ((t.word === 'all' || t.word === 'everything') && !all && percent === null) {
      all = true;
      continue;
    }
    if (t.word === 'half' && percent === null) {
      percent = '50';
      r.hear('50%');
      continue;
    }
    if (looksNumeric(t) && percent === null) {
      const pct = r.peek();
      if (pct?.word !== '%') {
        throw ambiguous(r.understood, t.text, [`${t.text}% of the position`, `a size of ${t.text}`], '');
      }
      r.next();
      percent = amountOf(r, t, 'percentage');
      if (new Decimal(percent).lt(1) || new Decimal(percent).gt(100)) throw invalid(r.understood, `a part to close is 1% to 100%, not ${percent}%`);
      r.hear(`${percent}%`);
      continue;
    }
    if (market === null) {
      market = marketOf(r, t, markets);
      r.hear(market.symbol);
      continue;
    }
    throw invalid(r.understood, `“${t.text}” after it is not part of any command`);
  }
  if (market === null && all && percent === null) return { kind: 'close_all' };
  if (market === null) throw incomplete(r.understood, `which position (${example})`);
  if (all && percent !== null) throw invalid(r.understood, 'say all or a percentage, not both');
  return { kind: 'close', market: market.symbol, percent: percent === '100' ? null : percent };
}

const CANCEL_FILLERS = new Set(['orders', 'order', 'on', 'for', 'the', 'my', 'open']);

function readCancel<M extends CommandMarket>(r: Reader, markets: readonly M[]): CommandIntent {
  let market: M | null = null;
  let all = false;
  while (!r.done()) {
    const t = r.next()!;
    if (CANCEL_FILLERS.has(t.word)) continue;
    if (t.word === 'all' || t.word === 'every' || t.word === 'everything') {
      if (!all) r.hear('all');
      all = true;
      continue;
    }
    if (market !== null) throw invalid(r.understood, `“${t.text}” after it is not part of any command`);
    market = marketOf(r, t, markets);
    r.hear(market.symbol);
  }
  if (!all && market === null) throw incomplete(r.understood, `what to cancel (cancel all, or cancel all ${markets[0]?.symbol ?? 'BTC'})`);
  return { kind: 'cancel_all', market: market?.symbol ?? null };
}

function readPlace<M extends CommandMarket>(r: Reader, words: PhraseToken[], markets: readonly M[], bare: boolean): CommandIntent {
  if (words.length === 0) throw incomplete(r.understood, 'where to: a view (History, Settings) or a market');
  const view = viewNamed(words.map((w) => w.word).join(' '));
  if (view) return { kind: 'view', view };
  if (words.length === 1) {
    const found = lookupMarket(words[0]!.text, markets);
    if (found.status === 'found') return { kind: 'market', market: found.market.symbol };
    if (found.status === 'ambiguous') throw ambiguous(bare ? null : r.understood, words[0]!.text, found.choices, 'the market ');
  }
  const what = words.map((w) => w.text).join(' ');
  if (bare) throw invalid(null, `“${what}” is not a command: start with buy, sell, close, cancel or twap, or name a view (${COMMAND_VIEWS.map((v) => v.words[0]).join(', ')}) or a market`);
  throw invalid(r.understood, `there is no view or market “${what}”`);
}

/** Reads a typed command against the live markets. */
export function parsePhrase<M extends CommandMarket>(text: unknown, markets: readonly M[]): PhraseResult {
  const problem = phraseTextProblem(text);
  if (problem !== null) return invalid(null, problem).result;
  const tokens = tokenize(text as string);
  if (tokens.length === 0) return { status: 'empty', message: 'Type a command, a view or a market.' };
  const [head, ...rest] = tokens as [PhraseToken, ...PhraseToken[]];
  const r = new Reader(rest, head.word);
  try {
    let intent: CommandIntent;
    const side = SIDES[head.word];
    if (side) intent = readOrder(r, side, markets);
    else if (head.word === 'close') intent = readClose(r, markets);
    else if (head.word === 'cancel') intent = readCancel(r, markets);
    else if (head.word === 'twap') intent = readTwap(r, markets);
    else if (NAV_VERBS.has(head.word)) intent = readPlace(r, rest[0]?.word === 'to' && head.word === 'go' ? rest.slice(1) : rest, markets, false);
    else intent = readPlace(r, tokens, markets, true);
    return { status: 'ok', intent, message: describeCommand(intent) };
  } catch (err) {
    if (err instanceof Refusal) return err.result;
    throw err;
  }
}
