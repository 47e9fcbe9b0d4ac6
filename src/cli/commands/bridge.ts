/**
 * `perps bridge quote | send | track | rpc`: cross-chain transfers through the bridge API.
 *
 *   quote  routes for a transfer, best first (amountOut, then the order of --protocols); no signer
 *   send   quote, encode the chosen route within the requestId's 30 seconds (re-quoting on expiry), approve
 *          an ERC-20 when needed, sign with the main wallet (--signer) and send through the source chain's
 *          JSON-RPC; with --wait, follow the order to done (exit 0), refunded or failed (exit 1)
 *          (--dry-run: everything up to the first signature, then the transactions that would be signed are
 *          printed; nothing is signed or sent, the signer only tells the sending address)
 *   track  the order of a source transaction now, or with --wait until it ends
 *   rpc    the JSON-RPC URL stored per chain (set, list, clear); `set` stores a URL only after it answered
 *          eth_chainId with that chain's id
 *
 * Every input rule (chain ids, tokens, amounts, the core-spot flow rules) is checked before the service is
 * asked: a refusal there exits 2 with nothing sent.
 *
 * RPC URLs are printed as scheme://host[:port]/… (providers put the API key in the path or query, and a
 * terminal's output ends up in logs and bug reports); `rpc list --show-secrets` prints them whole, for
 * the user who asks at their own screen.
 */
import type { Command } from 'commander';
import {
  bridgeStatus,
  parseSrcTx,
  prepareBridgeSend,
  quoteBridge,
  submitBridgeSend,
  trackBridgeOrder,
  unsuccessfulBridgeError,
  type BridgeQuoteInput,
  type BridgeRoute,
  type BridgeSendProgress,
  type BridgeStatus,
  type TrackDeps,
} from '../../main/services/bridge/index.js';
import { ProfileError } from '../../main/profiles/profiles.js';
import { clearRpcUrl, companionFailure, resolveReceiptTimeoutMs, resolveRpcUrl, setCheckedRpcUrl, storedRpcUrls } from '../../main/services/companion/index.js';
import { redactUrl } from '../../main/api/evm/evmRpc.js';
import { EVM_CHAIN_IDS, parseUnits } from '../../main/services/chains/chainIds.js';
import { OperationError, ValidationError } from '../../main/services/errors.js';
import { addCompanionOptions, companionContextOf, jsonSafe, openTransactionSigner, type CompanionUrlOptions } from '../companionSupport.js';
import { printDryRun } from '../dryRun.js';
import { globalsOf } from '../globals.js';
import { formatFields, formatTable, runAction, type Output } from '../output.js';
import { durationFlag, parseIntegerOption, positiveDurationOption } from '../parse.js';
import { createProgress, type Progress } from '../progress.js';

interface TransferOpts extends CompanionUrlOptions {
  fromChain: string;
  toChain: string;
  fromToken: string;
  toToken: string;
  amount: string;
  decimals?: string;
  protocols: string;
  slippage?: string;
  receiver?: string;
  usdValue?: string;
}

interface QuoteOpts extends TransferOpts {
  sender?: string;
}

interface SendOpts extends TransferOpts {
  protocol?: string;
  srcUsd?: string;
  dstUsd?: string;
  wait?: boolean;
  timeout?: string;
  poll?: string;
  receiptTimeout?: string;
  dryRun?: boolean;
}

interface TrackOpts extends CompanionUrlOptions {
  srcTx: string;
  wait?: boolean;
  timeout?: string;
  poll?: string;
}

function addTransferOptions(cmd: Command): Command {
  return cmd
    .requiredOption('--from-chain <id>', 'source chain id (lowercase: ethereum, arbitrum, optimism, base, unichain, flare, plasma, venue_evm)')
    .requiredOption('--to-chain <id>', 'destination chain id (also venue_core)')
    .requiredOption('--from-token <token>', "source token address, or 'native' for the gas token")
    .requiredOption('--to-token <token>', "destination token address, 'native', or on venue_core a venue token id (0x + 32 hex)")
    .requiredOption('--amount <units>', "amount in the source token's smallest unit (integer), or whole tokens with --decimals")
    .option('--decimals <n>', 'decimals of the source token: --amount is then in whole tokens (e.g. 1.5)')
    .requiredOption('--protocols <ids>', 'comma-separated protocol ids to consider (e.g. rail_fast,rail_size)')
    .option('--slippage <bps>', 'integer slippage, 100 = 1% (service default 100)')
    .option('--receiver <address>', 'destination address (default: the sender)')
    .option('--usd-value <usd>', "USD value of the amount at the source token's price (the core-spot flow to venue_evm needs it: 100 USD minimum)");
}

function quoteInput(opts: TransferOpts, source: string | undefined): BridgeQuoteInput {
  const decimals = parseIntegerOption(opts.decimals, 'decimals');
  return {
    fromChain: opts.fromChain,
    toChain: opts.toChain,
    fromToken: opts.fromToken,
    toToken: opts.toToken,
    amount: parseUnits(opts.amount, 'amount', decimals),
    protocols: opts.protocols.split(','),
    ...(opts.slippage !== undefined ? { slippageBps: parseSlippageOption(opts.slippage) } : {}),
    ...(opts.receiver !== undefined ? { receiver: opts.receiver } : {}),
    ...(source !== undefined ? { source } : {}),
    ...(opts.usdValue !== undefined ? { sourceUsdValue: opts.usdValue } : {}),
  };
}

/** Integer basis points (100 = 1%). */
function parseSlippageOption(value: string): number {
  return parseIntegerOption(value, 'slippage')!;
}

export function routeView(r: BridgeRoute): Record<string, unknown> {
  return { quote_idx: r.quoteIdx, protocol: r.protocol, amount_out: r.amountOut, element: r.element };
}

function routesTable(ranked: readonly BridgeRoute[]): string {
  return formatTable(
    ranked,
    [
      { header: 'BEST', value: (r) => (r === ranked[0] ? '*' : '') },
      { header: 'PROTOCOL', value: (r) => r.protocol },
      { header: 'AMOUNT OUT', value: (r) => r.amountOut, align: 'right' },
      { header: 'QUOTE IDX', value: (r) => String(r.quoteIdx), align: 'right' },
    ],
    'no routes for this transfer',
  );
}

function statusView(s: BridgeStatus): Record<string, unknown> {
  return { src_tx: s.srcTx, state: s.state, orders: s.orders };
}

function describeSendProgress(p: BridgeSendProgress): string {
  if ('step' in p) return `${p.tx === 'approve' ? 'approval' : 'bridge transaction'}: ${p.phase}${p.hash ? ` ${p.hash}` : ''}`;
  switch (p.phase) {
    case 'quoting':
      return 'quoting';
    case 'estimating-points':
      return 'estimating points';
    case 'encoding':
      return `encoding the ${p.protocol} route (${p.amountOut} out)`;
    case 'requoting':
      return `re-quoting (${p.reason === 'expiring' ? 'the quote was about to expire' : 'the quote expired'})`;
  }
}

async function track(ctx: TrackDeps, srcTx: string, opts: { timeout?: string; poll?: string }, progress: Progress) {
  const timeoutMs = positiveDurationOption(opts.timeout, 'timeout');
  const pollIntervalMs = positiveDurationOption(opts.poll, 'poll');
  return trackBridgeOrder({ bridge: ctx.bridge, sleep: ctx.sleep }, srcTx, {
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
    onUpdate: (s) => progress.update(`bridge order of ${s.srcTx}: ${s.state}`),
  });
}

/**
 * A send that failed after its source transaction was broadcast (the receipt did not come) names that
 * transaction as `src_tx`, so a --json caller can still track the order it may have started.
 */
function withSrcTx(failure: unknown): unknown {
  if (!(failure instanceof OperationError) || failure.details?.['tx'] !== 'main' || typeof failure.details['tx_hash'] !== 'string') return failure;
  const srcTx = failure.details['tx_hash'];
  return new OperationError(failure.code, failure.message, {
    cause: failure,
    details: { ...failure.details, src_tx: srcTx },
    hint: `The bridge transaction was sent: follow its order with \`perps bridge track --src-tx ${srcTx} --wait\` before sending again.`,
    ...(failure.status !== undefined ? { status: failure.status } : {}),
  });
}

/** Prints a final order status; refunded or failed is a failed operation (exit 1) after the document. */
function finish(out: Output, doc: Record<string, unknown>, status: BridgeStatus, human: string): 1 | undefined {
  out.result(doc, human);
  if (status.state === 'done') return undefined;
  const f = unsuccessfulBridgeError(status);
  out.note(`${f.message}\nhint: ${f.hint ?? ''}`);
  return 1;
}

export function registerBridgeCommands(program: Command): void {
  const bridge = program.command('bridge').description('cross-chain transfers through the bridge API (quote, send, track)');

  addCompanionOptions(
    addTransferOptions(bridge.command('quote').description('routes for a transfer, best first; with --sender the answer carries a requestId')),
    { bridge: true, source: true },
  )
    .option('--sender <address>', 'sender address (with the receiver, the quote can be encoded)')
    .action(async (opts: QuoteOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        try {
          const ctx = companionContextOf(g, opts);
          const input = quoteInput(opts, ctx.partnerCode());
          const receiver = opts.receiver ?? opts.sender;
          const q = await quoteBridge({ bridge: ctx.bridge, now: () => ctx.now() }, { ...input, ...(opts.sender !== undefined ? { sender: opts.sender } : {}), ...(receiver !== undefined ? { receiver } : {}) });
          const doc = {
            request_id: q.requestId,
            params: q.params,
            core_spot: q.coreSpot,
            best: q.ranked[0] ? routeView(q.ranked[0]) : null,
            routes: q.ranked.map(routeView),
          };
          out.result(doc, () => [routesTable(q.ranked), q.requestId ? `\nrequestId ${q.requestId} (valid 30 seconds)` : ''].join(''));
        } catch (err) {
          throw companionFailure(err);
        }
      });
    });

  addCompanionOptions(
    addTransferOptions(bridge.command('send').description('quote, encode, sign with --signer and send the source-chain transaction; --wait follows the order')),
    { bridge: true, platform: true, rpc: true, source: true },
  )
    .option('--protocol <id>', 'encode the best route of this protocol (default: the best route overall)')
    .option('--src-usd <usd>', 'USD value of the amount sent (with --dst-usd: estimate points before sending)')
    .option('--dst-usd <usd>', 'USD value of the amount received')
    .option('--wait', 'follow the order until done (exit 0), refunded or failed (exit 1)')
    .option('--timeout <duration>', 'with --wait: stop waiting after this long, a duration such as 30s or 5m (the order goes on)', durationFlag('timeout'))
    .option('--poll <duration>', 'with --wait: the time between status reads, a duration such as 3s or 1m (default 3s)', durationFlag('poll'))
    .option('--receipt-timeout <duration>', 'stop waiting for the source transaction\'s receipt after this long, a duration such as 90s or 5m (env PERPS_RECEIPT_TIMEOUT, same form; default 5m); the error then names the src_tx to track', durationFlag('receipt-timeout'))
    .option('--dry-run', 'quote, encode and check everything, then print the transactions that would be signed; sign and send nothing')
    .action(async (opts: SendOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const progress = createProgress({ json });
        try {
          if ((opts.srcUsd === undefined) !== (opts.dstUsd === undefined)) throw new ValidationError('give both --src-usd and --dst-usd, or neither', { field: 'src-usd' });
          const ctx = companionContextOf(g, opts, opts.fromChain);
          const input = quoteInput(opts, ctx.partnerCode());
          const receiptTimeoutMs = resolveReceiptTimeoutMs(ctx.resolveInput, opts.receiptTimeout);
          if (opts.dryRun === true && opts.wait === true) throw new ValidationError('--dry-run sends nothing, so there is nothing to --wait for', { field: 'dry-run', code: 'USAGE' });
          const onProgress = (p: BridgeSendProgress): void => progress.update(describeSendProgress(p));
          // A dry run opens the signer too: it names the sending wallet (quotes, balances), and signs nothing.
          const opened = await openTransactionSigner(g.signer);
          let result;
          try {
            const prepared = await prepareBridgeSend(ctx, {
              ...input,
              sender: opened.signer.address,
              ...(opts.protocol !== undefined ? { protocol: opts.protocol } : {}),
              ...(opts.srcUsd !== undefined && opts.dstUsd !== undefined ? { pointsUsd: { src: opts.srcUsd, dst: opts.dstUsd } } : {}),
              onProgress,
            });
            if (opts.dryRun === true) {
              progress.done();
              return printDryRun(out, prepared, prepared.view);
            }
            result = await submitBridgeSend(ctx, prepared, opened.signer, { onProgress, ...(receiptTimeoutMs !== undefined ? { receiptTimeoutMs } : {}) });
          } finally {
            await opened.close();
          }
          const doc: Record<string, unknown> = {
            src_tx: result.srcTx,
            from_chain: result.fromChain,
            to_chain: result.toChain,
            sender: result.sender,
            receiver: result.receiver,
            amount: result.amount,
            route: routeView(result.route),
            request_id: result.requestId,
            requotes: result.requotes,
            transaction: jsonSafe(result.transaction),
            points: result.points,
            points_error: result.pointsError,
          };
          const human = (): string =>
            formatFields([
              ['source tx', result.srcTx],
              ['route', `${result.route.protocol}: ${result.amount} -> ${result.route.amountOut}`],
              ...(result.transaction.approval ? ([['approve tx', result.transaction.approval.hash]] as const) : []),
              ...(result.requotes > 0 ? ([['re-quotes', String(result.requotes)]] as const) : []),
              ...(result.points ? ([['points (estimate)', `${result.points.point} + ${result.points.partnerBonus} partner bonus`]] as const) : []),
              ...(result.pointsError !== null ? ([['points (estimate)', `unavailable: ${result.pointsError}`]] as const) : []),
            ]);
          if (opts.wait !== true) {
            progress.done();
            out.result({ ...doc, order: null }, () => `${human()}\ntrack it with: perps bridge track --src-tx ${result.srcTx} --wait`);
            return;
          }
          const final = await track(ctx, result.srcTx, opts, progress);
          progress.done();
          return finish(out, { ...doc, order: statusView(final) }, final, `${human()}\n${formatFields([['order', final.state]])}`);
        } catch (err) {
          progress.done();
          throw withSrcTx(companionFailure(err));
        }
      });
    });

  addCompanionOptions(bridge.command('track').description('the bridge order of a source transaction (pending, done, refunded, failed)'), { bridge: true })
    .requiredOption('--src-tx <hash>', 'the source-chain transaction hash')
    .option('--wait', 'follow it until done (exit 0), refunded or failed (exit 1)')
    .option('--timeout <duration>', 'with --wait: stop waiting after this long, a duration such as 30s or 5m', durationFlag('timeout'))
    .option('--poll <duration>', 'with --wait: the time between status reads, a duration such as 3s or 1m (default 3s)', durationFlag('poll'))
    .action(async (opts: TrackOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      const json = g.json === true;
      await runAction({ json }, async (out) => {
        const progress = createProgress({ json });
        try {
          const srcTx = parseSrcTx(opts.srcTx);
          const ctx = companionContextOf(g, opts);
          if (opts.wait !== true) {
            const s = await bridgeStatus(ctx, srcTx);
            out.result(statusView(s), () => formatFields([['source tx', s.srcTx], ['state', s.state === 'unseen' ? 'not seen by the bridge yet' : s.state]]));
            return;
          }
          const final = await track(ctx, srcTx, opts, progress);
          progress.done();
          return finish(out, statusView(final), final, formatFields([['source tx', final.srcTx], ['state', final.state]]));
        } catch (err) {
          progress.done();
          throw companionFailure(err);
        }
      });
    });

  const rpc = bridge.command('rpc').description('the JSON-RPC URL of each EVM chain (used by bridge send and swap)');
  rpc
    .command('set <chain> <url>')
    .description('store the JSON-RPC URL of an EVM chain for this profile, once it answers eth_chainId with that chain\'s id')
    .action(async (chain: string, url: string, _opts: unknown, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        try {
          // The same probe as the app's settings: a URL of another chain (or no EVM node) is never stored.
          const saved = await setCheckedRpcUrl(companionContextOf(g, {}).resolveInput, chain, url);
          const shown = redactUrl(saved.url);
          out.result({ chain: saved.chain, rpc_url: shown, chain_id: saved.chainId.toString() }, `${saved.chain}: ${shown} (chain id ${saved.chainId})`);
        } catch (err) {
          throw companionFailure(err);
        }
      });
    });
  rpc
    .command('clear <chain>')
    .description('forget the stored JSON-RPC URL of a chain')
    .action(async (chain: string, _opts: unknown, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const removed = clearRpcUrl(companionContextOf(g, {}).resolveInput, chain);
        out.result({ chain, removed }, removed ? `${chain}: cleared` : `${chain}: nothing was stored`);
      });
    });
  rpc
    .command('list')
    .description('the JSON-RPC URL each EVM chain resolves to (flag > PERPS_RPC_URL_<CHAIN> > stored > sim default), path and query hidden')
    .option('--show-secrets', 'print the URLs whole (their path or query may hold a provider API key)')
    .action(async (opts: { showSecrets?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const input = companionContextOf(g, {}).resolveInput;
        const stored = storedRpcUrls(input);
        const rows = Object.keys(EVM_CHAIN_IDS).map((chain) => {
          let url: string | null = null;
          try {
            url = resolveRpcUrl(input, chain);
          } catch (err) {
            // Unset is a normal state for a list (shown as '-'); any other failure is reported.
            if (!(err instanceof ProfileError && err.code === 'PROFILE_NOT_CONFIGURED')) throw err;
          }
          return { chain, rpc_url: url === null || opts.showSecrets === true ? url : redactUrl(url), stored: stored[chain] !== undefined };
        });
        out.result({ chains: rows }, () =>
          formatTable(rows, [
            { header: 'CHAIN', value: (r) => r.chain },
            { header: 'RPC URL', value: (r) => r.rpc_url ?? '-' },
            { header: 'STORED', value: (r) => (r.stored ? 'yes' : 'no') },
          ]),
        );
      });
    });
}

