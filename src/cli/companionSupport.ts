/**
 * What the companion commands (bridge, points, swap) share: their service-URL options, the companion
 * context built from the global options, and the main wallet's TRANSACTION signer from --signer.
 *
 * `--signer` reads as for custody actions (keystore:FILE, env:VAR, ledger[:PATH]); a source-chain
 * transaction is signed as a transaction, not as typed data, so these open the transaction signers of
 * src/main/signers/transactions. `offline` is refused for transactions: the encoded bridge transaction
 * would have to travel to another machine and back within the service's time limits, and no such round
 * trip is offered yet.
 */
import type { Command } from 'commander';
import type { Readable, Writable } from 'node:stream';
import { promptHidden, type RawStdin } from './prompt.js';
import { createCompanionContext, type CompanionContext } from '../main/services/companion/companionContext.js';
import { ValidationError } from '../main/services/errors.js';
import { LedgerTransactionSigner, WalletTransactionSigner, type TransactionSigner } from '../main/signers/transactions/index.js';
import { openLedger } from '../main/signers/ledger/transport.js';
import { toLedgerError } from '../main/signers/ledger/ledgerErrors.js';
import { contextOf, type GlobalOptions } from './globals.js';
import { parseSignerSpec } from './signerSpec.js';

export interface CompanionUrlOptions {
  bridgeUrl?: string;
  platformUrl?: string;
  aggregatorUrl?: string;
  inferenceUrl?: string;
  rpcUrl?: string;
  source?: string;
}

/** Adds the URL options a companion command uses. */
export function addCompanionOptions(cmd: Command, which: { bridge?: boolean; platform?: boolean; aggregator?: boolean; rpc?: boolean; source?: boolean }): Command {
  if (which.bridge) cmd.option('--bridge-url <url>', 'bridge API root including /v1 (env PERPS_BRIDGE_URL; sim: on the trading API origin)');
  if (which.platform) cmd.option('--platform-url <url>', 'points API root (env PERPS_PLATFORM_URL)');
  if (which.aggregator) cmd.option('--aggregator-url <url>', 'swap aggregator root including /v1 (env PERPS_AGGREGATOR_URL)');
  if (which.rpc) cmd.option('--rpc-url <url>', 'JSON-RPC URL of the source chain (env PERPS_RPC_URL_<CHAIN>, or `perps bridge rpc set`)');
  if (which.source) cmd.option('--source <code>', 'partner code (env PERPS_PARTNER_CODE, or the stored one)');
  return cmd;
}

/** The companion context of the resolved profile; `rpcChain` receives --rpc-url. */
export function companionContextOf(globals: GlobalOptions, opts: CompanionUrlOptions, rpcChain?: string, env: NodeJS.ProcessEnv = process.env): CompanionContext {
  const ctx = contextOf(globals, env);
  const urls: Partial<Record<'bridge' | 'platform' | 'aggregator' | 'inference', string>> = {};
  if (opts.bridgeUrl !== undefined) urls.bridge = opts.bridgeUrl;
  if (opts.platformUrl !== undefined) urls.platform = opts.platformUrl;
  if (opts.aggregatorUrl !== undefined) urls.aggregator = opts.aggregatorUrl;
  if (opts.inferenceUrl !== undefined) urls.inference = opts.inferenceUrl;
  return createCompanionContext(ctx, {
    urls,
    ...(opts.rpcUrl !== undefined && rpcChain !== undefined ? { rpcUrls: { [rpcChain]: opts.rpcUrl } } : {}),
    ...(opts.source !== undefined ? { partnerCode: opts.source } : {}),
    env,
  });
}

export interface OpenedTransactionSigner {
  signer: TransactionSigner;
  /** Releases the device (Ledger); a no-op otherwise. */
  close(): Promise<void>;
}

export interface OpenTxSignerOptions {
  env?: NodeJS.ProcessEnv;
  stdin?: Readable & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stderr?: Writable;
}

const DEFAULT_LEDGER_PATH = "m/44'/60'/0'/0/0";

export async function openTransactionSigner(spec: string | undefined, options: OpenTxSignerOptions = {}): Promise<OpenedTransactionSigner> {
  const parsed = parseSignerSpec(spec);
  const env = options.env ?? process.env;
  const stderr = options.stderr ?? process.stderr;
  const stdin = options.stdin ?? process.stdin;
  const none = async (): Promise<void> => undefined;
  switch (parsed.kind) {
    case 'env':
      // The warning (env keys are for automation) goes to stderr, never into the result on stdout.
      return { signer: WalletTransactionSigner.fromEnv(parsed.variable, { env, logger: { warn: (m) => void stderr.write(`warning: ${m}\n`) } }), close: none };
    case 'keystore':
      return {
        signer: await WalletTransactionSigner.fromKeystore(parsed.file, async () => {
          const fromEnv = env['PERPS_KEYSTORE_PASSWORD'];
          if (fromEnv !== undefined) return fromEnv;
          if (!stdin.isTTY || !stdin.setRawMode) {
            throw new ValidationError('no keystore password: PERPS_KEYSTORE_PASSWORD is not set and there is no terminal to ask on', {
              field: 'signer',
              code: 'PASSWORD_REQUIRED',
              hint: 'Set PERPS_KEYSTORE_PASSWORD, or run the command in a terminal.',
            });
          }
          return promptHidden(`Password for ${parsed.file}: `, stdin as RawStdin, stderr);
        }),
        close: none,
      };
    case 'ledger': {
      const transport = await openLedger().catch((err: unknown) => {
        throw toLedgerError(err, 'open');
      });
      try {
        stderr.write('Confirm the address on the Ledger, then review the transaction on the device when asked.\n');
        const signer = await LedgerTransactionSigner.connect({ transport, path: parsed.path ?? DEFAULT_LEDGER_PATH });
        return { signer, close: () => transport.close() };
      } catch (err) {
        await transport.close().catch((closeErr: unknown) => stderr.write(`warning: closing the Ledger failed: ${String(closeErr)}\n`));
        throw err;
      }
    }
    case 'offline':
    case 'trezor':
    case 'paper':
      // Trezor transaction signing (EthereumSignTx) is not built; custody typed data is.
      // A paper wallet signs the service's custody actions on the simulator only; it has no chain to pay from.
      throw new ValidationError(`the ${parsed.kind} signer signs typed data only, not source-chain transactions`, {
        field: 'signer',
        code: 'SIGNER_UNSUPPORTED',
        hint: 'Use --signer keystore:FILE, env:VAR or ledger[:PATH] for bridges and swaps.',
      });
  }
}


/** bigint fields (gas, block numbers) as decimal strings for a JSON document. */
export function jsonSafe(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as unknown;
}
