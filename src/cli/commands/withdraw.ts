/**
 * `perps withdraw`, `perps withdraw submit` and `perps balance`.
 *
 *   withdraw --wallet ADDR --amount DEC --signer SPEC [--wait]   check, sign, record, submit (one machine)
 *   withdraw --wallet ADDR --amount DEC --signer SPEC --out FILE sign only, on the machine holding the main
 *                                                                wallet: no network; FILE is the signed body
 *   withdraw submit FILE [--wait]                                on an online machine: verify, check,
 *                                                                record, submit
 *   withdraw --resume [--wait]                                   resend unconfirmed stored ones, unchanged
 *   withdraw --wallet ADDR --amount DEC --dry-run [--out FILE]   check and print what would be signed (the
 *                                                                review, the typed data, its digest); sign,
 *                                                                send and write nothing, no --signer needed
 *
 * A withdrawal is checked before anything is signed (exit 2 on a bad amount, under the minimum, over the
 * free balance); then signed by the main wallet, stored with its signature, submitted, and with --wait
 * followed to its terminal status (exit 0 only for COMPLETED). Stored withdrawals whose submission was
 * never confirmed are resent unchanged first (`--resume` does only that), never signed again.
 *
 * Split across two machines, the checks move to `submit` (the signing machine may have no network), and
 * the same rule holds: the file's body is verified, recorded in the data folder, then sent; the same file
 * submitted again is recognised (here: resumed from its record; from another data folder: the service's
 * 409 says it landed, and it is found in history), so one signature is one withdrawal at most.
 */
import type { Command } from 'commander';
import { ValidationError } from '../../main/services/errors.js';
import { readAccountHealth } from '../../main/services/reads/accountHealth.js';
import { WithdrawalTracker } from '../../main/services/money/tracker.js';
import type { TrackedWithdrawal } from '../../main/services/money/withdrawalStore.js';
import {
  prepareWithdraw,
  prepareWithdrawForLater,
  resumeWithdrawals,
  signWithdrawalForLater,
  submitSignedWithdrawal,
  submitWithdraw,
  unsuccessfulError,
} from '../../main/services/money/withdrawals/index.js';
import { describeFailure } from '../../main/services/errors.js';
import { printDryRun } from '../dryRun.js';
import { signerSpecUpFront } from '../signerUpFront.js';
import { contextOf, globalsOf, signingContextOf } from '../globals.js';
import { formatFields, formatTable, formatTime, runAction } from '../output.js';
import { cents, fixedPlaces, percent } from '../numbers.js';
import { writePrivateFile } from '../outFile.js';
import { readJsonFile } from '../jsonFile.js';
import { durationFlag, timeoutOf } from '../parse.js';
import { createProgress } from '../progress.js';
import { openSigner, parseSignerSpec, signerOptionsOf } from '../signerSpec.js';
import { noteForgottenPaperWallet } from '../paperRestartNote.js';

interface WithdrawOpts {
  wallet?: string;
  amount?: string;
  wait?: boolean;
  resume?: boolean;
  out?: string;
  timeout?: string;
  dryRun?: boolean;
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
  const withdraw = program
    .command('withdraw')
    .description('withdraw USDC to the wallet itself (signed by the main wallet), optionally waiting until it completes')
    // Not requiredOption: commander checks a command's mandatory options for its subcommands too, and
    // `withdraw submit FILE` takes the wallet from the signed file.
    .option('--wallet <address>', 'main wallet (the account and the destination); required except for `submit`')
    .option('--amount <usdc>', 'whole USDC, at most 6 decimals, e.g. 25 or 12.5')
    .option('--wait', 'follow it until COMPLETED (exit 0), or REJECTED / REFUNDED / FAILED (exit 1)')
    .option('--resume', 'only resend unconfirmed stored withdrawals (unchanged) and report the open ones')
    .option('--out <file>', 'sign only: write the signed withdrawal to this file (no network), for `perps withdraw submit FILE` on an online machine')
    .option('--timeout <duration>', 'with --wait: give up waiting after this long, a duration such as 30s or 5m (tracking resumes next time)', durationFlag('timeout'))
    .option('--dry-run', 'check it and print what would be signed (the review, the typed data and its digest); sign, send and write nothing (no --signer needed)')
    .action(async (opts: WithdrawOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        if (opts.wallet === undefined) throw new ValidationError("required option '--wallet <address>' not specified", { code: 'USAGE' });
        const wallet = opts.wallet;
        const timeoutMs = timeoutOf(opts.timeout);
        const dryRun = opts.dryRun === true;
        if (dryRun && (opts.resume === true || opts.wait === true)) {
          throw new ValidationError('--dry-run only prints what would be signed; --wait and --resume send', { field: 'dry-run', code: 'USAGE' });
        }
        if (opts.resume !== true) {
          if (opts.amount === undefined) throw new ValidationError('is required (or use --resume)', { field: 'amount' });
          // A dry run signs nothing, so it needs no signer (one given is still checked).
          if (!dryRun || g.signer !== undefined) signerSpecUpFront(g);
        }
        if (opts.out !== undefined) {
          if (opts.resume === true || opts.wait === true) {
            throw new ValidationError('--out only signs; --wait and --resume belong to `perps withdraw submit` on the online machine', { field: 'out', code: 'USAGE' });
          }
          // The offline half: the profile gives the environment and chain id; nothing is fetched.
          const ctx = signingContextOf(g);
          const prepared = await prepareWithdrawForLater(ctx, { wallet, amount: opts.amount! });
          if (dryRun) return printDryRun(out, prepared, prepared.view);
          const signer = await openSigner(parseSignerSpec(g.signer), { wallet: prepared.wallet, ...signerOptionsOf(g), paper: ctx });
          const file = await signWithdrawalForLater(prepared, signer);
          await writePrivateFile(opts.out, JSON.stringify(file, null, 2) + '\n');
          const result = { out: opts.out, wallet: file.wallet, amount: file.amount, destination: file.destination, service_environment: file.service_environment, nonce: file.body.nonce, submitted: false };
          out.result(
            result,
            () =>
              `Signed withdrawal of ${file.amount} USDC written to ${opts.out}. It is not checked against the balance or the minimum yet: that happens at submit.\nSubmit it on the online machine with: perps withdraw submit ${opts.out} --wait`,
          );
          return;
        }
        if (dryRun) {
          // Stored withdrawals are not resent either: a dry run sends nothing.
          const prepared = await prepareWithdraw(contextOf(g), { wallet, amount: opts.amount! });
          return printDryRun(out, prepared, prepared.view);
        }
        const ctx = contextOf(g);
        const progress = createProgress({ json });
        const tracker = new WithdrawalTracker(ctx, { onUpdate: (r) => progress.update(`withdrawal ${r.withdrawal_id ?? r.intent_id}: ${r.status ?? r.phase}`) });

        // Reconcile first: anything stored whose submission was never confirmed is resent unchanged.
        const resumed = await resumeWithdrawals(ctx, { wallet });
        for (const e of resumed.errors) {
          const f = describeFailure(e.error);
          out.note(`stored withdrawal ${e.intent_id}: ${f.code}: ${f.message}`);
        }
        // A record file that cannot be read is shown, never hidden, and never sent.
        for (const d of resumed.damaged) out.note(`warning: the withdrawal record ${d.name} is damaged and was not resumed: ${d.reason}`);

        if (opts.resume === true) {
          const ids = new Set(resumed.records.map((r) => r.intent_id));
          const records = opts.wait === true && ids.size > 0 ? await waitForAll(tracker, ids, timeoutMs) : resumed.records;
          progress.done();
          const views = records.map(withdrawalView);
          out.result({ withdrawals: views, damaged: resumed.damaged.map((d) => ({ file: d.file, reason: d.reason })) }, () =>
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

        const prepared = await prepareWithdraw(ctx, { wallet, amount: opts.amount! });
        const check = prepared.check;
        if (check?.fee_preview) out.note(check.fee_preview.note);
        for (const w of check?.warnings ?? []) out.note(`warning: ${w}`);
        const signer = await openSigner(parseSignerSpec(g.signer), { wallet: prepared.wallet, ...signerOptionsOf(g), paper: ctx });
        progress.update(`submitting the withdrawal of ${prepared.amount} USDC`);
        let record: TrackedWithdrawal;
        try {
          record = (await submitWithdraw(ctx, prepared, signer)).withdrawal;
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

  withdraw
    .command('submit')
    .description('submit a withdrawal signed with `perps withdraw --out FILE` (verified and recorded before it is sent)')
    .argument('<file>', 'signed withdrawal (JSON)')
    .option('--wait', 'follow it until COMPLETED (exit 0), or REJECTED / REFUNDED / FAILED (exit 1)')
    .option('--timeout <duration>', 'with --wait: give up waiting after this long, a duration such as 30s or 5m (tracking resumes next time)', durationFlag('timeout'))
    .action(async (file: string, _opts: unknown, cmd: Command) => {
      const g = globalsOf(cmd);
      // The parent `withdraw` knows --wait and --timeout too and, options not being positional, claims
      // them wherever they appear: read them from the merged view, not from this command's own.
      const opts = cmd.optsWithGlobals<{ wait?: boolean; timeout?: string }>();
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const timeoutMs = timeoutOf(opts.timeout);
        const raw = await readJsonFile(file, { what: 'a signed withdrawal', field: 'file', code: 'INVALID_WITHDRAWAL_FILE' });
        const ctx = contextOf(g);
        const progress = createProgress({ json });
        const tracker = new WithdrawalTracker(ctx, { onUpdate: (r) => progress.update(`withdrawal ${r.withdrawal_id ?? r.intent_id}: ${r.status ?? r.phase}`) });
        let outcome: Awaited<ReturnType<typeof submitSignedWithdrawal>>;
        let record: TrackedWithdrawal;
        try {
          progress.update(`submitting the signed withdrawal in ${file}`);
          outcome = await submitSignedWithdrawal(ctx, raw);
          record = outcome.withdrawal;
          if (outcome.check?.fee_preview) out.note(outcome.check.fee_preview.note);
          for (const w of outcome.check?.warnings ?? []) out.note(`warning: ${w}`);
          if (outcome.already_submitted) out.note(`${file} was submitted from this data folder before: reporting that withdrawal, not sending a new one.`);
          if (opts.wait === true) record = await tracker.waitFor(record.intent_id, timeoutMs !== undefined ? { timeoutMs } : {});
        } finally {
          progress.done();
        }
        if (opts.wait === true && record.status !== 'COMPLETED') throw unsuccessfulError(record);
        out.result({ withdrawal: withdrawalView(record), check: outcome.check, already_submitted: outcome.already_submitted }, () => humanWithdrawal(record));
      });
    });

  program
    .command('balance')
    .description("the account's free balance and health: posted margin, unrealized PnL, computed equity, maintenance margin, margin ratio, leverage")
    .requiredOption('--wallet <address>', 'main wallet')
    .action(async (opts: { wallet: string }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const ctx = contextOf(g);
        const h = await readAccountHealth(ctx, opts.wallet);
        await noteForgottenPaperWallet(ctx, h.wallet, h.free_balance);
        // The risk limits' room left, worded as in the app's header and `perps limits show` (issue 39).
        const { riskRoomLines } = await import('./limits.js');
        const room = await riskRoomLines(ctx, h.wallet);
        const usd = (v: string | null) => (v === null ? '-' : `${cents(v)} USDC`);
        out.result(h, () =>
          [
            formatFields([
              ['wallet', h.wallet],
              ['free balance', `${h.free_balance} USDC (excludes posted margin, unrealized PnL and withdrawals in flight)`],
              ['posted margin', usd(h.posted_margin)],
              ['unrealized PnL', usd(h.unrealized_pnl)],
              ['equity (computed)', usd(h.equity)],
              ['maintenance margin', usd(h.maintenance_margin)],
              ['margin ratio', h.margin_ratio === null ? '-' : `${percent(h.margin_ratio)} (maintenance margin / equity)`],
              ['account leverage', h.account_leverage === null ? '-' : `${fixedPlaces(h.account_leverage, 2)}x (open notional ${usd(h.open_notional)} / equity)`],
              ['withdrawable', `${h.withdrawable} USDC`],
            ]),
            '',
            h.note,
            ...(h.unpriced_markets.length > 0 ? [`No venue mark for ${h.unpriced_markets.join(', ')}: the figures that need one are left out.`] : []),
            ...(room.length > 0 ? ['', ...room] : []),
          ].join('\n'),
        );
      });
    });
}
