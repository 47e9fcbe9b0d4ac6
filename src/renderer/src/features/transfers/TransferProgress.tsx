/**
 * Where a bridge or swap transfer is, driven by the `transfers` event: quote and encode → approve (when
 * the token needs it) → sign → send → confirm → the bridge delivering (bridges only) → done, refunded or
 * failed, with what each end means and the hashes to follow it elsewhere. While a bridge is followed, a
 * failing read of its order (or a source receipt that was not confirmed) shows as a warning: the app
 * keeps trying, and the warning goes once a read succeeds.
 */
import type { TransferPhase, TransferView } from '../../../../shared/ipc';
import { RECEIPT_UNCONFIRMED } from '../../../../shared/transferNotes';
import { stoppedAt } from '../../ipc/companionQueries';
import { fmtDateTime, fmtTime } from '../../lib/time';
import { fmtPoints } from '../../lib/units';
import { Badge, type Tone } from '../../ui/Badge';
import { CopyText } from '../../ui/CopyText';
import { KV, KVList } from '../../ui/Panel';
import { TokenAmount, TokenSymbol } from './TokenAmount';

type StepId = 'quote' | 'approve' | 'sign' | 'send' | 'confirm' | 'bridge' | 'end';

const PHASE_STEP: Record<Exclude<TransferPhase, 'error'>, StepId> = {
  preparing: 'quote',
  'estimating-points': 'quote',
  quoting: 'quote',
  encoding: 'quote',
  requoting: 'quote',
  'checking-allowance': 'approve',
  approving: 'approve',
  signing: 'sign',
  sending: 'send',
  confirming: 'confirm',
  tracking: 'bridge',
  done: 'end',
  refunded: 'end',
  failed: 'end',
};

const PHASE_TEXT: Partial<Record<TransferPhase, string>> = {
  preparing: 'Checking the inputs and the source chain’s RPC',
  'estimating-points': 'Estimating the points this transfer earns',
  quoting: 'Asking for quotes',
  encoding: 'Encoding the transaction (a bridge route within its quote’s 30 seconds)',
  requoting: 'The quote expired or had no routes: re-quoting automatically',
  'checking-allowance': 'Checking the token allowance',
  approving: 'Approving the router to spend the token',
  signing: 'Signing with your main wallet',
  sending: 'Broadcasting the transaction',
  confirming: 'Waiting for the receipt',
};

export const PHASE_LABEL: Record<TransferPhase, string> = {
  preparing: 'preparing',
  'estimating-points': 'estimating points',
  quoting: 'quoting',
  encoding: 'encoding',
  requoting: 're-quoting',
  'checking-allowance': 'checking allowance',
  approving: 'approving',
  signing: 'signing',
  sending: 'sending',
  confirming: 'confirming',
  tracking: 'bridge pending',
  done: 'done',
  refunded: 'refunded',
  failed: 'failed',
  error: 'error',
};

export function phaseTone(t: TransferView): Tone {
  if (t.phase === 'done') return 'buy';
  if (t.phase === 'refunded') return 'warn';
  if (t.phase === 'failed' || t.phase === 'error') return 'sell';
  return 'info';
}

/** The step a transfer stopped at with an error: remembered when this window saw it, else read from its hashes. */
function errorStep(t: TransferView): StepId {
  const before = stoppedAt(t.id);
  if (before && before !== 'error') return PHASE_STEP[before];
  if (t.bridge_state !== null) return 'bridge';
  if (t.src_tx) return 'confirm';
  if (t.approve_tx) return 'sign';
  return 'quote';
}

function stepsOf(t: TransferView): { id: StepId; label: string }[] {
  const end = t.phase === 'refunded' ? 'Refunded' : t.phase === 'failed' ? 'Failed' : 'Done';
  return [
    { id: 'quote', label: t.kind === 'bridge' ? 'Quote and encode' : 'Quote' },
    { id: 'approve', label: 'Approve' },
    { id: 'sign', label: 'Sign' },
    { id: 'send', label: 'Send' },
    { id: 'confirm', label: 'Confirm' },
    ...(t.kind === 'bridge' ? [{ id: 'bridge' as const, label: 'Bridge pending' }] : []),
    { id: 'end', label: end },
  ];
}

function stepText(id: StepId, t: TransferView, state: 'done' | 'in progress' | 'failed' | 'pending'): string {
  const current = state === 'in progress' ? PHASE_TEXT[t.phase] : undefined;
  switch (id) {
    case 'quote':
      if (current) return current;
      if (t.kind === 'swap') return 'A fresh quote from the aggregator, for the transaction';
      return t.protocol ? `Route: ${t.protocol}${t.requotes > 0 ? ` · re-quoted ${t.requotes}×` : ''}` : 'Quote for the chosen route';
    case 'approve':
      if (current) return current;
      if (state === 'done') return t.approve_tx ? 'Router approved to spend the token' : 'Not needed (native token, or the allowance was already enough)';
      return 'Only when an ERC-20 allowance is short';
    case 'sign':
      return current ?? 'The main wallet signs the source-chain transaction';
    case 'send':
      return current ?? `Broadcast on ${t.from_chain}`;
    case 'confirm':
      return current ?? (state === 'done' ? `Confirmed on ${t.from_chain}` : `Receipt on ${t.from_chain}`);
    case 'bridge':
      if (state === 'in progress') {
        return t.bridge_state === 'pending'
          ? `The bridge is delivering to ${t.to_chain}${t.bridge_orders > 1 ? ` (${t.bridge_orders} orders)` : ''}`
          : 'Sent; waiting for the bridge to index the transaction';
      }
      return `The bridge delivers to ${t.to_chain}`;
    case 'end':
      if (t.phase === 'done') return t.kind === 'bridge' ? `Delivered on ${t.to_chain}` : 'Swap confirmed on chain';
      if (t.phase === 'refunded') return 'The bridge could not deliver and returned the full value on the venue: check your venue balance.';
      if (t.phase === 'failed') return 'The bridge could not deliver. Wait for the operator to retry it, or contact them with the source transaction hash below.';
      return t.kind === 'bridge' ? `Value arrives on ${t.to_chain}` : 'Tokens arrive in your wallet';
  }
}

/** Today's times as hh:mm:ss, older ones with their date. */
function fmtSince(ms: number): string {
  return new Date(ms).toDateString() === new Date().toDateString() ? fmtTime(ms) : fmtDateTime(ms);
}

/** Why the bridge's state shown may be stale, while the app keeps following it. */
export function PollWarning({ transfer: t }: { transfer: TransferView }) {
  const e = t.poll_error;
  if (!e || t.final) return null;
  return (
    <div className="notice notice-warn" role="status" aria-label="Bridge tracking warning">
      {e.code === RECEIPT_UNCONFIRMED ? (
        <>Receipt not confirmed: {e.message}.</>
      ) : (
        <>
          Can’t reach the bridge since {fmtSince(e.since)}: <code className="err-code">{e.code}</code> {e.message}; still trying.
        </>
      )}
      {e.hint && <div className="state-hint">{e.hint}</div>}
    </div>
  );
}

export function TransferProgress({ transfer: t }: { transfer: TransferView }) {
  const steps = stepsOf(t);
  const failedStep = t.phase === 'error' ? errorStep(t) : t.phase === 'refunded' || t.phase === 'failed' ? 'end' : null;
  const currentId: StepId = t.phase === 'error' ? errorStep(t) : PHASE_STEP[t.phase];
  const currentIndex = steps.findIndex((s) => s.id === currentId);
  const allDone = t.phase === 'done';
  const title = t.kind === 'bridge' ? `Bridge ${t.from_chain} → ${t.to_chain}` : `Swap on ${t.from_chain}`;
  return (
    <div className="stack" aria-label="Transfer progress">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <strong>
          {title} · <TokenAmount units={t.amount_units} chain={t.from_chain} token={t.from_token} />
        </strong>
        <Badge tone={phaseTone(t)}>{PHASE_LABEL[t.phase]}</Badge>
      </div>
      {t.requotes > 0 && (
        <p className="notice notice-info">
          Re-quoted {t.requotes} {t.requotes === 1 ? 'time' : 'times'}: a quote expired before it was encoded or had no routes. A new route below the minimum received is never taken silently.
        </p>
      )}
      <PollWarning transfer={t} />
      <ol className="timeline" aria-label="Transfer timeline">
        {steps.map((s, i) => {
          const state: 'done' | 'in progress' | 'failed' | 'pending' =
            failedStep === s.id ? 'failed' : allDone || i < currentIndex ? 'done' : i === currentIndex && !t.final ? 'in progress' : 'pending';
          const cls = state === 'failed' ? 'failed' : state === 'done' ? 'done' : state === 'in progress' ? 'current' : '';
          return (
            <li key={s.id} className={`tl-step ${cls}`} aria-label={`${s.label}: ${state}`} aria-current={state === 'in progress' ? 'step' : undefined}>
              <span className="tl-dot" aria-hidden="true">
                {state === 'failed' ? '×' : state === 'done' ? '✓' : i + 1}
              </span>
              <div>
                <div className="tl-label">{s.label}</div>
                <div className="tl-sub">{stepText(s.id, t, state)}</div>
                {state === 'failed' && t.phase === 'error' && t.error && (
                  <div className="tl-sub sell" role="alert">
                    <code className="err-code">{t.error.code}</code> {t.error.message}
                    {t.error.hint && <div className="state-hint">{t.error.hint}</div>}
                  </div>
                )}
              </div>
            </li>
          );
        })}
      </ol>
      <KVList label="Transfer details">
        {t.protocol && <KV k={t.kind === 'bridge' ? 'Route' : 'Via'}>{t.protocol}</KV>}
        <KV k="From">
          <TokenSymbol chain={t.from_chain} token={t.from_token} /> on {t.from_chain}
        </KV>
        <KV k="To">
          <TokenSymbol chain={t.to_chain} token={t.to_token} /> on {t.to_chain}
        </KV>
        {t.expected_out !== null && (
          <KV k="Expected to receive">
            <TokenAmount units={t.expected_out} chain={t.to_chain} token={t.to_token} />
          </KV>
        )}
        {t.approve_tx && (
          <KV k="Approval transaction">
            <CopyText text={t.approve_tx} label="approval transaction hash" />
          </KV>
        )}
        {t.src_tx && (
          <KV k="Source transaction">
            <CopyText text={t.src_tx} label="source transaction hash" />
          </KV>
        )}
        {t.kind === 'bridge' && t.bridge_state && <KV k="Bridge orders">{`${t.bridge_orders} · ${t.bridge_state}`}</KV>}
        {t.points && (
          <KV k="Points (estimate)">
            {fmtPoints(t.points.point)}
            {t.points.partner_bonus > 0 ? ` + ${fmtPoints(t.points.partner_bonus)} partner bonus` : ''}
          </KV>
        )}
        {!t.points && t.points_error && (
          <KV k="Points (estimate)">
            <span className="field-msg-warn" title={t.points_error}>
              Unavailable: {t.points_error}
            </span>
          </KV>
        )}
        <KV k="Started">{fmtDateTime(t.created_at)}</KV>
        <KV k="Last update">{fmtDateTime(t.updated_at)}</KV>
      </KVList>
    </div>
  );
}
