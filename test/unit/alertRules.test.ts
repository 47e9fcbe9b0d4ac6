/**
 * The alert rules (src/shared/alerts): crossings fire once per crossing and re-arm only after the value
 * went back across by the band (hysteresis), for price, funding, PnL and liquidation distance; a move
 * alert over a sliding window agrees with a brute-force scan of the window; typed input is refused with
 * a clear error (unknown market, a level of 0, 1e400, a window of 0) and nothing is rounded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/shared/decimal/index.js';
import { MoveWindow, rearmBand, stepMove, stepThreshold } from '../../src/shared/alerts/alertEvaluation.js';
import { AlertInputError, parseAlertInput, parseWindow, withLevel, type AlertInput } from '../../src/shared/alerts/alertInput.js';
import { THRESHOLD_ALERT_KINDS, type ThresholdRule } from '../../src/shared/alerts/alertRule.js';

const d = (s: string | number) => new Decimal(String(s));

function run(rule: ThresholdRule, values: (string | number)[], armed: boolean | null = null): { fires: number[]; armed: boolean | null } {
  const fires: number[] = [];
  values.forEach((v, i) => {
    const step = stepThreshold(rule, armed, d(v));
    armed = step.armed;
    if (step.fired) fires.push(i);
  });
  return { fires, armed };
}

describe('threshold alerts: examples', () => {
  it('a price crossing fires once; a wobble around the level does not fire again; going back past the band re-arms', () => {
    const rule: ThresholdRule = { kind: 'price_above', level: '3500' };
    expect(rearmBand(rule).toFixed()).toBe('3.5');
    // 3400 arms, 3500 fires, 3499/3501 wobble (inside the band) stays quiet, 3496 re-arms, 3500 fires again.
    expect(run(rule, [3400, 3500, 3499, 3501, 3498, 3502, 3496, 3500]).fires).toEqual([1, 7]);
  });

  it('a value first seen past the level does not fire (nothing was crossed) until it comes back and crosses', () => {
    const rule: ThresholdRule = { kind: 'price_below', level: '100' };
    expect(run(rule, [90, 80, 95]).fires).toEqual([]);
    expect(run(rule, [90, 101, 100.2, 100]).fires).toEqual([3]);
  });

  it('funding and PnL levels of 0 re-arm once strictly back across; the liquidation distance re-arms 25 % out', () => {
    expect(run({ kind: 'funding_below', level: '0' }, ['0.0001', '-0.00001', '0', '0.00000001', '-0.0000001']).fires).toEqual([1, 4]);
    expect(run({ kind: 'pnl_above', level: '250' }, [-10, 250, 260, 251, 100, 300]).fires).toEqual([1, 5]);
    // 10 % warns, 12.5 % re-arms (the liquidation warning's rule).
    expect(run({ kind: 'liq_distance_below', level: '10' }, [20, 9.9, 12, 9, 12.6, 10]).fires).toEqual([1, 5]);
  });
});

const decimalText = fc.integer({ min: -1_000_000, max: 1_000_000 }).map((n) => d(n).div(100).toFixed());

describe('threshold alerts: properties', () => {
  it('fires only on an armed-to-past step, never twice without going back past the band in between', () => {
    fc.assert(
      fc.property(fc.constantFrom(...THRESHOLD_ALERT_KINDS), decimalText, fc.array(decimalText, { maxLength: 60 }), (kind, level, values) => {
        const rule: ThresholdRule = { kind, level };
        const above = kind.endsWith('above');
        const lvl = d(level);
        const band = rearmBand(rule);
        const past = (v: Decimal) => (above ? v.gte(lvl) : v.lte(lvl));
        const back = (v: Decimal) => (above ? v.lt(lvl.minus(band)) : v.gt(lvl.plus(band)));
        let armed: boolean | null = null;
        let sawBackSinceFire = true;
        let prev: Decimal | null = null;
        for (const text of values) {
          const v = d(text);
          const step = stepThreshold(rule, armed, v);
          if (step.fired) {
            // A firing is a crossing: past now, and the previous value was not past.
            expect(past(v)).toBe(true);
            expect(prev !== null && !past(prev)).toBe(true);
            expect(sawBackSinceFire).toBe(true);
            sawBackSinceFire = false;
          }
          if (!step.fired && armed !== null && past(v)) expect(step.armed).toBe(false);
          if (back(v)) sawBackSinceFire = true;
          armed = step.armed;
          prev = v;
        }
      }),
    );
  });

  it('a crossing from the near side always fires when armed (no crossing is missed)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...THRESHOLD_ALERT_KINDS), decimalText, decimalText, (kind, level, v) => {
        const rule: ThresholdRule = { kind, level };
        const past = kind.endsWith('above') ? d(v).gte(d(level)) : d(v).lte(d(level));
        expect(stepThreshold(rule, true, d(v)).fired).toBe(past);
      }),
    );
  });
});

describe('move alerts', () => {
  it('fires when the mark moved pct within the window, and starts a new window from the firing mark', () => {
    const rule = { kind: 'move' as const, pct: '2', window_ms: 60_000 };
    const w = new MoveWindow(rule.window_ms);
    expect(stepMove(rule, w, 0, d(100)).fired).toBe(false);
    expect(stepMove(rule, w, 30_000, d(101)).fired).toBe(false);
    // 100 is 70 s old at 70 s: out of the window; from 101, 102.9 is +1.88 %.
    expect(stepMove(rule, w, 70_000, d('102.9')).fired).toBe(false);
    const fired = stepMove(rule, w, 80_000, d('103.1'));
    expect(fired).toMatchObject({ fired: true });
    expect(fired.from.toFixed()).toBe('101');
    expect(fired.movePct.toDecimalPlaces(4).toFixed()).toBe('2.0792');
    // The window restarted at 103.1: a drop of 1 % does not fire, one of 2 % does.
    expect(stepMove(rule, w, 81_000, d('102.07')).fired).toBe(false);
    expect(stepMove(rule, w, 82_000, d('101.038')).fired).toBe(true);
  });

  it('agrees with a brute-force scan of the sliding window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000, max: 20_000 }),
        fc.integer({ min: 1, max: 30 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 3_000 }), fc.integer({ min: 1, max: 10_000 })), { minLength: 1, maxLength: 80 }),
        (windowMs, pct, steps) => {
          const rule = { kind: 'move' as const, pct: String(pct), window_ms: windowMs };
          const w = new MoveWindow(windowMs);
          let since: { at: number; price: Decimal }[] = [];
          let at = 0;
          for (const [dt, p] of steps) {
            at += dt;
            const price = d(p).div(10);
            since.push({ at, price });
            since = since.filter((s) => s.at >= at - windowMs);
            const brute = since.reduce((m, s) => Decimal.max(m, price.minus(s.price).abs().div(s.price)), d(0));
            const step = stepMove(rule, w, at, price);
            expect(step.fired).toBe(brute.mul(100).gte(pct));
            if (step.fired) since = [{ at, price }];
          }
        },
      ),
    );
  });
});

const MARKETS = ['BTC', 'ETH'];
function refused(input: AlertInput): AlertInputError {
  try {
    parseAlertInput(input, MARKETS);
  } catch (err) {
    expect(err).toBeInstanceOf(AlertInputError);
    return err as AlertInputError;
  }
  throw new Error(`expected a refusal of ${JSON.stringify(input)}`);
}

describe('typed alerts', () => {
  it('accepts each kind and keeps the level as typed (canonical), with repeat and note', () => {
    expect(parseAlertInput({ market: 'ETH', kind: 'price_above', value: '3500.50', repeat: true, note: ' breakout ' }, MARKETS)).toEqual({
      market: 'ETH',
      rule: { kind: 'price_above', level: '3500.5' },
      repeat: true,
      note: 'breakout',
      wallet: null,
    });
    expect(parseAlertInput({ market: 'BTC', kind: 'move', value: '2', window: '1h30m' }, MARKETS).rule).toEqual({ kind: 'move', pct: '2', window_ms: 5_400_000 });
    expect(parseAlertInput({ market: 'BTC', kind: 'funding_below', value: '-0.0001' }, MARKETS).rule).toEqual({ kind: 'funding_below', level: '-0.0001' });
    const w = '0x' + 'Ab'.repeat(20);
    expect(parseAlertInput({ market: 'BTC', kind: 'liq_distance_below', value: '8', wallet: w }, MARKETS)).toMatchObject({ wallet: w.toLowerCase(), rule: { level: '8' } });
  });

  it.each<[AlertInput, RegExp]>([
    [{ market: 'DOGE', kind: 'price_above', value: '1' }, /^market: 'DOGE' is not a market/],
    [{ market: 'ETH', kind: 'price_above', value: '0' }, /^above: a price level must be above 0/],
    [{ market: 'ETH', kind: 'price_below', value: '1e400' }, /^below: '1e400' is not a decimal/],
    [{ market: 'ETH', kind: 'price_below', value: '9'.repeat(65) }, /^below: at most 64 characters/],
    [{ market: 'ETH', kind: 'price_below', value: 'NaN' }, /'NaN' is not a decimal/],
    [{ market: 'ETH', kind: 'move', value: '2', window: '0' }, /^window: '0' is not a duration/],
    [{ market: 'ETH', kind: 'move', value: '2', window: '0s' }, /^window: the window must be from 1s/],
    [{ market: 'ETH', kind: 'move', value: '2', window: '25h' }, /^window: the window must be from 1s to 24h/],
    [{ market: 'ETH', kind: 'move', value: '2', window: '5 minutes' }, /^window: '5 minutes' is not a duration/],
    [{ market: 'ETH', kind: 'move', value: '2' }, /^window: a move alert needs a window/],
    [{ market: 'ETH', kind: 'move', value: '0', window: '5m' }, /^move: a move is a percentage above 0/],
    [{ market: 'ETH', kind: 'price_above', value: '3500', window: '5m' }, /^window: only a move alert has a window/],
    [{ market: 'ETH', kind: 'funding_above', value: '1' }, /^funding-above: a funding rate is a raw hourly fraction/],
    [{ market: 'ETH', kind: 'pnl_above', value: '10' }, /^wallet: a position alert needs the wallet/],
    [{ market: 'ETH', kind: 'price_above', value: '1', note: 'x'.repeat(201) }, /^note: at most 200 characters/],
    [{ market: 'ETH', kind: 'price_above', value: '1', note: 'a\nb' }, /^note: no control characters/],
  ])('refuses %j', (input, message) => {
    expect(refused(input).message).toMatch(message);
  });

  it('parses windows with the shared duration grammar, as the TWAP does: spans with units, never a bare number', () => {
    expect(parseWindow('90s')).toBe(90_000);
    expect(() => parseWindow('90')).toThrow(/'90' is not a duration/);
    expect(() => parseWindow('1h99m')).toThrow(AlertInputError);
    expect(parseWindow('5m')).toBe(300_000);
    expect(parseWindow('1h30m15s')).toBe(5_415_000);
    expect(() => parseWindow('')).toThrow(AlertInputError);
    expect(() => parseWindow('-5')).toThrow(AlertInputError);
  });

  it('a dragged level goes through the same checks', () => {
    const spec = parseAlertInput({ market: 'ETH', kind: 'price_above', value: '3500', note: 'n' }, MARKETS);
    expect(withLevel(spec, '3550.25', MARKETS)).toEqual({ ...spec, rule: { kind: 'price_above', level: '3550.25' } });
    expect(() => withLevel(spec, '-1', MARKETS)).toThrow(/above 0/);
  });
});
