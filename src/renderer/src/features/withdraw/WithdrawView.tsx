/**
 * Withdraw to the main wallet: amount, checks and the new-wallet fee preview, the signer that will sign
 * (with a way to connect another), the exact typed data, and a live timeline of each withdrawal.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DamagedWithdrawalView, IpcResponse, WithdrawPreview } from '../../../../shared/ipc';
import { withWithdrawals } from '../../ipc/events';
import { IpcQueryError, perps, unwrap } from '../../ipc/client';
import { qk, useBalance, useTrackedWithdrawals, useWallet } from '../../ipc/queries';
import { dec, fmtUsd, isDecimalText } from '../../lib/decimal';
import { fmtDateTime } from '../../lib/time';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/Field';
import { KV, KVList, Panel } from '../../ui/Panel';
import { EmptyState, ErrorLine, ErrorState, Loading } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { ConnectWallet } from '../onboarding/ConnectWallet';
import { SigningReviewView } from '../signing/SigningReviewView';
import { WithdrawTimeline } from './WithdrawTimeline';

export function WithdrawView() {
  const wallet = useWallet();
  const balance = useBalance();
  const tracked = useTrackedWithdrawals();
  const client = useQueryClient();
  const [amount, setAmount] = useState('');
  const [preview, setPreview] = useState<WithdrawPreview | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [changeSigner, setChangeSigner] = useState(false);

  const d = dec(amount);
  const amountError = amount === '' ? undefined : !isDecimalText(amount) || !d ? 'Not a number' : d.lte(0) ? 'Must be more than 0' : d.decimalPlaces() > 6 ? 'USDC has at most 6 decimals' : undefined;

  const review = useMutation({
    mutationFn: () => unwrap(perps().withdraw.preview({ amount: amount.trim() })),
    onSuccess: setPreview,
  });
  const submit = useMutation({
    mutationFn: (review_id: string) => unwrap(perps().withdraw.submit({ review_id })),
    onSuccess: (w) => {
      client.setQueryData(qk.withdrawals, (prev: IpcResponse<'withdraw:list'> | undefined) => withWithdrawals(prev, [w]));
      void client.invalidateQueries({ queryKey: qk.balance });
      setSelected(w.intent_id);
      setPreview(null);
      setAmount('');
      if (w.status === 'REJECTED') pushToast({ tone: 'error', title: 'Withdrawal rejected', body: w.reason ?? w.failure_reason ?? undefined });
      else pushToast({ tone: 'success', title: 'Withdrawal requested', body: `${fmtUsd(w.amount)} to ${w.destination}` });
    },
  });

  const list = tracked.data?.withdrawals ?? [];
  const damaged = tracked.data?.damaged ?? [];
  const current = list.find((w) => w.intent_id === selected) ?? list[0];
  const signer = wallet.data?.signer;
  const notConnected = review.error instanceof IpcQueryError && review.error.code === 'SIGNER_NOT_CONNECTED';

  return (
    <div className="view-pad">
      <div className="view-title">
        <h1>Withdraw</h1>
        <span className="muted">USDC from your free balance to your main wallet on the venue’s base chain</span>
      </div>
      <div className="wd">
        <Panel title="New withdrawal">
          <form
            className="section"
            onSubmit={(e) => {
              e.preventDefault();
              if (!amountError && amount) review.mutate();
            }}
          >
            <KVList>
              <KV k="Free balance">{balance.data ? fmtUsd(balance.data.free_balance) : balance.error ? '—' : '…'}</KV>
              <KV k="Destination">
                <span className="addr">{wallet.data?.address ?? '—'}</span>
              </KV>
            </KVList>
            <TextField
              label="Amount"
              value={amount}
              inputMode="decimal"
              onChange={(e) => setAmount(e.target.value)}
              suffix={
                <button type="button" className="link-btn" onClick={() => balance.data && setAmount(dec(balance.data.free_balance)?.toDecimalPlaces(6, 1).toFixed() ?? '')}>
                  Max
                </button>
              }
              error={amountError}
            />
            <div className="field">
              <span className="field-label">Signer</span>
              <div className="row" style={{ justifyContent: 'space-between' }}>
                <span>{signer ? signer.label : <span className="warn">Not connected this session</span>}</span>
                <Button size="sm" onClick={() => setChangeSigner(true)}>
                  {signer ? 'Change signer' : 'Connect signer'}
                </Button>
              </div>
            </div>
            {review.error && <ErrorLine error={review.error} />}
            {notConnected && (
              <Button size="sm" onClick={() => setChangeSigner(true)}>
                Connect the main wallet’s signer
              </Button>
            )}
            <Button type="submit" variant="primary" disabled={!!amountError || amount === ''} busy={review.isPending}>
              Review withdrawal
            </Button>
          </form>
        </Panel>
        <div className="stack">
          <Panel title="Progress">
            <div className="section">
              {tracked.isPending && <Loading />}
              {tracked.error && <ErrorState error={tracked.error} onRetry={() => void tracked.refetch()} />}
              {tracked.data && !current && <EmptyState title="No withdrawals yet">Each withdrawal you make is tracked here until it completes.</EmptyState>}
              {current && <WithdrawTimeline withdrawal={current} />}
            </div>
          </Panel>
          {damaged.length > 0 && <DamagedWithdrawals damaged={damaged} />}
          {list.length > 1 && (
            <Panel title="Recent withdrawals">
              <table className="dt" aria-label="Tracked withdrawals">
                <thead>
                  <tr>
                    <th scope="col">Requested</th>
                    <th scope="col" className="r">Amount</th>
                    <th scope="col">Status</th>
                    <th scope="col" />
                  </tr>
                </thead>
                <tbody>
                  {list.map((w) => (
                    <tr key={w.intent_id}>
                      <td className="faint">{fmtDateTime(w.created_at ?? w.updated_at)}</td>
                      <td className="r num">{fmtUsd(w.amount)}</td>
                      <td>
                        <Badge tone={w.status === 'COMPLETED' ? 'buy' : w.status && ['REJECTED', 'FAILED', 'REFUNDED'].includes(w.status) ? 'sell' : 'info'}>{w.status ?? w.phase}</Badge>
                      </td>
                      <td className="r">
                        <Button size="sm" variant="ghost" onClick={() => setSelected(w.intent_id)}>
                          Show
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </Panel>
          )}
        </div>
      </div>

      {preview && (
        <Dialog
          open
          title="Review withdrawal"
          onClose={() => setPreview(null)}
          width={640}
          locked={submit.isPending}
          footer={
            <>
              <Button variant="ghost" onClick={() => setPreview(null)} disabled={submit.isPending}>
                Cancel
              </Button>
              <Button variant="primary" busy={submit.isPending} onClick={() => submit.mutate(preview.review.review_id)}>
                Sign and withdraw
              </Button>
            </>
          }
        >
          <KVList label="Withdrawal checks">
            <KV k="Amount">{fmtUsd(preview.check.amount)} USDC</KV>
            <KV k="To (your wallet)">
              <span className="addr">{preview.check.destination}</span>
            </KV>
            <KV k="Free balance">{fmtUsd(preview.check.free_balance)}</KV>
            <KV k="Minimum withdrawal">{fmtUsd(preview.check.min_amount)}</KV>
          </KVList>
          {preview.check.fee_preview && (
            <div className="notice notice-warn" aria-label="New-wallet fee preview">
              <strong>Likely new-wallet fee: {fmtUsd(preview.check.fee_preview.new_wallet_fee)}.</strong> You would receive about{' '}
              {fmtUsd(preview.check.fee_preview.estimated_l1_send_amount)}. {preview.check.fee_preview.note}
            </div>
          )}
          {preview.check.warnings.map((w) => (
            <p key={w} className="notice notice-warn">
              {w}
            </p>
          ))}
          <SigningReviewView review={preview.review} title="Withdrawal signature" />
          {submit.error && <ErrorLine error={submit.error} />}
        </Dialog>
      )}
      <Dialog open={changeSigner} title="Main wallet signer" onClose={() => setChangeSigner(false)} width={620}>
        <ConnectWallet
          expectedAddress={wallet.data?.address}
          onConnected={(w) => {
            setChangeSigner(false);
            review.reset();
            pushToast({ tone: 'success', title: 'Signer connected', body: w.signer?.label });
          }}
        />
      </Dialog>
    </div>
  );
}

/**
 * Files of the withdrawals folder that cannot be read as records (issue 36): each is named with why, and
 * said to be never sent, so a record damaged on disk is seen rather than silently left out. Nothing to act
 * on here: the file stays for the trader to inspect (its content may hold a signed body; it is never shown).
 */
function DamagedWithdrawals({ damaged }: { damaged: DamagedWithdrawalView[] }) {
  return (
    <Panel title="Damaged withdrawal records" scrollable>
      <div className="section">
        <p className="muted" role="note">
          {damaged.length === 1 ? 'One file' : `${damaged.length} files`} in the withdrawals folder cannot be read as a withdrawal record. Perps Desk never sends or resends them; the other
          withdrawals are tracked as usual.
        </p>
      </div>
      <table className="dt" aria-label="Damaged withdrawal records">
        <thead>
          <tr>
            <th scope="col">File</th>
            <th scope="col">Changed</th>
            <th scope="col">State</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {damaged.map((d) => (
            <tr key={d.name} aria-label={`Damaged withdrawal record ${d.name}`}>
              <td className="num">{d.name}</td>
              <td className="faint">{fmtDateTime(d.changed_at)}</td>
              <td>
                <Badge tone="sell">damaged</Badge>
              </td>
              {/* The reason wraps: at 1024x680 a one-line reason ran past the panel's edge. */}
              <td style={{ whiteSpace: 'normal', minWidth: '16em' }}>{d.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Panel>
  );
}
