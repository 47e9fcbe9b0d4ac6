/**
 * Independent EIP-712 signing for the conformance suite, written from the spec alone
 * (/work/shared/spec/perps-api.md, "Authentication"). It deliberately does not import the app's
 * builders (src/shared/eip712, src/main, src/cli): a misreading of the spec must show up as a
 * failing test, not as two matching mistakes.
 */
import { Signature, TypedDataEncoder, type TypedDataField } from 'ethers';

/** Anything that can sign typed data the way ethers' Wallet does. */
export interface TypedSigner {
  readonly address: string;
  signTypedData(domain: Domain, types: Record<string, TypedDataField[]>, value: Record<string, unknown>): Promise<string>;
}

export interface Domain {
  name: string;
  version: string;
  chainId: number;
}

/** Domain: name `Service Perps`, version `2`, chainId; no verifyingContract, no salt. */
export function domain(chainId: number): Domain {
  return { name: 'Service Perps', version: '2', chainId };
}

/** Struct members in signing order, copied from the spec's "Struct members" table. */
export const TYPES = {
  AuthorizeAgent: [
    { name: 'user', type: 'address' },
    { name: 'agent', type: 'address' },
    { name: 'serviceEnvironment', type: 'string' },
    { name: 'expiresAt', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
  ],
  RevokeAgent: [
    { name: 'user', type: 'address' },
    { name: 'agent', type: 'address' },
    { name: 'serviceEnvironment', type: 'string' },
    { name: 'nonce', type: 'uint256' },
  ],
  Withdraw: [
    { name: 'user', type: 'address' },
    { name: 'destination', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'serviceEnvironment', type: 'string' },
    { name: 'nonce', type: 'uint256' },
  ],
  Order: [
    { name: 'account', type: 'bytes32' },
    { name: 'market', type: 'string' },
    { name: 'side', type: 'string' },
    { name: 'orderType', type: 'string' },
    { name: 'size', type: 'string' },
    { name: 'limitPrice', type: 'string' },
    { name: 'timeInForce', type: 'string' },
    { name: 'reduceOnly', type: 'bool' },
    { name: 'leverage', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'triggerPrice', type: 'string' },
    { name: 'isMarket', type: 'bool' },
    { name: 'tpsl', type: 'string' },
  ],
  Cancel: [
    { name: 'account', type: 'address' },
    { name: 'orderId', type: 'string' },
    { name: 'orderType', type: 'string' },
    { name: 'nonce', type: 'uint256' },
  ],
  Modify: [
    { name: 'account', type: 'bytes32' },
    { name: 'orderId', type: 'string' },
    { name: 'clientOrderId', type: 'string' },
    { name: 'limitPrice', type: 'string' },
    { name: 'size', type: 'string' },
    { name: 'triggerPrice', type: 'string' },
    { name: 'nonce', type: 'uint256' },
  ],
  UpdateIsolatedMargin: [
    { name: 'account', type: 'bytes32' },
    { name: 'market', type: 'string' },
    { name: 'amount', type: 'string' },
    { name: 'nonce', type: 'uint256' },
  ],
} as const satisfies Record<string, readonly TypedDataField[]>;

export type PrimaryType = keyof typeof TYPES;

export function typesFor(primaryType: PrimaryType): Record<string, TypedDataField[]> {
  return { [primaryType]: [...TYPES[primaryType]] };
}

/** EIP-712 digest of one typed message (ethers' encoder, no app code). */
export function digest(primaryType: PrimaryType, dom: Domain, message: Record<string, unknown>): string {
  return TypedDataEncoder.hash(dom, typesFor(primaryType), message);
}

export async function signTyped(signer: TypedSigner, primaryType: PrimaryType, dom: Domain, message: Record<string, unknown>): Promise<string> {
  return signer.signTypedData(dom, typesFor(primaryType), message);
}

/** account_id: lowercase wallet, then 11 zero bytes, then the 1-byte subaccount index 00 (24 hex zeros in all). */
export function accountIdOf(wallet: string): string {
  return wallet.toLowerCase() + '0'.repeat(24);
}

/** The wallet an account_id derives from (first 20 bytes), lowercase. */
export function walletOfAccountId(accountId: string): string {
  return accountId.slice(0, 42).toLowerCase();
}

/** Withdraw's `{ r, s, v }` split of a 65-byte signature (v 27 or 28). */
export function splitSig(sig: string): { r: string; s: string; v: number } {
  const s = Signature.from(sig);
  return { r: s.r, s: s.s, v: s.v };
}

/**
 * Whole-USDC decimal string of the body to uint256 base units (6 decimals), by string arithmetic:
 * '25' -> '25000000', '12.5' -> '12500000'.
 */
export function usdcBaseUnits(amount: string): string {
  const m = /^(\d+)(?:\.(\d{1,6}))?$/.exec(amount);
  if (!m) throw new Error(`not a USDC amount with at most 6 decimals: ${amount}`);
  const whole = m[1] ?? '0';
  const frac = (m[2] ?? '').padEnd(6, '0');
  return BigInt(whole + frac).toString();
}

// ---- messages from request bodies ("Where signed members come from") -------------------------------

export interface TriggerBody {
  trigger_price: string;
  is_market: boolean;
  tpsl: string;
}

/** An order leg as sent (loose: tests also send malformed legs). */
export interface LegBody {
  market?: string;
  side?: string;
  size?: string;
  limit_price?: string;
  order_type?: string;
  time_in_force?: string;
  reduce_only?: boolean;
  leverage?: number;
  client_order_id?: string;
  trigger?: TriggerBody;
  parent_client_order_id?: string;
  nonce?: string;
  signature?: string;
  [extra: string]: unknown;
}

/**
 * Order message for a leg: orderType MARKET when omitted; timeInForce IOC on a trigger (omitted in
 * the body); reduceOnly false when omitted; triggerPrice/isMarket/tpsl '0'/false/'' on a plain order;
 * client_order_id and parent_client_order_id are not members.
 */
export function orderMessage(accountId: string, leg: LegBody): Record<string, unknown> {
  const orderType = leg.order_type ?? 'MARKET';
  return {
    account: accountId,
    market: leg.market ?? '',
    side: leg.side ?? '',
    orderType,
    size: leg.size ?? '',
    limitPrice: leg.limit_price ?? '',
    timeInForce: orderType === 'TRIGGER' ? 'IOC' : (leg.time_in_force ?? ''),
    reduceOnly: leg.reduce_only ?? false,
    leverage: String(leg.leverage ?? 0),
    nonce: String(leg.nonce ?? '0'),
    triggerPrice: leg.trigger?.trigger_price ?? '0',
    isMarket: leg.trigger?.is_market ?? false,
    tpsl: leg.trigger?.tpsl ?? '',
  };
}

export function cancelMessage(wallet: string, orderId: string, orderType: string, nonce: string): Record<string, unknown> {
  return { account: wallet, orderId, orderType, nonce };
}

export interface ModifyBody {
  account_id: string;
  client_order_id: string;
  limit_price: string;
  size: string;
  trigger_price: string;
  nonce: string;
  signature?: string;
}

export function modifyMessage(orderId: string, body: ModifyBody): Record<string, unknown> {
  return {
    account: body.account_id,
    orderId,
    clientOrderId: body.client_order_id,
    limitPrice: body.limit_price,
    size: body.size,
    triggerPrice: body.trigger_price,
    nonce: body.nonce,
  };
}

export function marginMessage(accountId: string, market: string, amount: string, nonce: number | string): Record<string, unknown> {
  return { account: accountId, market, amount, nonce: String(nonce) };
}

export function authorizeMessage(user: string, agent: string, env: string, expiresAt: number | string, nonce: number | string): Record<string, unknown> {
  return { user, agent, serviceEnvironment: env, expiresAt: String(expiresAt), nonce: String(nonce) };
}

export function revokeMessage(user: string, agent: string, env: string, nonce: number | string): Record<string, unknown> {
  return { user, agent, serviceEnvironment: env, nonce: String(nonce) };
}

/** Withdraw: user is the wallet the account_id derives from; destination the wallet (default rail) or the recipient. */
export function withdrawMessage(user: string, destination: string, amount: string, env: string, nonce: string): Record<string, unknown> {
  return { user, destination, amount: usdcBaseUnits(amount), serviceEnvironment: env, nonce };
}
