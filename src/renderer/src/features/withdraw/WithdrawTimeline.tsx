/** REQUESTED → ACCEPTED → PROCESSING → COMPLETED, with where and why it stopped when it did not complete. */
import type { TrackedWithdrawalView } from '../../../../shared/ipc';
import { fmtUsd } from '../../lib/decimal';
import { fmtDateTime } from '../../lib/time';
import { Badge } from '../../ui/Badge';

const STEPS = ['REQUESTED', 'ACCEPTED', 'PROCESSING', 'COMPLETED'] as const;
const STEP_TEXT: Record<(typeof STEPS)[number], string> = {
  REQUESTED: 'Signed request accepted for processing; funds locked',
  ACCEPTED: 'Balance check passed',
  PROCESSING: 'Multi-signature review passed; transfer being sent',
  COMPLETED: 'Transfer sent to your wallet',
};
const FAILURE_TEXT: Record<string, string> = {
  REJECTED: 'Rejected — funds were not sent',
  REFUNDED: 'Refunded — the full amount is back in your free balance',
  FAILED: 'Failed — it could not be completed',
};

/** How far a withdrawal got: the index of its furthest step, and the failure when it ended badly. */
function progress(w: TrackedWithdrawalView): { reached: number; failure: string | null } {
  const status = w.status;
  if (status === null) return { reached: -1, failure: w.phase === 'UNMATCHED' ? 'UNMATCHED' : null };
  const i = (STEPS as readonly string[]).indexOf(status);
  if (i >= 0) return { reached: i, failure: null };
  // Terminal failures: REJECTED happens at the balance check (after REQUESTED); REFUNDED and FAILED after acceptance.
  return { reached: status === 'REJECTED' ? 0 : 1, failure: status };
}

export function WithdrawTimeline({ withdrawal: w }: { withdrawal: TrackedWithdrawalView }) {
  const { reached, failure } = progress(w);
  const reason = w.failure_reason ?? w.reason;
  return (
    <div className="stack" aria-label="Withdrawal progress">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <strong className="num">{fmtUsd(w.amount)} USDC</strong>
        <Badge tone={failure ? 'sell' : w.status === 'COMPLETED' ? 'buy' : 'info'}>{w.status ?? w.phase}</Badge>
      </div>
      {w.phase === 'SIGNED' && <p className="notice notice-info">Signed; confirming the service received it…</p>}
      {w.phase === 'LANDED' && <p className="notice notice-info">Sent; finding it in the withdrawal history…</p>}
      <ol className="timeline" aria-label="Withdrawal timeline">
        {STEPS.map((s, i) => {
          const done = i <= reached && !(failure && i > reached);
          const failedHere = failure !== null && i === reached + 1;
          const cls = failedHere ? 'failed' : done ? 'done' : i === reached + 1 ? 'current' : '';
          return (
            <li key={s} className={`tl-step ${cls}`} aria-label={`${s} ${failedHere ? 'failed' : done ? 'done' : 'pending'}`}>
              <span className="tl-dot" aria-hidden="true">
                {failedHere ? '×' : done ? '✓' : i + 1}
              </span>
              <div>
                <div className="tl-label">{failedHere ? failure : s}</div>
                <div className="tl-sub">
                  {failedHere ? FAILURE_TEXT[failure] ?? failure : STEP_TEXT[s]}
                  {s === 'REQUESTED' && w.created_at ? ` · ${fmtDateTime(w.created_at)}` : ''}
                  {s === 'COMPLETED' && done && w.completed_at ? ` · ${fmtDateTime(w.completed_at)}` : ''}
                </div>
                {failedHere && reason && (
                  <div className="tl-sub sell" role="alert">
                    Reason: {reason}
                  </div>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <dl className="kv-list">
        <div className="kv">
          <dt>Destination</dt>
          <dd className="addr">{w.destination}</dd>
        </div>
        {w.withdrawal_id && (
          <div className="kv">
            <dt>Withdrawal id</dt>
            <dd>{w.withdrawal_id}</dd>
          </div>
        )}
        {w.new_wallet_fee && (
          <div className="kv">
            <dt>New-wallet fee</dt>
            <dd>{fmtUsd(w.new_wallet_fee)}</dd>
          </div>
        )}
        {w.l1_send_amount && (
          <div className="kv">
            <dt>Amount sent</dt>
            <dd>{fmtUsd(w.l1_send_amount)}</dd>
          </div>
        )}
        {w.l1_tx_hash && (
          <div className="kv">
            <dt>Transfer</dt>
            <dd className="addr">{w.l1_tx_hash}</dd>
          </div>
        )}
      </dl>
      {w.note && <p className="muted" style={{ fontSize: 'var(--fs-sm)' }}>{w.note}</p>}
    </div>
  );
}
