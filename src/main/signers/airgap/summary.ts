/**
 * A human-readable account of a custody action, shipped with every air-gapped request. The signing
 * device shows raw fields (a uint256 amount in base units, an expiry in Unix milliseconds); this says
 * the same in words, so the user can check the device against it field by field.
 */
import { baseUnitsToUsdc } from '../../../shared/decimal/index.js';
import { bytesToHex, digestOf, isCustodyAction, type CustodyAction, type TypedData } from '../../../shared/eip712/index.js';
import { AirgapError } from './airgapError.js';

export interface TypedDataSummary {
  /** What the signature allows, in words. */
  readonly action: string;
  readonly primaryType: CustodyAction;
  /** The main wallet that must sign (the struct's `user`). */
  readonly wallet: string;
  /** AuthorizeAgent and RevokeAgent: the trading key. */
  readonly agent?: string;
  /** Withdraw: whole USDC (the struct signs base units with 6 decimals). */
  readonly amountUsdc?: string;
  /** Withdraw: base units exactly as signed. */
  readonly amountBaseUnits?: string;
  /** Withdraw: the recipient. */
  readonly destination?: string;
  /** AuthorizeAgent: when the key stops working, ISO 8601 UTC. */
  readonly expiresAt?: string;
  readonly serviceEnvironment: string;
  readonly chainId: number;
  readonly nonce: string;
  /** keccak256 of the EIP-712 encoding: what a device shows when it signs blind. */
  readonly digest: string;
  /** The same facts as lines of text, for a file or a screen. */
  readonly lines: readonly string[];
}

const ACTIONS: Record<CustodyAction, string> = {
  AuthorizeAgent: 'Authorize a trading key to trade for this wallet (it cannot withdraw)',
  RevokeAgent: 'Revoke a trading key',
  Withdraw: 'Withdraw USDC',
};

function isoFromMs(ms: string): string {
  const n = Number(ms);
  return Number.isSafeInteger(n) ? new Date(n).toISOString() : `${ms} (Unix ms)`;
}

export function assertCustodyAction(data: TypedData): asserts data is TypedData<CustodyAction> {
  if (!isCustodyAction(data.primaryType)) {
    throw new AirgapError('NOT_A_CUSTODY_ACTION', `The main wallet signs only AuthorizeAgent, RevokeAgent and Withdraw, not ${data.primaryType}.`);
  }
}

export function summarize(data: TypedData): TypedDataSummary {
  assertCustodyAction(data);
  // digestOf validates the domain and struct against the service's; a summary of anything else would lie.
  const digest = bytesToHex(digestOf(data));
  const base = {
    primaryType: data.primaryType,
    action: ACTIONS[data.primaryType],
    chainId: data.domain.chainId,
    digest,
  };
  let s: Omit<TypedDataSummary, 'lines'>;
  switch (data.primaryType) {
    case 'AuthorizeAgent': {
      const m = data.message;
      s = { ...base, wallet: m.user, agent: m.agent, expiresAt: isoFromMs(m.expiresAt), serviceEnvironment: m.serviceEnvironment, nonce: m.nonce };
      break;
    }
    case 'RevokeAgent': {
      const m = data.message;
      s = { ...base, wallet: m.user, agent: m.agent, serviceEnvironment: m.serviceEnvironment, nonce: m.nonce };
      break;
    }
    case 'Withdraw': {
      const m = data.message;
      s = {
        ...base,
        wallet: m.user,
        amountUsdc: baseUnitsToUsdc(BigInt(m.amount)),
        amountBaseUnits: m.amount,
        destination: m.destination,
        serviceEnvironment: m.serviceEnvironment,
        nonce: m.nonce,
      };
      break;
    }
  }
  const lines = [
    `Action: ${s.action} (${s.primaryType})`,
    `Wallet (signer): ${s.wallet}`,
    ...(s.agent ? [`Trading key: ${s.agent}`] : []),
    ...(s.amountUsdc ? [`Amount: ${s.amountUsdc} USDC (signed as ${s.amountBaseUnits} base units)`] : []),
    ...(s.destination ? [`Destination: ${s.destination}${s.destination.toLowerCase() === s.wallet.toLowerCase() ? ' (the wallet itself)' : ''}`] : []),
    ...(s.expiresAt ? [`Expires: ${s.expiresAt}`] : []),
    `Environment: ${s.serviceEnvironment}`,
    `Chain id (EIP-712 domain): ${s.chainId}`,
    `Nonce: ${s.nonce}`,
    `EIP-712 digest: ${s.digest}`,
  ];
  return { ...s, lines };
}
