/**
 * The review dialog both transfers share (a bridge route, a swap quote): what is sent (the caller's
 * summary), the points it earns, which main-wallet signer signs and a way to connect or change it without
 * leaving the review, a source chain with no JSON-RPC URL, and Sign: main starts the transfer, which joins
 * the transfer list, is announced, and is handed to `onSent` to follow.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { IpcRequest, TransferView } from '../../../../shared/ipc';
import { putTransfers } from '../../ipc/companionQueries';
import { useWallet } from '../../ipc/queries';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { ConnectWallet } from '../onboarding/ConnectWallet';
import { PointsEstimate } from '../points/PointsEstimate';
import { MissingRpcNotice } from './TransferFields';

export function TransferReview({
  title,
  width,
  signLabel,
  send,
  started,
  onSent,
  onClose,
  points,
  rpcMissingOn,
  transaction,
  signingNote,
  children,
}: {
  title: string;
  width: number;
  /** The Sign button: "Sign and send", "Sign and swap". */
  signLabel: string;
  /** Asks main to start the transfer (it signs with the main wallet and sends). */
  send: () => Promise<TransferView>;
  /** The toast once main has started it. */
  started: { title: string; body: string };
  onSent: (transferId: string) => void;
  onClose: () => void;
  /** The points estimate: the partner code the transfer carries, and what to estimate (null without both USD values). */
  points: { partnerCode: string | null; request: IpcRequest<'points:estimate'> | null };
  /** The source chain when it has no JSON-RPC URL: nothing can be sent until it has one. */
  rpcMissingOn: string | null;
  /** What the main wallet signs ("The swap transaction"), and the rest of that sentence after the signer. */
  transaction: string;
  signingNote: ReactNode;
  children: ReactNode;
}) {
  const client = useQueryClient();
  const wallet = useWallet();
  const [connect, setConnect] = useState(false);
  const signer = wallet.data?.signer;
  const sending = useMutation({
    mutationFn: send,
    onSuccess: (t) => {
      putTransfers(client, [t]);
      pushToast({ tone: 'info', ...started });
      onSent(t.id);
    },
  });
  return (
    <>
      <Dialog
        open
        title={title}
        onClose={onClose}
        width={width}
        locked={sending.isPending}
        footer={
          <>
            <Button variant="ghost" onClick={onClose} disabled={sending.isPending}>
              Cancel
            </Button>
            <Button variant="primary" busy={sending.isPending} disabled={!signer || rpcMissingOn !== null} onClick={() => sending.mutate()}>
              {signLabel}
            </Button>
          </>
        }
      >
        {children}
        <PointsEstimate partnerCode={points.partnerCode} request={points.request} />
        <div className="field">
          <span className="field-label">Signer</span>
          <div className="row" style={{ justifyContent: 'space-between' }}>
            <span>{signer ? signer.label : <span className="warn">Not connected this session</span>}</span>
            <Button size="sm" onClick={() => setConnect(true)} disabled={sending.isPending}>
              {signer ? 'Change signer' : 'Connect signer'}
            </Button>
          </div>
        </div>
        <p className="notice notice-warn">
          {transaction} is signed by your <strong>main wallet</strong>
          {signer ? ` (${signer.label})` : ''} {signingNote}
        </p>
        {rpcMissingOn !== null && <MissingRpcNotice chain={rpcMissingOn} consequence="nothing can be sent from it." role="alert" onLeave={onClose} />}
        {sending.error && <ErrorLine error={sending.error} />}
      </Dialog>
      <Dialog open={connect} title="Main wallet signer" onClose={() => setConnect(false)} width={620}>
        <ConnectWallet
          expectedAddress={wallet.data?.address}
          onConnected={(w) => {
            setConnect(false);
            sending.reset();
            pushToast({ tone: 'success', title: 'Signer connected', body: w.signer?.label });
          }}
        />
      </Dialog>
    </>
  );
}
