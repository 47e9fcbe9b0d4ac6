/**
 * Loosening waits, tightening is at once (src/shared/risk/limitChanges.ts): cases and properties over
 * random sequences of requests, with the cool-down chosen by the first limit.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/shared/decimal/index.js';
import { currentValue, newWalletRisk, requestChange, settle } from '../../../src/shared/risk/limitChanges.js';
import { DEFAULT_COOLDOWN_MS, WalletRiskSchema } from '../../../src/shared/risk/riskLimits.js';

const W = '0x' + 'ab'.repeat(20);
const H = 3_600_000;

describe('limit changes', () => {
  it('the first limit applies at once and sets the default cool-down; raising it waits, lowering it does not', () => {
    let r = newWalletRisk('sim', W, 0);
    let out = requestChange(r, { limits: { daily_loss: '100' } }, 1000);
    r = out.record;
    expect(r.limits.daily_loss).toBe('100');
    expect(r.cooldown_ms).toBe(DEFAULT_COOLDOWN_MS);
    expect(out.log.map((l) => `${l.limit}:${l.action}`)).toEqual(['cooldown:applied', 'daily_loss:applied']);

    out = requestChange(r, { limits: { daily_loss: '200' } }, 2000);
    r = out.record;
    expect(r.limits.daily_loss).toBe('100');
    expect(r.pending).toEqual([{ limit: 'daily_loss', value: '200', requested_at: 2000, effective_at: 2000 + DEFAULT_COOLDOWN_MS }]);

    // Not yet due.
    expect(settle(r, 2000 + DEFAULT_COOLDOWN_MS - 1).record.limits.daily_loss).toBe('100');
    // Due: applied and logged.
    const due = settle(r, 2000 + DEFAULT_COOLDOWN_MS);
    expect(due.record.limits.daily_loss).toBe('200');
    expect(due.record.pending).toEqual([]);
    expect(due.log).toMatchObject([{ limit: 'daily_loss', old: '100', new: '200', action: 'applied' }]);

    // A tightening meanwhile applies at once and drops the waiting loosening.
    out = requestChange(r, { limits: { daily_loss: '50' } }, 3000);
    expect(out.record.limits.daily_loss).toBe('50');
    expect(out.record.pending).toEqual([]);
    expect(out.log.map((l) => l.action)).toEqual(['cancelled', 'applied']);
  });

  it('removing a limit, a shorter cool-down, a new reset time and ending a lockout all wait', () => {
    let r = requestChange(newWalletRisk('sim', W, 0), { limits: { max_leverage: '5', max_order_notional: '1000' }, cooldown_ms: 2 * H }, 0).record;
    expect(r.cooldown_ms).toBe(2 * H);
    r = { ...r, lockout: { at: 0, until: 10 * H, reason: 'daily_loss', limit: 'daily_loss' } };
    const out = requestChange(r, { limits: { max_leverage: null }, cooldown_ms: H, reset_time: '08:00', end_lockout: true }, 100);
    expect(out.record.limits.max_leverage).toBe(5);
    expect(out.record.lockout).not.toBeNull();
    expect(out.record.pending.map((p) => [p.limit, p.value, p.effective_at])).toEqual([
      ['max_leverage', null, 100 + 2 * H],
      ['reset_time', '08:00', 100 + 2 * H],
      ['cooldown', String(H), 100 + 2 * H],
      ['lockout', null, 100 + 2 * H],
    ]);
    const later = settle(out.record, 100 + 2 * H).record;
    expect(later.limits.max_leverage).toBeNull();
    expect(later.reset_time).toBe('08:00');
    expect(later.cooldown_ms).toBe(H);
    expect(later.lockout).toBeNull();
    expect(WalletRiskSchema.safeParse(later).success).toBe(true);
  });

  it('per-market limits are their own keys', () => {
    const r = requestChange(newWalletRisk('sim', W, 0), { limits: { max_leverage: '3', max_position_notional: '5000' }, market: 'BTC' }, 0).record;
    expect(r.limits.markets).toEqual({ BTC: { max_leverage: 3, max_position_notional: '5000' } });
    expect(r.limits.max_leverage).toBeNull();
    const raised = requestChange(r, { limits: { max_leverage: '10' }, market: 'BTC' }, 5).record;
    expect(raised.pending[0]).toMatchObject({ limit: 'markets.BTC.max_leverage', value: '10' });
  });

  it('property: at any moment, what is in force is never looser than the tightest value asked for within the cool-down before it', () => {
    const step = fc.record({ value: fc.option(fc.integer({ min: 1, max: 1000 }).map(String), { nil: null }), dt: fc.integer({ min: 0, max: 3 * DEFAULT_COOLDOWN_MS }) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), fc.array(step, { maxLength: 25 }), (first, steps) => {
        let now = 0;
        let r = requestChange(newWalletRisk('sim', W, 0), { limits: { daily_loss: String(first) } }, now).record;
        const asked: { at: number; value: string | null; inForce: string | null }[] = [{ at: 0, value: String(first), inForce: String(first) }];
        for (const s of steps) {
          now += s.dt;
          const before = settle(r, now).record;
          const old = currentValue(before, 'daily_loss');
          r = requestChange(r, { limits: { daily_loss: s.value } }, now).record;
          const inForce = currentValue(r, 'daily_loss');
          const loosens = old !== null && (s.value === null || new Decimal(s.value).gt(old));
          // A loosening never takes effect when asked; anything else does.
          expect(inForce).toBe(loosens ? old : s.value);
          if (loosens) expect(r.pending.find((p) => p.limit === 'daily_loss')).toMatchObject({ value: s.value, effective_at: now + DEFAULT_COOLDOWN_MS });
          asked.push({ at: now, value: s.value, inForce });
        }
      }),
    );
  });
});
