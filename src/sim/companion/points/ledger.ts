/**
 * Credited points events. Bridge orders that reach `done` and executed aggregator swaps credit the
 * transaction's sender (sim choice: the spec does not say who is credited; the wallet that paid is the
 * natural owner). Every such event earns base points; the partner bonus needs a known partner code.
 */
import type { CompanionConfig } from '../config.js';
import type { Catalog } from '../common/catalog.js';
import { Dec, usdString } from '../common/amounts.js';
import { computePoints, pointsNumber } from './formula.js';

export interface PointsEvent {
  id: string;
  kind: 'bridge' | 'swap';
  /** Source transaction hash. */
  ref: string;
  /** Lowercase wallet credited. */
  user: string;
  /** Unix ms (SimClock) of the crediting. */
  at: number;
  srcChain: string;
  dstChain: string;
  srcUsd: string;
  dstUsd: string;
  point: string;
  partnerCode: string | null;
  partnerBonus: string;
}

export interface CreditInput {
  kind: PointsEvent['kind'];
  ref: string;
  user: string;
  at: number;
  srcChain: string;
  dstChain: string;
  srcUsd: Dec;
  dstUsd: Dec;
  source: string | null;
}

export class PointsLedger {
  private events: PointsEvent[] = [];

  constructor(
    private readonly config: CompanionConfig,
    private readonly catalog: Catalog,
  ) {}

  credit(input: CreditInput): PointsEvent {
    const r = computePoints(this.config, this.catalog, input);
    const ev: PointsEvent = {
      id: `${input.kind}:${input.ref.toLowerCase()}`,
      kind: input.kind,
      ref: input.ref.toLowerCase(),
      user: input.user.toLowerCase(),
      at: input.at,
      srcChain: input.srcChain,
      dstChain: input.dstChain,
      srcUsd: usdString(input.srcUsd),
      dstUsd: usdString(input.dstUsd),
      point: r.point.toFixed(),
      partnerCode: r.partnerCode,
      partnerBonus: r.partnerBonus.toFixed(),
    };
    // One credit per source transaction: a settlement seen twice must not pay twice.
    if (this.events.some((e) => e.id === ev.id)) throw new Error(`points already credited for ${ev.id}`);
    this.events.push(ev);
    return ev;
  }

  /** Events of `user` with fromSec <= at (in Unix seconds) <= toSec. */
  leaderboard(user: string, fromSec: number, toSec: number) {
    const u = user.toLowerCase();
    const hits = this.events.filter((e) => e.user === u && Math.floor(e.at / 1000) >= fromSec && Math.floor(e.at / 1000) <= toSec);
    let point = new Dec(0);
    const bonuses = new Map<string, Dec>();
    for (const e of hits) {
      point = point.add(e.point);
      if (e.partnerCode !== null) bonuses.set(e.partnerCode, (bonuses.get(e.partnerCode) ?? new Dec(0)).add(e.partnerBonus));
    }
    return {
      user: u,
      from: fromSec,
      to: toSec,
      total: {
        point: pointsNumber(point),
        pointPartnerBonuses: Object.fromEntries([...bonuses].map(([code, v]) => [code, pointsNumber(v)])),
      },
      // Sim extra: the credited events behind the totals, newest first.
      history: hits
        .slice()
        .reverse()
        .map((e) => ({ kind: e.kind, ref: e.ref, at: Math.floor(e.at / 1000), srcChain: e.srcChain, dstChain: e.dstChain, srcUsd: e.srcUsd, dstUsd: e.dstUsd, point: pointsNumber(new Dec(e.point)), partnerCode: e.partnerCode, partnerBonus: pointsNumber(new Dec(e.partnerBonus)) })),
    };
  }

  exportState(): PointsEvent[] {
    return this.events.map((e) => ({ ...e }));
  }

  importState(events: PointsEvent[]): void {
    this.events = events.map((e) => ({ ...e }));
  }
}
