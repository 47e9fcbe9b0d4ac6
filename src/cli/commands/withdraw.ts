/**
 * `perps withdraw --wallet ADDR --amount DEC --signer SPEC [--wait]` and `perps balance --wallet ADDR`.
 *
 * A withdrawal is checked before anything is signed (exit 2 on a bad amount, under the minimum, over the
 * free balance); then signed by the main wallet, stored with its signature, submitted, and with --wait
 * followed to its terminal status (exit 0 only for COMPLETED). Stored withdrawals whose submission was
 * never confirmed are resent unchanged first (`--resume` does only that), never signed again.
 */
import type { Command } from 'commander';
import { ValidationError } from '../../main/services/errors.js';
import { balanceOf } from '../../main/services/money/funds.js';
import { WithdrawalTracker } from '../../main/services/money/tracker.js';
import type { TrackedWithdrawal } from '../../main/services/money/withdrawalStore.js';
import { checkWithdrawal, executeWithdrawal, resumeWithdrawals, unsuccessfulError } from '../../main/services/money/withdrawals.js';
import { describeFailure } from '../../main/services/errors.js';
import { contextOf, globalsOf } from '../globals.js';
import { formatFields, formatTable, formatTime, runAction } from '../output.js';
import { parseNumberOption } from '../parse.js';
import { createProgress } from '../progress.js';
import { openSigner, parseSignerSpec } from '../signerSpec.js';

interface WithdrawOpts {
  wallet: string;
  amount?: string;
  wait?: boolean;
  resume?: boolean;
  out?: string;
  timeout?: string;
}

/** What the command prints of a stored withdrawal: everything but the signed body. */
export function withdrawalView(r: TrackedWithdrawal): Record<string, unknown> {
  return {
    intent_id: r.intent_id,
    withdrawal_id: r.withdrawal_id,
    wallet: r.wallet,
    amount: r.amount,
    destination: r.destination,
    phase: r.phase,
    status: r.status,
    reason: r.reason,
    new_wallet_fee: r.new_wallet_fee,
    failure_reason: r.failure_reason,
    l1_send_amount: r.l1_send_amount,
    l1_tx_hash: r.l1_tx_hash,
    nonce: r.nonce,
    created_at: r.created_at,
    completed_at: r.completed_at,
    note: r.note,
  };
}

function humanWithdrawal(r: TrackedWithdrawal): string {
  return formatFields([
    ['withdrawal', r.withdrawal_id ?? '(not known yet)'],
    ['amount', `${r.amount} USDC to ${r.destination}`],
    ['status', r.status ?? r.phase],
    ...(r.l1_send_amount ? ([['sent', `${r.l1_send_amount} USDC`]] as const) : []),
    ...(r.failure_reason ? ([['failure', r.failure_reason]] as const) : []),
    ...(r.l1_tx_hash ? ([['tx', r.l1_tx_hash]] as const) : []),
    ...(r.completed_at ? ([['completed', formatTime(r.completed_at)]] as const) : []),
    ...(r.note ? ([['note', r.note]] as const) : []),
  ]);
}

async function waitForAll(tracker: WithdrawalTracker, ids: Set<string>, timeoutMs: number | undefined): Promise<TrackedWithdrawal[]> {
  return tracker.waitUntilClosed((r) => ids.has(r.intent_id), timeoutMs !== undefined ? { timeoutMs } : {});
}

export function registerWithdrawCommands(program: Command): void {
  program
    .command('withdraw')
    .description('withdraw USDC to the wallet itself (signed by the main wallet), optionally waiting until it completes')
    .requiredOption('--wallet <address>', 'main wallet (the account and the destination)')
    .option('--amount <usdc>', 'whole USDC, at most 6 decimals, e.g. 25 or 12.5')
    .option('--wait', 'follow it until COMPLETED (exit 0), or REJECTED / REFUNDED / FAILED (exit 1)')
    .option('--resume', 'only resend unconfirmed stored withdrawals (unchanged) and report the open ones')
    .option('--out <file>', 'with --signer offline: write the typed data to this file instead of stdout')
    .option('--timeout <seconds>', 'with --wait: give up waiting after this long (tracking resumes next time)')
    .action(async (opts: WithdrawOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const timeoutSec = parseNumberOption(opts.timeout, 'timeout');
        const timeoutMs = timeoutSec !== undefined ? timeoutSec * 1000 : undefined;
        if (opts.resume !== true) {
          if (opts.amount === undefined) throw new ValidationError('is required (or use --resume)', { field: 'amount' });
          parseSignerSpec(g.signer);
        }
        const ctx = contextOf(g);
        const progress = createProgress({ json });
        const tracker = new WithdrawalTracker(ctx, { onUpdate: (r) => progress.update(`withdrawal ${r.withdrawal_id ?? r.intent_id}: ${r.status ?? r.phase}`) });

        // Reconcile first: anything stored whose submission was never confirmed is resent unchanged.
        const resumed = await resumeWithdrawals(ctx, { wallet: opts.wallet });
        for (const e of resumed.errors) {
          const f = describeFailure(e.error);
          out.note(`stored withdrawal ${e.intent_id}: ${f.code}: ${f.message}`);
        }

        if (opts.resume === true) {
          const ids = new Set(resumed.records.map((r) => r.intent_id));
          const records = opts.wait === true && ids.size > 0 ? await waitForAll(tracker, ids, timeoutMs) : resumed.records;
          progress.done();
          const views = records.map(withdrawalView);
          out.result({ withdrawals: views }, () =>
            formatTable(
              records,
              [
                { header: 'WITHDRAWAL', value: (r) => r.withdrawal_id ?? '-' },
                { header: 'AMOUNT', value: (r) => r.amount, align: 'right' },
                { header: 'STATUS', value: (r) => r.status ?? r.phase },
                { header: 'NOTE', value: (r) => r.note ?? '' },
              ],
              'no withdrawals in flight',
            ),
          );
          // Waiting means "until completed": anything that ended otherwise is a failed operation.
          return opts.wait === true && records.some((r) => r.status !== 'COMPLETED') ? 1 : undefined;
        }

        const check = await checkWithdrawal(ctx, { wallet: opts.wallet, amount: opts.amount! });
        if (check.fee_preview) out.note(check.fee_preview.note);
        for (const w of check.warnings) out.note(`warning: ${w}`);
        const signer = await openSigner(parseSignerSpec(g.signer), { wallet: check.wallet, json, ...(opts.out !== undefined ? { requestOut: opts.out } : {}) });
        progress.update(`submitting the withdrawal of ${check.amount} USDC`);
        let record: TrackedWithdrawal;
        try {
          record = await executeWithdrawal(ctx, { wallet: check.wallet, amount: check.amount, signer });
          if (opts.wait === true) {
            progress.update(`withdrawal ${record.withdrawal_id ?? ''}: ${record.status ?? record.phase}`);
            record = await tracker.waitFor(record.intent_id, timeoutMs !== undefined ? { timeoutMs } : {});
          }
        } finally {
          progress.done();
        }
        if (opts.wait === true && record.status !== 'COMPLETED') throw unsuccessfulError(record);
        out.result({ withdrawal: withdrawalView(record), check }, () => humanWithdrawal(record));
      });
    });

  program
    .command('balance')
    .description("the account's free balance (excludes posted margin, unrealized PnL and funds held by withdrawals in flight)")
    .requiredOption('--wallet <address>', 'main wallet')
    .action(async (opts: { wallet: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const b = await balanceOf(contextOf(g), opts.wallet);
        out.result(b, () => formatFields([['wallet', b.wallet], ['free balance', `${b.free_balance} USDC`]]));
      });
    });
}
