/**
 * Settings › Companion services › Receivers: the addresses other than the main wallet that bridges and
 * swaps may deliver to. Main keeps the list and refuses any other receiver. Adding is main's two steps:
 * the address and a label go to companion:addReceiver, which answers with its warning; the user reads it
 * and types the address again, and only then does companion:confirmReceiver add it. Removing is one step
 * (it only narrows where transfers may go).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { PendingReceiver, ReceiversView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { fieldError } from '../../lib/fieldErrors';
import { fmtDateTime } from '../../lib/time';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/Field';
import { KV, KVList } from '../../ui/Panel';
import { ErrorLine, ErrorState, Loading } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { ADDRESS, receiversKey, sameAddress, takeRequestedReceiver, useReceivers } from '../transfers/receivers';

const LABEL_MAX = 48;

export function ReceiversSection() {
  const client = useQueryClient();
  const list = useReceivers();
  const remove = useMutation({
    mutationFn: (address: string) => unwrap(perps().companion.removeReceiver({ address })),
    onSuccess: (r, address) => {
      client.setQueryData(receiversKey, r);
      pushToast({ tone: 'success', title: 'Receiver removed', body: address });
    },
  });
  return (
    <section className="stack" aria-labelledby="receivers-title" id="receivers">
      <h3 id="receivers-title">Receivers</h3>
      <p className="muted">
        Bridges and swaps deliver to your main wallet, or to an address listed here. The app refuses any other receiver, so a transfer can only leave your wallet for an address you
        added yourself.
      </p>
      {list.isPending && <Loading />}
      {list.error && <ErrorState error={list.error} compact onRetry={() => void list.refetch()} />}
      {list.data &&
        (list.data.receivers.length === 0 ? (
          <p className="muted">No other receivers: bridges and swaps go to your main wallet only.</p>
        ) : (
          <table className="dt" aria-label="Receivers">
            <thead>
              <tr>
                <th scope="col">Receiver</th>
                <th scope="col">Added</th>
                <th scope="col" />
              </tr>
            </thead>
            <tbody>
              {list.data.receivers.map((r) => (
                <tr key={r.address} aria-label={`Receiver ${r.label}`}>
                  <td>
                    <div className="strong">{r.label}</div>
                    <div className="addr">{r.address}</div>
                  </td>
                  <td className="num">{fmtDateTime(r.added_at)}</td>
                  <td className="r">
                    <Button size="sm" variant="ghost" aria-label={`Remove receiver ${r.label}`} busy={remove.isPending && remove.variables === r.address} onClick={() => remove.mutate(r.address)}>
                      Remove
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      {remove.error && <ErrorLine error={remove.error} />}
      <AddReceiverForm />
    </section>
  );
}

function AddReceiverForm() {
  const client = useQueryClient();
  const [address, setAddress] = useState('');
  const [label, setLabel] = useState('');
  const [pending, setPending] = useState<PendingReceiver | null>(null);
  const labelRef = useRef<HTMLInputElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // The Bridge or Swap form sent the user here with an address to add: fill it in and bring the form into view.
  useEffect(() => {
    const requested = takeRequestedReceiver();
    if (requested === null) return;
    setAddress(requested);
    formRef.current?.scrollIntoView({ block: 'center' });
    labelRef.current?.focus();
  }, []);

  const add = useMutation({
    mutationFn: (v: { address: string; label: string }) => unwrap(perps().companion.addReceiver(v)),
    onSuccess: (p) => setPending(p),
  });
  const a = address.trim();
  const l = label.trim();
  const addressProblem = a === '' || ADDRESS.test(a) ? undefined : 'An address: 0x followed by 40 hex characters';
  const labelProblem = l.length > LABEL_MAX ? `At most ${LABEL_MAX} characters` : undefined;
  return (
    <>
      <form
        ref={formRef}
        className="stack"
        aria-label="Add a receiver"
        onSubmit={(e) => {
          e.preventDefault();
          if (a && l && !addressProblem && !labelProblem) add.mutate({ address: a, label: l });
        }}
      >
        <TextField
          label="Receiver address"
          value={address}
          placeholder="0x…"
          className="mono-input"
          onChange={(e) => {
            setAddress(e.target.value);
            add.reset();
          }}
          error={addressProblem ?? fieldError(add.error, ['address'])}
        />
        <TextField
          ref={labelRef}
          label="Label"
          value={label}
          placeholder="e.g. Cold wallet"
          maxLength={LABEL_MAX + 16}
          onChange={(e) => {
            setLabel(e.target.value);
            add.reset();
          }}
          error={labelProblem ?? fieldError(add.error, ['label'])}
          hint="Whose address this is, as you will recognise it in the Bridge and Swap forms"
        />
        {add.error && !fieldError(add.error, ['address', 'label']) && <ErrorLine error={add.error} />}
        <div className="actions">
          <Button type="submit" disabled={!a || !l || !!addressProblem || !!labelProblem} busy={add.isPending}>
            Add receiver…
          </Button>
        </div>
      </form>
      {pending && (
        <ConfirmReceiverDialog
          pending={pending}
          onClose={() => setPending(null)}
          onAdded={(r) => {
            client.setQueryData(receiversKey, r);
            setPending(null);
            setAddress('');
            setLabel('');
            pushToast({ tone: 'success', title: 'Receiver added', body: `${pending.label} · ${pending.address}` });
          }}
        />
      )}
    </>
  );
}

/** Main's warning, and the address typed a second time: the confirmation main asks for. */
function ConfirmReceiverDialog({ pending, onClose, onAdded }: { pending: PendingReceiver; onClose: () => void; onAdded: (r: ReceiversView) => void }) {
  const [typed, setTyped] = useState('');
  const confirm = useMutation({
    mutationFn: () => unwrap(perps().companion.confirmReceiver({ confirmation_id: pending.confirmation_id, address: typed.trim() })),
    onSuccess: onAdded,
  });
  const t = typed.trim();
  const matches = ADDRESS.test(t) && sameAddress(t, pending.address);
  const problem = t === '' || matches ? undefined : ADDRESS.test(t) ? 'Not the same address' : t.length >= 42 ? 'An address: 0x followed by 40 hex characters' : undefined;
  return (
    <Dialog
      open
      title="Confirm the receiver"
      onClose={onClose}
      locked={confirm.isPending}
      width={600}
      tone="danger"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={confirm.isPending}>
            Cancel
          </Button>
          <Button variant="danger" disabled={!matches} busy={confirm.isPending} onClick={() => confirm.mutate()}>
            Add receiver
          </Button>
        </>
      }
    >
      <div className="stack">
        <div className="notice notice-warn" role="alert" aria-label="Receiver warning">
          {pending.warning}
        </div>
        <KVList label="Receiver to add">
          <KV k="Label">{pending.label}</KV>
          <KV k="Address">
            <span className="addr">{pending.address}</span>
          </KV>
        </KVList>
        <TextField
          label="Type the address again"
          value={typed}
          placeholder="0x…"
          className="mono-input"
          onChange={(e) => {
            setTyped(e.target.value);
            confirm.reset();
          }}
          error={problem ?? fieldError(confirm.error, ['address'])}
          hint={`From your own records, not copied from this window. Valid until ${fmtDateTime(pending.expires_at)}.`}
        />
        {confirm.error && !fieldError(confirm.error, ['address']) && <ErrorLine error={confirm.error} />}
      </div>
    </Dialog>
  );
}
