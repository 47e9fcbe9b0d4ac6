/** Trading keys: which exist, which are active here, how long they have left; renew, revoke, add. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { TradingKeyRow } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { qk, useKeys } from '../../ipc/queries';
import { fmtDateTime } from '../../lib/time';
import { Badge, type Tone } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { Dialog } from '../../ui/Dialog';
import { SelectField, TextField } from '../../ui/Field';
import { Panel } from '../../ui/Panel';
import { EmptyState, ErrorLine, ErrorState, Loading } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { KeyReview, type KeyAction } from './KeyReview';

const STATUS_TONE: Record<TradingKeyRow['status'], Tone> = { ACTIVE: 'buy', NOT_AUTHORIZED: 'warn', EXPIRED: 'sell', NOT_LISTED: 'neutral' };
const STATUS_TEXT: Record<TradingKeyRow['status'], string> = {
  ACTIVE: 'Active',
  NOT_AUTHORIZED: 'Not authorized',
  EXPIRED: 'Expired',
  NOT_LISTED: 'Not listed (revoked or registered elsewhere)',
};
const DAYS = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '180', label: '180 days (maximum)' },
];

type Pending = { action: KeyAction; key: TradingKeyRow; days?: number } | null;

export function KeysView() {
  const keys = useKeys();
  const [pending, setPending] = useState<Pending>(null);
  const [adding, setAdding] = useState(false);
  const [foreign, setForeign] = useState(false);
  const [renewDays, setRenewDays] = useState('90');
  return (
    <div className="view-pad">
      <div className="view-title">
        <h1>Trading keys</h1>
        <span className="muted">Keys sign orders for your account. They can never withdraw, and revoking one takes effect at once.</span>
        <span className="grow" style={{ flex: 1 }} />
        <Button variant="ghost" onClick={() => setForeign(true)}>
          Key from another device…
        </Button>
        <Button variant="primary" onClick={() => setAdding(true)}>
          New trading key
        </Button>
      </div>
      {keys.data && (
        <p className="muted" style={{ marginBottom: 12 }}>
          Wallet <span className="addr">{keys.data.wallet}</span> · environment {keys.data.environment}
        </p>
      )}
      {keys.isPending && <Loading label="Loading trading keys" rows={3} />}
      {keys.error && <ErrorState error={keys.error} title="Trading keys unavailable" onRetry={() => void keys.refetch()} />}
      {keys.data && keys.data.keys.length === 0 && (
        <EmptyState title="No trading keys" action={<Button variant="primary" onClick={() => setAdding(true)}>Create one</Button>}>
          Orders need an authorized trading key.
        </EmptyState>
      )}
      {keys.data && keys.data.keys.length > 0 && (
        <Panel title="Keys">
          <table className="dt" aria-label="Trading keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Agent address</th>
                <th scope="col">Status</th>
                <th scope="col">On this computer</th>
                <th scope="col">Expires</th>
                <th scope="col">Time left</th>
                <th scope="col" className="r">Actions</th>
              </tr>
            </thead>
            <tbody>
              {keys.data.keys.map((k) => (
                <tr key={k.agent} aria-label={`Trading key ${k.name ?? k.agent}`}>
                  <td className="strong">{k.name ?? '—'}</td>
                  <td className="num">{k.agent}</td>
                  <td>
                    <Badge tone={STATUS_TONE[k.status]}>{STATUS_TEXT[k.status]}</Badge> {k.expiring_soon && k.status === 'ACTIVE' && <Badge tone="warn">Expiring soon</Badge>}
                  </td>
                  <td>{k.stored_locally ? 'Yes (keychain)' : <span className="faint">No</span>}</td>
                  <td className="faint">{fmtDateTime(k.expires_at)}</td>
                  <td>{k.expires_at ? <Countdown at={k.expires_at} label="Time left" /> : '—'}</td>
                  <td>
                    <div className="dt-actions">
                      {k.status === 'NOT_AUTHORIZED' && k.stored_locally && (
                        <Button size="sm" variant="primary" onClick={() => setPending({ action: 'authorize', key: k, days: 90 })}>
                          Authorize
                        </Button>
                      )}
                      {(k.status === 'ACTIVE' || k.status === 'EXPIRED') && k.stored_locally && (
                        <Button size="sm" onClick={() => setPending({ action: 'renew', key: k })} aria-label={`Renew ${k.name ?? k.agent}`}>
                          Renew
                        </Button>
                      )}
                      {k.status === 'ACTIVE' && (
                        <Button size="sm" variant="danger" onClick={() => setPending({ action: 'revoke', key: k })} aria-label={`Revoke ${k.name ?? k.agent}`}>
                          Revoke
                        </Button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Panel>
      )}
      {pending && (
        <Dialog open title={`${pending.action === 'revoke' ? 'Revoke' : pending.action === 'renew' ? 'Renew' : 'Authorize'} trading key ${pending.key.name ?? ''}`} onClose={() => setPending(null)} width={640} tone={pending.action === 'revoke' ? 'danger' : 'default'}>
          {pending.action === 'renew' && !pending.days ? (
            <div className="stack">
              <SelectField label="New lifetime from now" value={renewDays} onChange={(e) => setRenewDays(e.target.value)} options={DAYS} />
              <div className="actions">
                <Button variant="primary" onClick={() => setPending({ ...pending, days: Number(renewDays) })}>
                  Review renewal
                </Button>
              </div>
            </div>
          ) : (
            <KeyReview
              action={pending.action}
              agent={pending.key.agent}
              {...(pending.days ? { days: pending.days } : {})}
              onDone={(r) => {
                pushToast({ tone: 'success', title: pending.action === 'revoke' ? 'Trading key revoked' : pending.action === 'renew' ? 'Trading key renewed' : 'Trading key authorized', body: 'expires_at' in r ? `Expires ${fmtDateTime(r.expires_at)}` : undefined });
                setPending(null);
              }}
              onCancel={() => setPending(null)}
            />
          )}
        </Dialog>
      )}
      {adding && <AddKeyDialog onClose={() => setAdding(false)} />}
      {foreign && <ForeignKeyDialog onClose={() => setForeign(false)} />}
    </div>
  );
}

function AddKeyDialog({ onClose }: { onClose: () => void }) {
  const client = useQueryClient();
  const [name, setName] = useState('Perps Desk');
  const [days, setDays] = useState('90');
  const [agent, setAgent] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => unwrap(perps().keys.create({ name: name.trim() || 'Perps Desk' })),
    onSuccess: (k) => {
      void client.invalidateQueries({ queryKey: qk.keys });
      setAgent(k.agent);
    },
  });
  return (
    <Dialog open title="New trading key" onClose={onClose} width={640}>
      {!agent ? (
        <div className="stack">
          <p className="muted">The key is generated here and stored in the OS keychain; your main wallet then signs its authorization.</p>
          <div className="grid2">
            <TextField label="Key name" value={name} maxLength={64} onChange={(e) => setName(e.target.value)} />
            <SelectField label="Lifetime" value={days} onChange={(e) => setDays(e.target.value)} options={DAYS} />
          </div>
          {create.error && <ErrorLine error={create.error} />}
          <div className="actions">
            <Button variant="primary" busy={create.isPending} onClick={() => create.mutate()}>
              Create and review
            </Button>
          </div>
        </div>
      ) : (
        <KeyReview
          action="authorize"
          agent={agent}
          days={Number(days)}
          onDone={() => {
            pushToast({ tone: 'success', title: 'Trading key authorized' });
            onClose();
          }}
        />
      )}
    </Dialog>
  );
}

/**
 * Authorizing a key created on another device (the other half of the key ceremony): the key is not in
 * this keychain, so main asks its own confirmation before the review, and the review says so again.
 */
function ForeignKeyDialog({ onClose }: { onClose: () => void }) {
  const [agent, setAgent] = useState('');
  const [days, setDays] = useState('90');
  const [reviewing, setReviewing] = useState(false);
  const valid = /^0x[0-9a-fA-F]{40}$/.test(agent.trim());
  return (
    <Dialog open title="Authorize a key from another device" onClose={onClose} width={640}>
      {!reviewing ? (
        <div className="stack">
          <p className="notice notice-warn" role="note">
            Only for a key you created yourself on another device. Whoever holds it can trade for your account (never withdraw) until it
            expires or you revoke it.
          </p>
          <div className="grid2">
            <TextField label="Trading key address" value={agent} placeholder="0x…" spellCheck={false} onChange={(e) => setAgent(e.target.value)} error={agent && !valid ? 'An address is 0x and 40 hex characters' : undefined} />
            <SelectField label="Lifetime" value={days} onChange={(e) => setDays(e.target.value)} options={DAYS} />
          </div>
          <div className="actions">
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button variant="primary" disabled={!valid} onClick={() => setReviewing(true)}>
              Continue
            </Button>
          </div>
        </div>
      ) : (
        <KeyReview
          action="authorize"
          foreign
          agent={agent.trim()}
          days={Number(days)}
          onDone={() => {
            pushToast({ tone: 'success', title: 'Key from another device authorized' });
            onClose();
          }}
          onCancel={() => setReviewing(false)}
        />
      )}
    </Dialog>
  );
}
