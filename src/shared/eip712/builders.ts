/**
 * Pure builders from a request body, exactly as it will be sent, to the typed message the service
 * recovers against (the spec's "Where signed members come from"). Building from the body — not from
 * the user's intent — is what keeps the signed strings equal to the sent strings byte for byte.
 */
import { walletFromAccountId } from '../identity/address.js';
import { usdcToBaseUnits } from '../decimal/usdc.js';
import { typedData, type Network, TRADING_CHAIN_ID, type ServiceEnvironment, type TypedDataOf } from './domain.js';

/** Fields of an order leg that are signed (client_order_id and parent_client_order_id are not). */
export interface OrderLegForSigning {
  market: string;
  side: string;
  size: string;
  limit_price: string;
  order_type?: string | undefined;
  time_in_force?: string | undefined;
  reduce_only?: boolean | undefined;
  leverage?: number | undefined;
  trigger?: { trigger_price: string; is_market: boolean; tpsl: string } | undefined;
  nonce: string;
}

/**
 * Order typed data for one leg. orderType defaults to MARKET when omitted; a TRIGGER signs IOC although
 * its body omits time_in_force; a plain order signs triggerPrice '0', isMarket false and tpsl ''; an
 * omitted leverage signs 0 (the spec makes leverage optional and signed, and shows no other default).
 */
export function orderTypedData(accountId: string, leg: OrderLegForSigning, network: Network): TypedDataOf<'Order'> {
  const orderType = leg.order_type ?? 'MARKET';
  const timeInForce = orderType === 'TRIGGER' ? 'IOC' : (leg.time_in_force ?? '');
  return typedData('Order', TRADING_CHAIN_ID[network], {
    account: accountId,
    market: leg.market,
    side: leg.side,
    orderType,
    size: leg.size,
    limitPrice: leg.limit_price,
    timeInForce,
    reduceOnly: leg.reduce_only ?? false,
    leverage: String(leg.leverage ?? 0),
    nonce: leg.nonce,
    triggerPrice: leg.trigger ? leg.trigger.trigger_price : '0',
    isMarket: leg.trigger ? leg.trigger.is_market : false,
    tpsl: leg.trigger ? leg.trigger.tpsl : '',
  });
}

export interface CancelBodyForSigning {
  account: string;
  order_type: string;
  nonce: string;
}

/** Cancel: orderId comes from the URL path; account is the wallet, not the account_id. */
export function cancelTypedData(orderId: string, body: CancelBodyForSigning, network: Network): TypedDataOf<'Cancel'> {
  return typedData('Cancel', TRADING_CHAIN_ID[network], {
    account: body.account,
    orderId,
    orderType: body.order_type,
    nonce: body.nonce,
  });
}

export interface ModifyBodyForSigning {
  account_id: string;
  client_order_id: string;
  limit_price: string;
  size: string;
  trigger_price: string;
  nonce: string;
}

/** Modify: orderId from the path; clientOrderId from the body (signed here, unlike in Order). */
export function modifyTypedData(orderId: string, body: ModifyBodyForSigning, network: Network): TypedDataOf<'Modify'> {
  return typedData('Modify', TRADING_CHAIN_ID[network], {
    account: body.account_id,
    orderId,
    clientOrderId: body.client_order_id,
    limitPrice: body.limit_price,
    size: body.size,
    triggerPrice: body.trigger_price,
    nonce: body.nonce,
  });
}

export interface MarginBodyForSigning {
  account_id: string;
  market: string;
  amount: string;
  nonce: number;
}

export function marginTypedData(body: MarginBodyForSigning, network: Network): TypedDataOf<'UpdateIsolatedMargin'> {
  return typedData('UpdateIsolatedMargin', TRADING_CHAIN_ID[network], {
    account: body.account_id,
    market: body.market,
    amount: body.amount,
    nonce: String(body.nonce),
  });
}

export interface RegisterBodyForSigning {
  wallet_address: string;
  agent_wallet_address: string;
  service_environment: ServiceEnvironment;
  signature_chain_id: number;
  expires_at: number;
  nonce: number;
}

/** AuthorizeAgent: wallet-signed, so the domain chainId is the body's signature_chain_id. */
export function authorizeAgentTypedData(body: RegisterBodyForSigning): TypedDataOf<'AuthorizeAgent'> {
  return typedData('AuthorizeAgent', body.signature_chain_id, {
    user: body.wallet_address,
    agent: body.agent_wallet_address,
    serviceEnvironment: body.service_environment,
    expiresAt: String(body.expires_at),
    nonce: String(body.nonce),
  });
}

export type RevokeBodyForSigning = Omit<RegisterBodyForSigning, 'expires_at'>;

export function revokeAgentTypedData(body: RevokeBodyForSigning): TypedDataOf<'RevokeAgent'> {
  return typedData('RevokeAgent', body.signature_chain_id, {
    user: body.wallet_address,
    agent: body.agent_wallet_address,
    serviceEnvironment: body.service_environment,
    nonce: String(body.nonce),
  });
}

export interface WithdrawBodyForSigning {
  account_id: string;
  amount: string;
  nonce: string;
  signature_chain_id: number;
  destination_chain_id?: number | undefined;
  destination_recipient?: string | undefined;
}

/**
 * Withdraw: user is the wallet the account_id derives from; destination is that wallet on the default
 * rail and destination_recipient on the Arbitrum rail; amount is signed in USDC base units (6 decimals,
 * more precision is an error); the domain chainId is signature_chain_id.
 */
export function withdrawTypedData(body: WithdrawBodyForSigning, environment: ServiceEnvironment): TypedDataOf<'Withdraw'> {
  const user = walletFromAccountId(body.account_id);
  return typedData('Withdraw', body.signature_chain_id, {
    user,
    destination: body.destination_recipient ?? user,
    amount: usdcToBaseUnits(body.amount).toString(),
    serviceEnvironment: environment,
    nonce: body.nonce,
  });
}
