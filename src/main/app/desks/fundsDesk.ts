/**
 * funding:*, account:balance, account:health and withdraw:* — where to deposit, the simulator's faucet, the
 * free balance, the account's computed health figures, and withdrawals: withdraw:preview prepares one (checked against /config and the balance, its nonce
 * reserved, one intent id per preview) and keeps the Prepared; withdraw:submit signs exactly that with the
 * connected custody signer, stores it and sends it (a second submit of one review can never sign twice).
 */
import type { AccountHealthView, BalanceView, DepositInfo, IpcResponse, TrackedWithdrawalView, WithdrawPreview } from '../../../shared/ipc.js';
import { oneLineText } from '../../../shared/safeText.js';
import { OperationError } from '../../services/errors.js';
import { balanceOf, depositInfo } from '../../services/money/funds.js';
import { listWithdrawalsChecked, prepareWithdraw, submitWithdraw, type PreparedWithdraw } from '../../services/money/withdrawals/index.js';
import { readAccountHealth } from '../../services/reads/accountHealth.js';
import { simFaucet } from '../../services/sim/faucet.js';
import type { DeskContext } from '../deskContext.js';
import { trackedWithdrawalView } from '../views.js';
import { signingReview } from './signingReview.js';

export class FundsDesk {
  constructor(private readonly session: DeskContext) {}

  async depositInfo(): Promise<DepositInfo> {
    const info = await depositInfo(this.session.ctx());
    return { address: info.address, rails: info.rails, note: info.note, faucet_available: this.session.sim !== null };
  }

  async faucet(req: { amount: string }): Promise<IpcResponse<'funding:faucet'>> {
    const sim = this.session.sim;
    if (!sim || this.session.profile?.name !== 'sim') {
      throw new OperationError('NOT_SIM_PROFILE', 'the faucet exists only on the simulator profile', { hint: 'On mainnet, deposit by a venue spot transfer to the deposit address.' });
    }
    const wallet = this.session.wallet.requireAddress();
    // The faucet's own rules (amount bounds, the deposit minimum) are the command line's too. The page
    // polls the balance, so the credit is not waited for here.
    const { amount } = await simFaucet(this.session.ctx(), { wallet, amount: req.amount, wait: false }, { controlUrl: sim.urls.control_url, fetch: this.session.fetch });
    this.session.raise({ type: 'history.changed', kinds: ['deposits'] });
    return { wallet, amount };
  }

  async balance(): Promise<BalanceView> {
    return balanceOf(this.session.ctx(), this.session.wallet.requireAddress());
  }

  /** Equity, maintenance margin, margin ratio, leverage, withdrawable: computed (no equity endpoint), priced at the streamed marks. */
  async health(): Promise<AccountHealthView> {
    const pumps = this.session.pumps;
    return readAccountHealth(this.session.ctx(), this.session.wallet.requireAddress(), pumps ? { marks: (m) => pumps.latestMark(m) } : {});
  }

  async previewWithdraw(req: { amount: string }): Promise<WithdrawPreview> {
    const wallet = this.session.wallet.requireAddress();
    const signer = this.session.wallet.requireSigner();
    const prepared = await prepareWithdraw(this.session.ctx(), { wallet, amount: req.amount });
    const entry = this.session.reviews.put('withdraw', this.session.scope(), this.session.reviewTtl('custody'), prepared);
    const check = prepared.check!;
    return {
      check: {
        wallet: check.wallet,
        amount: check.amount,
        destination: check.destination,
        free_balance: check.free_balance,
        min_amount: check.min_amount,
        fee_preview: check.fee_preview ? { new_wallet_fee: check.fee_preview.new_wallet_fee, estimated_l1_send_amount: check.fee_preview.estimated_l1_send_amount, note: check.fee_preview.note } : null,
        warnings: check.warnings,
      },
      review: signingReview(entry.id, entry.validUntil, signer, prepared.requests[0]!.typedData),
    };
  }

  async submitWithdraw(req: { review_id: string }): Promise<TrackedWithdrawalView> {
    const { payload: prepared } = this.session.reviews.take<'withdraw', PreparedWithdraw>(req.review_id, 'withdraw', this.session.scope());
    const outcome = await submitWithdraw(this.session.ctx(), prepared, this.session.wallet.requireSigner());
    const view = trackedWithdrawalView(outcome.withdrawal);
    this.session.raise({ type: 'withdrawals.changed', withdrawal: view });
    this.session.raise({ type: 'history.changed', kinds: ['withdrawals'] });
    return view;
  }

  /** The wallet's tracked withdrawals, and apart the record files that cannot be read (shown, never sent). */
  async trackedWithdrawals(): Promise<IpcResponse<'withdraw:list'>> {
    const { records, damaged } = listWithdrawalsChecked(this.session.ctx(), { wallet: this.session.wallet.requireAddress() });
    return { withdrawals: records.map(trackedWithdrawalView), damaged: damaged.map((d) => ({ name: oneLineText(d.name), reason: oneLineText(d.reason), changed_at: d.changedAt })) };
  }
}
