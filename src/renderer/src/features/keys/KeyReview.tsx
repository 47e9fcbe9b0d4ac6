/**
 * Review-then-sign for the three trading-key custody actions (authorize, renew, revoke). The review
 * shows exactly what the main wallet will sign; the acting channel takes only the reviewed id.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IpcResponse } from '../../../../shared/ipc';
import { IpcQueryError, perps, unwrap } from '../../ipc/client';
import { qk } from '../../ipc/queries';
import { Button } from '../../ui/Button';
import { ErrorLine, ErrorState, Loading } from '../../ui/States';
import { ConnectWallet } from '../onboarding/ConnectWallet';
import { SigningReviewView } from '../signing/SigningReviewView';

export type KeyAction = 'authorize' | 'renew' | 'revoke';
type Result = IpcResponse<'keys:authorize'> | IpcResponse<'keys:revoke'>;

const VERB: Record<KeyAction, string> = { authorize: 'Sign and authorize', renew: 'Sign and renew', revoke: 'Sign and revoke' };

/**
 * `foreign`: the agent was created on another device. Main asks its own confirmation first and the review
 * carries its warning; the page cannot skip either.
 */
export function KeyReview({ action, agent, days, foreign = false, onDone, onCancel }: { action: KeyAction; agent: string; days?: number; foreign?: boolean; onDone: (r: Result) => void; onCancel?: () => void }) {
  const client = useQueryClient();
  const review = useQuery({
    queryKey: ['keys', 'review', action, agent, days ?? null, foreign],
    queryFn: () =>
      foreign
        ? unwrap(perps().keys.reviewForeign({ agent, ...(days ? { expires_in_days: days } : {}) }))
        : unwrap(perps().keys.review({ action, agent, ...(action !== 'revoke' && days ? { expires_in_days: days } : {}) })),
    // A review carries a nonce and a short validity: never reuse a cached one.
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
  });
  const act = useMutation({
    mutationFn: (review_id: string): Promise<Result> => {
      const keys = perps().keys;
      if (action === 'authorize') return unwrap(keys.authorize({ review_id }));
      if (action === 'renew') return unwrap(keys.renew({ review_id }));
      return unwrap(keys.revoke({ review_id }));
    },
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: qk.keys });
      onDone(r);
    },
  });
  if (review.isPending) return <Loading label="Preparing what will be signed" />;
  if (review.error) {
    return (
      <div className="stack">
        <ErrorState error={review.error} title="Could not prepare the signature" onRetry={() => void review.refetch()} />
        {/* After a restart the wallet is remembered but its signer is not: connect it here and retry. */}
        {review.error instanceof IpcQueryError && review.error.code === 'SIGNER_NOT_CONNECTED' && <ConnectWallet onConnected={() => void review.refetch()} />}
      </div>
    );
  }
  const expired = act.error instanceof IpcQueryError && act.error.code === 'REVIEW_EXPIRED';
  return (
    <div className="stack">
      <SigningReviewView review={review.data} title={`Review: ${action} trading key`} />
      {act.error && <ErrorLine error={act.error} />}
      {act.isPending && review.data.signer.kind === 'ledger' && <p className="notice notice-info">Approve the message on your Ledger.</p>}
      {act.isPending && review.data.signer.kind === 'offline' && <p className="notice notice-info">Waiting for the offline signature…</p>}
      <div className="actions">
        {onCancel && (
          <Button variant="ghost" onClick={onCancel} disabled={act.isPending}>
            Back
          </Button>
        )}
        {expired ? (
          <Button variant="primary" onClick={() => { act.reset(); void review.refetch(); }}>
            Review again
          </Button>
        ) : (
          <Button variant={action === 'revoke' ? 'danger' : 'primary'} busy={act.isPending} onClick={() => act.mutate(review.data.review_id)}>
            {VERB[action]}
          </Button>
        )}
      </div>
    </div>
  );
}
