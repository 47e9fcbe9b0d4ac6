/**
 * Answers to main's signing prompts: the Ledger blind-signing confirmation (compare the hashes with the
 * device first) and the offline signer's request (show or export it, bring the signature back).
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { BlindSigningRequest, OfflineSignatureRequest } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { resolvePrompt, usePrompts } from '../../ipc/prompts';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { KV, KVList } from '../../ui/Panel';
import { ErrorLine } from '../../ui/States';

export function PromptDialogs() {
  const prompts = usePrompts();
  const top = prompts[0];
  if (!top) return null;
  return top.kind === 'blind' ? <BlindSigningDialog key={top.request.prompt_id} request={top.request} /> : <OfflineSignatureDialog key={top.request.prompt_id} request={top.request} />;
}

function BlindSigningDialog({ request }: { request: BlindSigningRequest }) {
  const answer = useMutation({
    mutationFn: (accept: boolean) => unwrap(perps().prompt.respondBlindSigning({ prompt_id: request.prompt_id, accept })),
    onSettled: () => resolvePrompt(request.prompt_id),
  });
  return (
    <Dialog open title="Blind signing on your Ledger" onClose={() => answer.mutate(false)} width={620} tone="danger" locked={answer.isPending}>
      <p className="notice notice-warn">
        Your Ledger’s Ethereum app cannot display this {request.primary_type} message field by field. Continue only if the two hashes your device
        shows match these exactly.
      </p>
      <ul className="summary-lines">
        {request.summary.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
      <KVList>
        <KV k="Domain hash">
          <span className="addr">{request.domain_separator}</span>
        </KV>
        <KV k="Message hash">
          <span className="addr">{request.message_hash}</span>
        </KV>
      </KVList>
      {answer.error && <ErrorLine error={answer.error} />}
      <div className="actions">
        <Button variant="ghost" onClick={() => answer.mutate(false)} busy={answer.isPending && answer.variables === false}>
          Reject
        </Button>
        <Button variant="primary" onClick={() => answer.mutate(true)} busy={answer.isPending && answer.variables === true}>
          Hashes match — sign on device
        </Button>
      </div>
    </Dialog>
  );
}

function OfflineSignatureDialog({ request }: { request: OfflineSignatureRequest }) {
  const [signature, setSignature] = useState('');
  const exportFile = useMutation({ mutationFn: () => unwrap(perps().prompt.exportSigningRequest({ prompt_id: request.prompt_id })) });
  const importFile = useMutation({
    mutationFn: () => unwrap(perps().prompt.importSignatureFile({ prompt_id: request.prompt_id })),
    onSuccess: (r) => r.signature && setSignature(r.signature),
  });
  const respond = useMutation({
    mutationFn: (cancel: boolean) =>
      unwrap(perps().prompt.respondOfflineSignature(cancel ? { prompt_id: request.prompt_id, cancel: true } : { prompt_id: request.prompt_id, signature: signature.trim() })),
    onSuccess: () => resolvePrompt(request.prompt_id),
  });
  const valid = /^0x[0-9a-fA-F]{130}$/.test(signature.trim());
  return (
    <Dialog open title="Sign on your offline machine" onClose={() => respond.mutate(true)} width={680} locked={respond.isPending}>
      <ul className="summary-lines">
        {request.summary.map((s) => (
          <li key={s}>{s}</li>
        ))}
      </ul>
      <KVList>
        <KV k="Expected signer">
          <span className="addr">{request.signer}</span>
        </KV>
        <KV k="Digest">
          <span className="addr">{request.digest}</span>
        </KV>
      </KVList>
      <details>
        <summary>Signing request document (eth_signTypedData_v4)</summary>
        <pre className="sig-preview">{request.document}</pre>
      </details>
      <div className="row">
        <Button onClick={() => exportFile.mutate()} busy={exportFile.isPending}>
          Export request to file…
        </Button>
        <Button onClick={() => importFile.mutate()} busy={importFile.isPending}>
          Import signature file…
        </Button>
        {exportFile.data?.saved && <span className="muted">Saved {exportFile.data.file_name}</span>}
      </div>
      {(exportFile.error ?? importFile.error) && <ErrorLine error={exportFile.error ?? importFile.error} />}
      <div className="field">
        <label className="field-label" htmlFor="offline-sig">
          Signature
        </label>
        <textarea id="offline-sig" className="input" rows={3} value={signature} onChange={(e) => setSignature(e.target.value)} placeholder="0x… (65 bytes)" />
      </div>
      {respond.error && <ErrorLine error={respond.error} />}
      <div className="actions">
        <Button variant="ghost" onClick={() => respond.mutate(true)} busy={respond.isPending && respond.variables === true}>
          Cancel signing
        </Button>
        <Button variant="primary" disabled={!valid} onClick={() => respond.mutate(false)} busy={respond.isPending && respond.variables === false}>
          Submit signature
        </Button>
      </div>
    </Dialog>
  );
}
