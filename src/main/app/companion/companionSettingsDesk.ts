/**
 * The companion:* channels of one profile: where the companion services are (service roots, per-chain
 * JSON-RPC URLs), the partner code, and the receiver allowlist of bridges and swaps.
 *
 * The allowlist decides where main will deliver a transfer it signs, so the renderer (which main does not
 * trust) can only ask: adding an address is two calls. addReceiver checks it and answers main's warning
 * under a short-lived confirmation id; confirmReceiver adds it, and only when the request carries the
 * address a second time, as the user typed it again after reading the warning. An id alone (a replayed or
 * injected single call) adds nothing, and a confirmation is for one address and is spent when used.
 */
import { randomUUID } from 'node:crypto';
import { sameAddress, toChecksumAddress } from '../../../shared/identity/index.js';
import {
  BRIDGE_CHAIN_IDS,
  BRIDGE_PROTOCOL_IDS,
  COMPANION_SERVICE_NAMES,
  RECEIVER_WARNING,
  type CompanionSettingsView,
  type PendingReceiver,
  type ReceiversView,
} from '../../../shared/ipc.js';
import { NATIVE_TOKEN_PLACEHOLDER } from '../../../shared/protocol/index.js';
import { CORE_SPOT_MIN_USD } from '../../services/bridge/coreSpotRules.js';
import { DEFAULT_SLIPPAGE_BPS, MAX_SLIPPAGE_BPS } from '../../services/bridge/params.js';
import { EVM_CHAIN_IDS, parseEvmChainId } from '../../services/chains/chainIds.js';
import type { CompanionContext } from '../../services/companion/companionContext.js';
import {
  clearRpcUrl,
  describeCompanionUrl,
  describeRpcUrl,
  resolvePartnerCode,
  saveCompanionUrl,
  savePartnerCode,
  setCheckedRpcUrl,
  type CompanionService,
} from '../../services/companion/companionSettings.js';
import { addReceiver, checkNewReceiver, listReceivers, removeReceiver, type AllowedReceiver } from '../../services/companion/receiverAllowlist.js';
import { OperationError, ValidationError } from '../../services/errors.js';
import type { AppLogger, DialogAdapter } from '../adapters.js';
import type { WalletSession } from '../wallet.js';

/** How long the user has to type the address again after reading the warning. */
export const RECEIVER_CONFIRMATION_MS = 5 * 60_000;
/** Confirmations waiting at once; the oldest is dropped beyond this. */
const MAX_PENDING = 4;

export interface CompanionSettingsDeskOptions {
  companion: CompanionContext;
  wallet: WalletSession;
  logger: AppLogger;
  /** Main's own confirmation (a native dialog in the app), which the page cannot answer. */
  confirm: DialogAdapter['confirm'];
  fetch?: typeof fetch;
}

interface PendingAdd {
  address: string;
  label: string;
  expiresAt: number;
}

export class CompanionSettingsDesk {
  private readonly pending = new Map<string, PendingAdd>();

  constructor(private readonly o: CompanionSettingsDeskOptions) {}

  private get c(): CompanionContext {
    return this.o.companion;
  }

  view(): CompanionSettingsView {
    const input = this.c.resolveInput;
    let partner: string | null = null;
    try {
      partner = resolvePartnerCode(input) ?? null;
    } catch (err) {
      // A malformed code in the environment is shown as unset and logged; saving a new one replaces it.
      this.o.logger.warn(`[companion] the partner code is not usable: ${(err as Error).message}`);
    }
    return {
      services: COMPANION_SERVICE_NAMES.map((service) => ({ service, ...describeCompanionUrl(input, service) })),
      chains: BRIDGE_CHAIN_IDS.map((chain) => {
        const id = EVM_CHAIN_IDS[chain];
        const rpc = id === undefined ? { url: null, source: 'unset' as const } : describeRpcUrl(input, chain);
        return { chain, evm: id !== undefined, evm_chain_id: id === undefined ? null : id.toString(), rpc_url: rpc.url, rpc_source: rpc.source };
      }),
      protocols: [...BRIDGE_PROTOCOL_IDS],
      native_token: NATIVE_TOKEN_PLACEHOLDER,
      partner_code: partner,
      default_slippage_bps: DEFAULT_SLIPPAGE_BPS,
      max_slippage_bps: MAX_SLIPPAGE_BPS,
      core_spot_min_usd: CORE_SPOT_MIN_USD,
    };
  }

  /**
   * Stores (or with null, clears) a chain's JSON-RPC URL. A URL is stored only after it answered
   * eth_chainId with the chain's own id: a URL of another chain would have transactions signed for it.
   */
  async setRpcUrl(req: { chain: string; url: string | null }): Promise<CompanionSettingsView> {
    const chain = parseEvmChainId(req.chain, 'chain');
    if (req.url === null) {
      clearRpcUrl(this.c.resolveInput, chain);
      return this.view();
    }
    // The same check as `perps bridge rpc set` (companionSettings.setCheckedRpcUrl); the URL is never logged (it may carry a key).
    await setCheckedRpcUrl(this.c.resolveInput, chain, req.url, { field: 'url', ...(this.o.fetch ? { fetch: this.o.fetch } : {}) });
    this.o.logger.info(`[companion] JSON-RPC URL of ${chain} stored`);
    return this.view();
  }

  setPartnerCode(req: { code: string }): CompanionSettingsView {
    savePartnerCode(this.c.resolveInput, req.code);
    return this.view();
  }

  setServiceUrl(req: { service: CompanionService; url: string }): CompanionSettingsView {
    saveCompanionUrl(this.c.resolveInput, req.service, req.url);
    return this.view();
  }

  // ---- receivers ----------------------------------------------------------------------------------------

  receivers(): ReceiversView {
    return receiversView(listReceivers(this.c.resolveInput));
  }

  /** Step one of adding a receiver: checks it and answers the warning under a confirmation id; stores nothing. */
  addReceiver(req: { address: string; label: string }): PendingReceiver {
    const entry = checkNewReceiver(this.c.resolveInput, req, this.o.wallet.address());
    const now = this.c.now();
    this.dropExpired(now);
    while (this.pending.size >= MAX_PENDING) {
      const oldest = this.pending.keys().next().value;
      if (oldest === undefined) break;
      this.pending.delete(oldest);
    }
    const id = randomUUID();
    const expiresAt = now + RECEIVER_CONFIRMATION_MS;
    this.pending.set(id, { ...entry, expiresAt });
    return { confirmation_id: id, address: entry.address, label: entry.label, warning: RECEIVER_WARNING, expires_at: expiresAt };
  }

  /**
   * Step two: adds the pending receiver when `address` (typed again) is the same address and the user says
   * yes once more in main's own dialog (a page, however compromised, cannot draw or answer it). A wrong
   * address leaves the confirmation as it was, so the user can correct a typo; a "no" spends it. Nothing is
   * stored until both agree.
   */
  async confirmReceiver(req: { confirmation_id: string; address: string }): Promise<ReceiversView> {
    const now = this.c.now();
    this.dropExpired(now);
    const p = this.pending.get(req.confirmation_id);
    if (!p) {
      throw new ValidationError('this confirmation is unknown or has expired', { field: 'confirmation_id', code: 'CONFIRMATION_UNKNOWN', hint: 'Add the receiver again.' });
    }
    const typed = toChecksumAddress(req.address.trim(), 'address');
    if (!sameAddress(typed, p.address)) {
      throw new ValidationError('is not the address being added: type the same address again', { field: 'address', code: 'RECEIVER_MISMATCH' });
    }
    this.pending.delete(req.confirmation_id);
    const yes = await this.o.confirm({
      title: 'Add a receiver',
      message: `Let bridges and swaps deliver to ${p.address}?`,
      detail: `${p.label}\n\n${RECEIVER_WARNING}`,
      confirmLabel: 'Add receiver',
    });
    if (!yes) throw new OperationError('RECEIVER_NOT_CONFIRMED', `${p.address} was not added: the confirmation was declined`, { hint: 'Add it again if you meant to.' });
    const list = addReceiver(this.c.resolveInput, p, this.o.wallet.address(), this.c.now());
    this.o.logger.info(`[companion] receiver ${p.address} (${p.label}) added to the allowlist of ${this.c.profile.name}`);
    return receiversView(list);
  }

  /** Removing needs no confirmation: it only narrows where transfers may go. */
  removeReceiver(req: { address: string }): ReceiversView {
    const list = removeReceiver(this.c.resolveInput, req.address);
    this.o.logger.info(`[companion] receiver ${toChecksumAddress(req.address, 'address')} removed from the allowlist of ${this.c.profile.name}`);
    return receiversView(list);
  }

  private dropExpired(now: number): void {
    for (const [id, p] of this.pending) if (p.expiresAt <= now) this.pending.delete(id);
  }
}

function receiversView(list: AllowedReceiver[]): ReceiversView {
  return { receivers: list.map((r) => ({ address: r.address, label: r.label, added_at: r.addedAt })) };
}
