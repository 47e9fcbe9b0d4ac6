/**
 * Answers to main's signing prompts: the Ledger blind-signing confirmation (compare the hashes with the
 * device first) and the offline signer's request (show or export it, bring the signature back).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { BlindSigningRequest, OfflineSignatureRequest, WalletView } from '../../../../shared/ipc';
import { qk } from '../../ipc/queries';
import { TrezorDialogs } from '../trezor/TrezorDialogs';
import { perps, unwrap } from '../../ipc/client';
import { resolvePrompt, usePrompts } from '../../ipc/prompts';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { KV, KVList } from '../../ui/Panel';
import { ErrorLine } from '../../ui/States';

export function PromptDialogs() {
  const prompts = usePrompts();
  const top = prompts[0];
  if (!top) return <TrezorDialogs />;
  return top.kind === 'blind' ? <BlindSigningDialog key={top.request.prompt_id} request={top.request} /> : <OfflineSignatureDialog key={top.request.prompt_id} request={top.request} />;
}

function BlindSigningDialog({ request }: { request: BlindSigningRequest }) {
  // The Trezor Model One signs by the same two hashes as a Ledger without clear signing.
  const trezor = useQueryClient().getQueryData<WalletView>(qk.wallet)?.signer?.kind === 'trezor';
  const answer = useMutation({
    mutationFn: (accept: boolean) => unwrap(perps().prompt.respondBlindSigning({ prompt_id: request.prompt_id, accept })),
    onSettled: () => resolvePrompt(request.prompt_id),
  });
  return (
    <Dialog open title={trezor ? 'Signing by hashes on your Trezor' : 'Blind signing on your Ledger'} onClose={() => answer.mutate(false)} width={620} tone="danger" locked={answer.isPending}>
      <p className="notice notice-warn">
        {trezor
          ? `Your Trezor Model One cannot display this ${request.primary_type} field by field: it will show only these two hashes. Continue only if both match exactly.`
          : `Your Ledger’s Ethereum app cannot display this ${request.primary_type} message field by field. Continue only if the two hashes your device shows match these exactly.`}
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
  const valid = isSignatureAnswer(signature);
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
      <OfflineRequestQr qr={request.qr} />
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
        <textarea
          id="offline-sig"
          className="input"
          rows={3}
          value={signature}
          onChange={(e) => setSignature(e.target.value)}
          placeholder="0x… (65 bytes), or the ur:eth-signature/… line(s) from your signer"
        />
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

/** 65-byte hex, or eth-signature UR parts one per line (main decodes, matches the request id and verifies). */
function isSignatureAnswer(text: string): boolean {
  const trimmed = text.trim();
  if (/^(0x)?[0-9a-fA-F]{130}$/.test(trimmed)) return true;
  const lines = trimmed.split(/\s+/).filter((l) => l !== '');
  return lines.length > 0 && lines.every((l) => /^ur:eth-signature\/[0-9a-z/-]+$/i.test(l));
}

/**
 * The request as an animated QR code (eth-sign-request UR, for Keystone-style signers). The frames are
 * SVG markup from main's own qrcode rendering; they are shown as <img> data URLs (an image cannot run
 * script), never inserted into the page's DOM.
 */
function OfflineRequestQr({ qr }: { qr: OfflineSignatureRequest['qr'] }) {
  const frames = 'frames' in qr ? qr.frames : null;
  const intervalMs = 'frames' in qr ? qr.interval_ms : 0;
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (!frames || frames.length < 2) return;
    const timer = setInterval(() => setIndex((i) => (i + 1) % frames.length), intervalMs);
    return () => clearInterval(timer);
  }, [frames, intervalMs]);
  if ('unavailable' in qr) return <p className="muted">{qr.unavailable}</p>;
  const frame = qr.frames[index % qr.frames.length] ?? '';
  return (
    <div className="field">
      <img
        src={`data:image/svg+xml;utf8,${encodeURIComponent(frame)}`}
        alt="Animated QR code of the signing request (eth-sign-request)"
        width={280}
        height={280}
        style={{ background: '#fff', display: 'block' }}
      />
      <span className="muted">
        Frame {(index % qr.frames.length) + 1} of {qr.frames.length}. Scan with a Keystone-style signer (eth-sign-request), then scan or paste its
        ur:eth-signature answer below.
      </span>
    </div>
  );
}
