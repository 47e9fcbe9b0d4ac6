/**
 * The transfer side of the Bridge and Swap views: the progress of the chosen transfer (the latest one of
 * the view's kind by default), every recent transfer of both kinds with dismiss for the ended ones, and
 * (on the Bridge view) following any source transaction by its hash.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { TransferView } from '../../../../shared/ipc';
import { RECEIPT_UNCONFIRMED } from '../../../../shared/transferNotes';
import { perps, unwrap } from '../../ipc/client';
import { cqk, putTransfers, useCompanionSettings, useTransfers } from '../../ipc/companionQueries';
import { fmtDateTime } from '../../lib/time';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Panel } from '../../ui/Panel';
import { EmptyState, ErrorLine, ErrorState, Loading } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { TokenAmount, TokenSymbol } from './TokenAmount';
import { PHASE_LABEL, phaseTone, TransferProgress } from './TransferProgress';

const TX_HASH = /^0x[0-9a-fA-F]{64}$/;

export function TransferPanels({ kind, selected, onSelect }: { kind: 'bridge' | 'swap'; selected: string | null; onSelect: (id: string | null) => void }) {
  const transfers = useTransfers();
  const list = transfers.data?.transfers ?? [];
  const current = list.find((t) => t.id === selected) ?? list.find((t) => t.kind === kind);
  return (
    <div className="stack">
      <Panel title="Progress">
        <div className="section">
          {transfers.isPending && <Loading />}
          {transfers.error && <ErrorState error={transfers.error} onRetry={() => void transfers.refetch()} />}
          {transfers.data && !current && (
            <EmptyState title={kind === 'bridge' ? 'No bridge transfers yet' : 'No swaps yet'}>Each transfer you send is followed here, step by step, until it ends.</EmptyState>
          )}
          {current && <TransferProgress transfer={current} />}
        </div>
      </Panel>
      {list.length > 0 && <RecentTransfers list={list} shown={current?.id ?? null} onSelect={onSelect} />}
      {kind === 'bridge' && <TrackTransaction onTracked={(t) => onSelect(t.id)} />}
    </div>
  );
}

function RecentTransfers({ list, shown, onSelect }: { list: TransferView[]; shown: string | null; onSelect: (id: string | null) => void }) {
  const client = useQueryClient();
  const dismiss = useMutation({
    mutationFn: (id: string) => unwrap(perps().transfers.dismiss({ id })),
    onSuccess: (r, id) => {
      client.setQueryData(cqk.transfers, r);
      if (id === shown) onSelect(null);
    },
  });
  return (
    <Panel title="Recent transfers">
      <table className="dt dt-wrap" aria-label="Recent transfers">
        <thead>
          <tr>
            <th scope="col">Started</th>
            <th scope="col">Kind</th>
            <th scope="col">Route</th>
            <th scope="col" className="r">Amount</th>
            <th scope="col">State</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {list.map((t) => (
            <tr key={t.id} aria-label={`${t.kind} ${t.from_chain}${t.kind === 'bridge' ? ` to ${t.to_chain}` : ''} ${PHASE_LABEL[t.phase]}`} className={t.id === shown ? 'row-current' : undefined}>
              <td className="faint">{fmtDateTime(t.created_at)}</td>
              <td>{t.kind === 'bridge' ? 'Bridge' : 'Swap'}</td>
              <td>
                {t.kind === 'bridge' ? (
                  `${t.from_chain} → ${t.to_chain}`
                ) : (
                  <>
                    {t.from_chain}: <TokenSymbol chain={t.from_chain} token={t.from_token} /> → <TokenSymbol chain={t.to_chain} token={t.to_token} />
                  </>
                )}
              </td>
              <td className="r">
                <TokenAmount units={t.amount_units} chain={t.from_chain} token={t.from_token} />
              </td>
              <td>
                <Badge tone={phaseTone(t)}>{PHASE_LABEL[t.phase]}</Badge>
                {t.requotes > 0 && <span className="faint"> · {t.requotes} re-quote{t.requotes === 1 ? '' : 's'}</span>}
                {t.poll_error && !t.final && <span className="warn"> · {t.poll_error.code === RECEIPT_UNCONFIRMED ? 'receipt unconfirmed' : 'bridge unreachable'}</span>}
              </td>
              <td className="r">
                <div className="dt-actions">
                  <Button size="sm" variant="ghost" onClick={() => onSelect(t.id)} aria-pressed={t.id === shown}>
                    Show
                  </Button>
                  {t.final && (
                    <Button size="sm" variant="ghost" busy={dismiss.isPending && dismiss.variables === t.id} onClick={() => dismiss.mutate(t.id)} aria-label={`Dismiss ${t.kind} ${t.id}`}>
                      Dismiss
                    </Button>
                  )}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {dismiss.error && (
        <div className="section">
          <ErrorLine error={dismiss.error} />
        </div>
      )}
    </Panel>
  );
}

function TrackTransaction({ onTracked }: { onTracked: (t: TransferView) => void }) {
  const client = useQueryClient();
  const settings = useCompanionSettings();
  const [hash, setHash] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const h = hash.trim();
  const hashError = h === '' || TX_HASH.test(h) ? undefined : 'A transaction hash: 0x followed by 64 hex characters';
  const track = useMutation({
    mutationFn: () => unwrap(perps().bridge.track({ src_tx: h, ...(from ? { from_chain: from } : {}), ...(to ? { to_chain: to } : {}) })),
    onSuccess: (t) => {
      putTransfers(client, [t]);
      onTracked(t);
      setHash('');
      pushToast({ tone: 'info', title: 'Following the transaction', body: t.src_tx ?? h });
    },
  });
  const chains = [{ value: '', label: 'Not sure' }, ...(settings.data?.chains ?? []).map((c) => ({ value: c.chain, label: c.chain }))];
  return (
    <Panel title="Track a transaction">
      <form
        className="section"
        aria-label="Track a transaction"
        onSubmit={(e) => {
          e.preventDefault();
          if (h && !hashError) track.mutate();
        }}
      >
        <p className="muted">Follow any bridge transfer by its source-chain transaction hash, including one sent from another app.</p>
        <TextField label="Source transaction hash" value={hash} placeholder="0x + 64 hex characters" onChange={(e) => setHash(e.target.value)} error={hashError} />
        <div className="grid2">
          <SelectField label="Source chain (optional)" value={from} onChange={(e) => setFrom(e.target.value)} options={chains} />
          <SelectField label="Destination chain (optional)" value={to} onChange={(e) => setTo(e.target.value)} options={chains} />
        </div>
        {track.error && <ErrorLine error={track.error} />}
        <div className="actions">
          <Button type="submit" disabled={!h || !!hashError} busy={track.isPending}>
            Track
          </Button>
        </div>
      </form>
    </Panel>
  );
}
