/**
 * The service's EIP-712 domain and its seven structs, in signing order, exactly as the spec's
 * Authentication section lists them. The member order here is part of the hash: never reorder it.
 */
export const DOMAIN_NAME = 'Service Perps';
export const DOMAIN_VERSION = '2';

/** The pinned chainId for trading actions (Order, Cancel, Modify, UpdateIsolatedMargin). */
export const TRADING_CHAIN_ID = { mainnet: 999, testnet: 998 } as const;
export type Network = keyof typeof TRADING_CHAIN_ID;

/** The `serviceEnvironment` literal signed into custody actions: a replay guard between networks. */
export const SERVICE_ENVIRONMENTS = ['Mainnet', 'Testnet'] as const;
export type ServiceEnvironment = (typeof SERVICE_ENVIRONMENTS)[number];

export function serviceEnvironmentOf(network: Network): ServiceEnvironment {
  return network === 'mainnet' ? 'Mainnet' : 'Testnet';
}

/** No verifyingContract and no salt: only these three members. */
export interface Eip712Domain {
  name: typeof DOMAIN_NAME;
  version: typeof DOMAIN_VERSION;
  chainId: number;
}

export function domainFor(chainId: number): Eip712Domain {
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new RangeError(`chainId must be a positive integer, got ${chainId}`);
  return { name: DOMAIN_NAME, version: DOMAIN_VERSION, chainId };
}

export type Eip712FieldType = 'address' | 'bytes32' | 'string' | 'uint256' | 'bool';

export interface Eip712Field {
  readonly name: string;
  readonly type: Eip712FieldType;
}

export const DOMAIN_FIELDS: readonly Eip712Field[] = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
];

export const STRUCTS = {
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
} as const satisfies Record<string, readonly Eip712Field[]>;

export type PrimaryType = keyof typeof STRUCTS;
export const PRIMARY_TYPES = Object.keys(STRUCTS) as PrimaryType[];

/** Who signs what: the main wallet signs custody actions, the trading key signs order flow. */
export const CUSTODY_ACTIONS = ['AuthorizeAgent', 'RevokeAgent', 'Withdraw'] as const satisfies readonly PrimaryType[];
export const TRADING_ACTIONS = ['Order', 'Cancel', 'Modify', 'UpdateIsolatedMargin'] as const satisfies readonly PrimaryType[];
export type CustodyAction = (typeof CUSTODY_ACTIONS)[number];
export type TradingAction = (typeof TRADING_ACTIONS)[number];

export function isCustodyAction(t: PrimaryType): t is CustodyAction {
  return (CUSTODY_ACTIONS as readonly string[]).includes(t);
}

/** uint256 members travel as decimal strings in the JSON form of a message (no precision loss). */
type ValueOf<T extends Eip712FieldType> = T extends 'bool' ? boolean : string;
type FieldsToMessage<F extends readonly Eip712Field[]> = { [K in F[number] as K['name']]: ValueOf<K['type']> };

export type MessageOf<P extends PrimaryType> = FieldsToMessage<(typeof STRUCTS)[P]>;

export type AuthorizeAgentMessage = MessageOf<'AuthorizeAgent'>;
export type RevokeAgentMessage = MessageOf<'RevokeAgent'>;
export type WithdrawMessage = MessageOf<'Withdraw'>;
export type OrderMessage = MessageOf<'Order'>;
export type CancelMessage = MessageOf<'Cancel'>;
export type ModifyMessage = MessageOf<'Modify'>;
export type UpdateIsolatedMarginMessage = MessageOf<'UpdateIsolatedMargin'>;

/**
 * The typed data exactly as a wallet (ethers, a Ledger, an offline signer) takes it:
 * eth_signTypedData_v4's JSON shape.
 */
export interface TypedDataOf<P extends PrimaryType> {
  domain: Eip712Domain;
  types: { EIP712Domain: Eip712Field[] } & { [K in P]: Eip712Field[] };
  primaryType: P;
  message: MessageOf<P>;
}

/** Distributes over primary types so TypedData (no argument) is the union of the seven. */
export type TypedData<P extends PrimaryType = PrimaryType> = P extends PrimaryType ? TypedDataOf<P> : never;

export function typedData<P extends PrimaryType>(primaryType: P, chainId: number, message: MessageOf<P>): TypedDataOf<P> {
  return {
    domain: domainFor(chainId),
    types: { EIP712Domain: [...DOMAIN_FIELDS], [primaryType]: [...STRUCTS[primaryType]] } as TypedDataOf<P>['types'],
    primaryType,
    message,
  };
}
