/**
 * keys:* — the wallet's trading keys: list, create, and the custody actions the main wallet signs
 * (authorize, renew, revoke). keys:review prepares the action (its exact typed data, nonce included) and
 * keeps the Prepared in the review store; the acting channel submits exactly that with the connected
 * custody signer. The app authorizes only keys held in this machine's keychain (agentOrigin 'local'):
 * a page cannot hand trading rights to a key it names.
 */
import type { AuthorizeResult, IpcResponse, SigningReview, TradingKeyList } from '../../../shared/ipc.js';
import { OperationError } from '../../services/errors.js';
import { prepareAuthorize, submitAuthorize, type PreparedAuthorize, type PreparedRenew } from '../../services/keys/authorize.js';
import { DAY_MS } from '../../services/keys/common.js';
import { createTradingKey } from '../../services/keys/create.js';
import { listTradingKeys } from '../../services/keys/list.js';
import { prepareRenew, submitRenew } from '../../services/keys/renew.js';
import { prepareRevoke, submitRevoke, type PreparedRevoke } from '../../services/keys/revoke.js';
import type { DeskContext } from '../deskContext.js';
import { signingReview } from './signingReview.js';

type KeyPrepared = PreparedAuthorize | PreparedRenew | PreparedRevoke;

export class KeysDesk {
  constructor(private readonly session: DeskContext) {}

  async list(): Promise<TradingKeyList> {
    const ctx = this.session.ctx();
    const wallet = this.session.wallet.requireAddress();
    const [list, now] = await Promise.all([listTradingKeys(ctx, wallet), ctx.clock.now()]);
    const windowMs = this.session.appSettings.settings().key_expiry_warning_days * DAY_MS;
    return {
      wallet: list.wallet,
      environment: list.environment,
      keys: list.keys.map((k) => ({
        agent: k.agent,
        name: k.name,
        status: k.status,
        listed: k.listed,
        stored_locally: k.stored_locally,
        expires_at: k.expires_at,
        expires_in_ms: k.expires_at === null ? null : Math.round(k.expires_at - now),
        expiring_soon: k.expires_at !== null && k.expires_at - now <= windowMs,
        created_at: k.created_at,
      })),
    };
  }

  async create(req: { name?: string | undefined }): Promise<IpcResponse<'keys:create'>> {
    const meta = await createTradingKey(this.session.ctx(), { wallet: this.session.wallet.requireAddress(), ...(req.name !== undefined ? { name: req.name } : {}) });
    return { agent: meta.agent, name: meta.name, created_at: meta.created_at, expires_at: meta.expires_at };
  }

  async review(req: { action: 'authorize' | 'renew' | 'revoke'; agent: string; expires_in_days?: number | undefined }): Promise<SigningReview> {
    const ctx = this.session.ctx();
    const wallet = this.session.wallet.requireAddress();
    // The custody signer must be connected before anything is prepared (SIGNER_NOT_CONNECTED otherwise).
    const signer = this.session.wallet.requireSigner();
    const days = req.expires_in_days !== undefined ? { expiresInDays: req.expires_in_days } : {};
    let prepared: KeyPrepared;
    if (req.action === 'revoke') prepared = await prepareRevoke(ctx, { wallet, agent: req.agent });
    else if (req.action === 'renew') prepared = await prepareRenew(ctx, { wallet, agent: req.agent, ...days });
    else prepared = await prepareAuthorize(ctx, { wallet, agent: req.agent, agentOrigin: 'local', ...days });
    const entry = this.session.reviews.put('key', this.session.scope(), this.session.reviewTtl('custody'), prepared);
    return signingReview(entry.id, entry.validUntil, signer, prepared.requests[0]!.typedData, prepared.view.warnings);
  }

  /**
   * Authorizing a key this machine does not hold (created on another device): main first shows its own
   * warning (a native dialog the page can neither draw nor answer), and only then prepares the
   * authorization, whose review repeats the warning.
   */
  async reviewForeign(req: { agent: string; expires_in_days?: number | undefined }): Promise<SigningReview> {
    const ctx = this.session.ctx();
    const wallet = this.session.wallet.requireAddress();
    const signer = this.session.wallet.requireSigner();
    const yes = await this.session.dialogs.confirm({
      title: 'Authorize a key from another device',
      message: `Give trading rights over ${wallet} to ${req.agent}?`,
      detail:
        'This key is not in this computer\'s keychain. Once authorized, whoever holds it can place and cancel orders and move margin for your account (not withdraw) until it expires or you revoke it. Continue only if you created this key yourself on another device.',
      confirmLabel: 'Review the authorization',
    });
    if (!yes) throw new OperationError('FOREIGN_KEY_NOT_CONFIRMED', 'authorizing a key from another device was declined; nothing was prepared or signed', { hint: 'Create the key here instead (New trading key).' });
    const prepared = await prepareAuthorize(ctx, { wallet, agent: req.agent, agentOrigin: 'foreign', ...(req.expires_in_days !== undefined ? { expiresInDays: req.expires_in_days } : {}) });
    const entry = this.session.reviews.put('key', this.session.scope(), this.session.reviewTtl('custody'), prepared as KeyPrepared);
    return signingReview(entry.id, entry.validUntil, signer, prepared.requests[0]!.typedData, prepared.view.warnings);
  }

  private take<A extends KeyPrepared['action']>(reviewId: string, action: A): Extract<KeyPrepared, { action: A }> {
    const { payload } = this.session.reviews.take<'key', KeyPrepared>(reviewId, 'key', this.session.scope());
    if (payload.action !== action) throw new OperationError('REVIEW_EXPIRED', `review ${reviewId} is a ${payload.action} review, not ${action}`, { hint: 'Review the key action again.' });
    return payload as Extract<KeyPrepared, { action: A }>;
  }

  async authorize(req: { review_id: string }): Promise<AuthorizeResult> {
    const prepared = this.take(req.review_id, 'authorize');
    const result = await submitAuthorize(this.session.ctx(), prepared, this.session.wallet.requireSigner());
    this.session.raise({ type: 'keys.changed' });
    return { ...result, previous_expires_at: prepared.view.previous_expires_at };
  }

  async renew(req: { review_id: string }): Promise<AuthorizeResult> {
    const prepared = this.take(req.review_id, 'renew');
    const result = await submitRenew(this.session.ctx(), prepared, this.session.wallet.requireSigner());
    this.session.raise({ type: 'keys.changed' });
    return result;
  }

  async revoke(req: { review_id: string }): Promise<IpcResponse<'keys:revoke'>> {
    const prepared = this.take(req.review_id, 'revoke');
    const result = await submitRevoke(this.session.ctx(), prepared, this.session.wallet.requireSigner());
    this.session.raise({ type: 'keys.changed' });
    return result;
  }
}
