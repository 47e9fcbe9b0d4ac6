/**
 * The points:* channels of one profile: a points estimate for a transfer before it is made, and the
 * points credited to the main wallet over a time range, under the app's partner code.
 */
import type { CreditedPointsView, PointsEstimateView } from '../../../shared/ipc.js';
import type { CompanionContext } from '../../services/companion/companionContext.js';
import { resolvePartnerCode } from '../../services/companion/companionSettings.js';
import { estimatePoints } from '../../services/points/estimate.js';
import { creditedPoints } from '../../services/points/leaderboard.js';
import type { WalletSession } from '../wallet.js';
import { requireAppPartnerCode } from './appPartnerCode.js';

export interface PointsDeskOptions {
  companion: CompanionContext;
  wallet: WalletSession;
}

export class PointsDesk {
  constructor(private readonly o: PointsDeskOptions) {}

  async estimate(req: { src_chain: string; dst_chain: string; src_token: string; dst_token: string; src_usd: string; dst_usd: string }): Promise<PointsEstimateView> {
    const c = this.o.companion;
    const r = await estimatePoints(c, {
      user: this.o.wallet.requireAddress(),
      srcChain: req.src_chain,
      dstChain: req.dst_chain,
      srcToken: req.src_token,
      dstToken: req.dst_token,
      srcUsd: req.src_usd,
      dstUsd: req.dst_usd,
      source: requireAppPartnerCode(c.resolveInput, 'to estimate partner points'),
    });
    return { point: r.point, partner_bonus: r.partnerBonus, source: r.source, from: r.from };
  }

  /** `from` and `to` are Unix ms (the service counts in seconds). */
  async credited(req: { from: number; to: number }): Promise<CreditedPointsView> {
    const c = this.o.companion;
    const partner = resolvePartnerCode(c.resolveInput);
    const r = await creditedPoints(c, {
      user: this.o.wallet.requireAddress(),
      from: Math.floor(req.from / 1000),
      to: Math.floor(req.to / 1000),
      ...(partner !== undefined ? { partnerCode: partner } : {}),
    });
    return {
      user: r.user,
      from: r.from,
      to: r.to,
      point: r.point,
      partner_bonuses: Object.entries(r.partnerBonuses).map(([code, bonus]) => ({ code, bonus })),
      partner_code: r.partnerCode,
      partner_bonus: r.partnerBonus,
    };
  }
}
