/**
 * Requests from main to the renderer that need an answer: the Ledger blind-signing confirmation and the
 * offline signer's signature. A prompt is sent as an event with a fresh id and resolves when the renderer
 * answers through the matching prompt:* channel, or fails when it times out or the session ends. An
 * answer for an unknown id (already answered, timed out, forged) is simply not delivered.
 */
import { randomUUID } from 'node:crypto';
import type { BlindSigningRequest, OfflineSignatureRequest } from '../../shared/ipc.js';
import { OperationError } from '../services/errors.js';

type Answer = { accept: boolean } | { signature: string } | { cancel: true };

interface Pending {
  kind: 'blind' | 'offline';
  resolve: (answer: Answer) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
  /** The offline request document (for export to a file). */
  document: string | null;
}

export interface PromptEmitter {
  blindSigningRequest(payload: BlindSigningRequest): void;
  offlineSignatureRequest(payload: OfflineSignatureRequest): void;
}

export class PromptBroker {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly emit: PromptEmitter,
    private readonly timeouts = { blindMs: 5 * 60_000, offlineMs: 30 * 60_000 },
  ) {}

  /** Asks the renderer to confirm blind signing; resolves its decision (false on timeout is an error). */
  async confirmBlindSigning(request: Omit<BlindSigningRequest, 'prompt_id'>): Promise<boolean> {
    const answer = await this.ask('blind', this.timeouts.blindMs, null, (prompt_id) => this.emit.blindSigningRequest({ prompt_id, ...request }));
    return 'accept' in answer && answer.accept;
  }

  /** Shows the offline request and resolves the signature text the renderer returns. */
  async offlineSignature(request: Omit<OfflineSignatureRequest, 'prompt_id'>): Promise<string> {
    const answer = await this.ask('offline', this.timeouts.offlineMs, request.document, (prompt_id) => this.emit.offlineSignatureRequest({ prompt_id, ...request }));
    if ('signature' in answer) return answer.signature;
    throw new OperationError('SIGNING_CANCELLED', 'the offline signature was cancelled; nothing was signed or sent');
  }

  respond(promptId: string, answer: Answer): boolean {
    const p = this.pending.get(promptId);
    if (!p) return false;
    const fits = p.kind === 'blind' ? 'accept' in answer : 'signature' in answer || 'cancel' in answer;
    if (!fits) return false;
    this.pending.delete(promptId);
    clearTimeout(p.timer);
    p.resolve(answer);
    return true;
  }

  /** The request document of a waiting offline prompt, or null. */
  document(promptId: string): string | null {
    const p = this.pending.get(promptId);
    return p && p.kind === 'offline' ? p.document : null;
  }

  has(promptId: string): boolean {
    return this.pending.has(promptId);
  }

  /** Fails every waiting prompt (profile switch, disconnect, quit). */
  cancelAll(reason: string): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new OperationError('SIGNING_CANCELLED', reason));
      this.pending.delete(id);
    }
  }

  private ask(kind: 'blind' | 'offline', timeoutMs: number, document: string | null, send: (id: string) => void): Promise<Answer> {
    const id = randomUUID();
    return new Promise<Answer>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new OperationError('PROMPT_TIMEOUT', `no answer to the ${kind === 'blind' ? 'blind-signing confirmation' : 'offline signature request'} in time; nothing was signed`));
      }, timeoutMs);
      timer.unref?.();
      this.pending.set(id, { kind, resolve, reject, timer, document });
      send(id);
    });
  }
}
