/**
 * Withdrawals (spec, "POST /account/withdraw" and the Withdrawal states), in the two public steps of
 * every signed action (signing/prepared.ts):
 *
 *   1. prepareWithdraw (prepare.ts) validates before signing: amount a positive decimal with at most 6
 *      places (USDC) and at most 64 characters (amount.ts), at least withdrawal.min_amount (from GET
 *      /config), at most free_balance; previews the new-wallet fee when the destination has never received
 *      a withdrawal (check.ts: a preview, the venue decides). Then it reserves the nonce, makes the intent
 *      id and builds the exact Withdraw typed data (amount in base units) and the view a person reviews;
 *   2. submitWithdraw (submit.ts) signs exactly that with the main wallet (the signature must recover it),
 *      splits it into { r, s, v }, persists the signed body and nonce, THEN sends (send.ts); a lost answer
 *      means the identical body is sent again (never a new signature), and a 409 on it means it landed:
 *      it is found in withdrawal history (reconcile.ts). An intent already stored is never signed again;
 *   3. it is tracked to COMPLETED / REJECTED / REFUNDED / FAILED (see ../tracker.ts), across restarts
 *      (resume.ts).
 *
 * Steps 1 and 2 may also happen on two machines (signedFile.ts): prepareWithdrawForLater +
 * signWithdrawalForLater on the one holding the main wallet (no network, no checks), and
 * submitSignedWithdrawal verifies, checks, persists and sends from an online one, under the same rules.
 *
 * Submit-time rejections (HTTP 200, status REJECTED) become OperationErrors whose code is the reason.
 */
export { parseWithdrawAmount } from './amount.js';
export { checkWithdrawal, type FeePreview, type WithdrawalCheck } from './check.js';
export { prepareWithdraw, prepareWithdrawForLater, type PrepareWithdrawInput, type PreparedWithdraw, type WithdrawView } from './prepare.js';
export { submitWithdraw, withdraw, type WithdrawInput, type WithdrawOutcome } from './submit.js';
export { rejectionError, unsuccessfulError } from './send.js';
export { SIGNED_WITHDRAWAL_FORMAT, signWithdrawalForLater, submitSignedWithdrawal, verifySignedWithdrawal, type SignedWithdrawalFile, type SubmitSignedOutcome } from './signedFile.js';
export { MAX_MATCH_ATTEMPTS, applyRow, matchLanded } from './reconcile.js';
export { listTrackedWithdrawals, listWithdrawalsChecked, resumeWithdrawals } from './resume.js';
