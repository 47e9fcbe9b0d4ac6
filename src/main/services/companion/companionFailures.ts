/**
 * The companion clients' typed failures as the services' two kinds (services/errors.ts), so every front end
 * reports them with a stable code, a hint and the right exit code. Errors already of a service kind, and
 * ones describeFailure knows (signer, vault, profile, decode), pass through unchanged; the original error is
 * always kept as `cause`, so a caller can still switch on the typed class (e.g. InferenceRateLimitedError).
 */
import {
  AggregatorChainNotFoundError,
  BridgeChainNotFoundError,
  BridgeNoQuotesError,
  CompanionApiError,
  InferenceError,
} from '../../api/companion/index.js';
import { NetworkError, TimeoutError } from '../../api/errors.js';
import { EvmRpcError } from '../../api/evm/evmRpc.js';
import { LedgerError } from '../../signers/ledger/ledgerErrors.js';
import { OperationError } from '../errors.js';
import { SPEC_CHAIN_IDS } from '../chains/chainIds.js';

const RPC_HINTS: Record<EvmRpcError['code'], string> = {
  RPC_UNREACHABLE: 'Check the chain RPC URL (--rpc-url, PERPS_RPC_URL_<CHAIN> or `perps bridge rpc set`).',
  WRONG_CHAIN: 'The RPC URL serves another chain: set the right URL for this chain.',
  REVERTED: 'The transaction would fail on chain (allowance, balance, an expired quote): nothing was spent if it was refused before sending.',
  INSUFFICIENT_FUNDS: 'Fund the wallet with the gas token of this chain (value plus gas).',
  NONCE_CONFLICT: 'Another transaction of this wallet used the nonce: check the wallet on the chain, then retry.',
  RECEIPT_TIMEOUT: 'The transaction was sent but its receipt did not come in time: look its hash up (for a bridge, `perps bridge track --src-tx HASH`) before sending again.',
  RPC_ERROR: 'The chain RPC refused the request; check the message.',
};

/** `err` as a ServiceError where it is a companion failure; anything else unchanged. */
export function companionFailure(err: unknown): unknown {
  if (err instanceof BridgeChainNotFoundError) {
    return new OperationError('CHAIN_NOT_FOUND', err.message, { status: err.status, cause: err, hint: `The bridge does not recognise that chain id. The spec's ids: ${SPEC_CHAIN_IDS.join(', ')}.` });
  }
  if (err instanceof AggregatorChainNotFoundError) {
    return new OperationError('CHAIN_NOT_FOUND', err.message, { status: err.status, cause: err, hint: 'The aggregator does not serve swaps on that chain.' });
  }
  if (err instanceof BridgeNoQuotesError) {
    return new OperationError('NO_QUOTES_FOUND', err.message, { status: err.status, cause: err, hint: 'The quote expired (30 seconds) or is unknown: quote again and encode within 30 seconds.' });
  }
  if (err instanceof CompanionApiError) {
    const api = err.api.toUpperCase();
    return err.status >= 500
      ? new OperationError(`${api}_UNAVAILABLE`, err.message, { kind: 'transient', status: err.status, cause: err, hint: `The ${err.api} service failed; retry later.` })
      : new OperationError(`${api}_REJECTED`, err.message, { status: err.status, cause: err, hint: `The ${err.api} service refused the request; the message names the parameter.` });
  }
  if (err instanceof InferenceError) {
    return new OperationError(err.errorCode, err.message, { kind: err.errorKind === 'transient' ? 'transient' : 'rejected', status: err.status, cause: err, hint: err.action });
  }
  if (err instanceof EvmRpcError) return new OperationError(err.code, err.message, { kind: err.errorKind === 'transient' ? 'transient' : 'rejected', cause: err, hint: RPC_HINTS[err.code], ...(err.details ? { details: err.details } : {}) });
  if (err instanceof LedgerError) return new OperationError(`LEDGER_${err.code}`, err.message, { kind: err.errorKind === 'transient' ? 'transient' : 'rejected', cause: err });
  if (err instanceof NetworkError || err instanceof TimeoutError) {
    return new OperationError(err.errorCode, err.message, {
      kind: 'transient',
      cause: err,
      // Read by app and command-line users alike, so it names both places a URL is set.
      hint: 'Is the companion service reachable? Check its URL (in the app: Settings › Companion services; on the command line: --bridge-url, --platform-url, --aggregator-url, --inference-url); for the simulator, is `perps sim` running?',
    });
  }
  return err;
}

/** Runs `fn`, rethrowing its failure through companionFailure. */
export async function withCompanionFailures<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw companionFailure(err);
  }
}
