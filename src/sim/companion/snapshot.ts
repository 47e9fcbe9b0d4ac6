/**
 * Schema of the companion services' saved state. restore() takes `unknown` (a file the user may have
 * edited or one from another version), so it is validated in full before anything is replaced.
 */
import { z } from 'zod';
import { SIGNED_DECIMAL_TEXT } from '../../shared/decimal/decimal.js';
import { CHAIN_IDS, PROTOCOL_IDS } from './config.js';

const uint = z.string().regex(/^(0|[1-9]\d*)$/);
const dec = z.string().regex(SIGNED_DECIMAL_TEXT);
const hex32 = z.string().regex(/^0x[0-9a-f]{64}$/);
const chainId = z.enum(CHAIN_IDS);
const finalState = z.enum(['done', 'refunded', 'failed']);

const ledgerState = z.strictObject({
  genesisMs: z.number(),
  lastMined: z.number().int(),
  balances: z.record(z.string(), uint),
  tokenBalances: z.record(z.string(), uint),
  allowances: z.record(z.string(), uint),
  nonces: z.record(z.string(), z.number().int().nonnegative()),
  txs: z.array(
    z.strictObject({
      raw: z.string(),
      hash: hex32,
      from: z.string(),
      blockNumber: z.number().int(),
      status: z.union([z.literal(0), z.literal(1)]),
      gasUsed: uint,
      effectiveGasPrice: uint,
      revertReason: z.string().nullable(),
    }),
  ),
  blocks: z.array(z.strictObject({ number: z.number().int(), hash: hex32, parentHash: hex32, timestamp: z.number().int(), txs: z.array(hex32), gasUsed: uint })),
});

const storedRoute = z.strictObject({ protocol: z.enum(PROTOCOL_IDS), amountOut: uint, minAmountOut: uint, etaSeconds: z.number().int().nonnegative() });
const txShape = z.strictObject({ to: z.string(), value: uint, data: z.string() });

const requestsState = z.strictObject({
  quotes: z.array(
    z.strictObject({
      id: z.string(),
      createdAt: z.number(),
      expiresAt: z.number(),
      fromChain: chainId,
      toChain: chainId,
      fromToken: z.string(),
      toToken: z.string(),
      amount: uint,
      sender: z.string(),
      receiver: z.string(),
      source: z.string().nullable(),
      routes: z.array(storedRoute),
    }),
  ),
  encoded: z.array(
    z.strictObject({
      id: z.string(),
      quoteId: z.string(),
      quoteIdx: z.number().int().nonnegative(),
      createdAt: z.number(),
      orderRef: hex32,
      fromChain: chainId,
      toChain: chainId,
      fromToken: z.string(),
      toToken: z.string(),
      amount: uint,
      sender: z.string(),
      receiver: z.string(),
      source: z.string().nullable(),
      route: storedRoute,
      tx: txShape,
      usedBy: hex32.nullable(),
    }),
  ),
});

const ordersState = z.strictObject({
  orders: z.array(
    z.strictObject({
      id: z.string(),
      srcTx: hex32,
      requestId: z.string(),
      protocol: z.string(),
      fromChain: z.string(),
      toChain: z.string(),
      fromToken: z.string(),
      toToken: z.string(),
      amountIn: uint,
      amountOut: uint,
      sender: z.string(),
      receiver: z.string(),
      source: z.string().nullable(),
      state: z.enum(['pending', 'done', 'refunded', 'failed']),
      createdAt: z.number(),
      dueAt: z.number(),
      updatedAt: z.number(),
      forced: finalState.nullable(),
      dstTx: z.string().nullable(),
      refund: z.strictObject({ chain: z.string(), tokens: z.array(z.strictObject({ token: z.string(), symbol: z.string(), amount: uint })) }).nullable(),
      failureReason: z.string().nullable(),
    }),
  ),
  forcedNext: z.array(finalState),
  forcedByTx: z.record(z.string(), finalState),
});

const pointsState = z.array(
  z.strictObject({
    id: z.string(),
    kind: z.enum(['bridge', 'swap']),
    ref: z.string(),
    user: z.string(),
    at: z.number(),
    srcChain: z.string(),
    dstChain: z.string(),
    srcUsd: dec,
    dstUsd: dec,
    point: dec,
    partnerCode: z.string().nullable(),
    partnerBonus: dec,
  }),
);

const swapsState = z.array(
  z.strictObject({
    quoteId: hex32,
    chain: z.string(),
    tokenIn: z.string(),
    tokenOut: z.string(),
    amountIn: uint,
    amountOut: uint,
    minAmountOut: uint,
    receiver: z.string(),
    source: z.string().nullable(),
    createdAt: z.number(),
    deadline: z.number().int(),
    tx: txShape,
    executedBy: hex32.nullable(),
  }),
);

const rateLimit = z.strictObject({ max: z.number().int().positive(), windowMs: z.number().int().positive() });
const inferenceState = z.strictObject({
  keys: z.array(
    z.strictObject({
      key: z.string(),
      balance: dec,
      disabled: z.boolean(),
      deleted: z.boolean(),
      spendingLimit: dec.nullable(),
      spent: dec,
      periodStart: z.number(),
      rateLimit: rateLimit.nullable(),
      recent: z.array(z.number()),
    }),
  ),
  hosts: z.strictObject({
    hosts: z.record(z.string(), z.strictObject({ up: z.boolean(), failure: z.enum(['unreachable', 'error', 'partial']) })),
    cursors: z.record(z.string(), z.number().int().nonnegative()),
  }),
  videos: z.array(
    z.strictObject({
      id: z.string(),
      key: z.string(),
      model: z.string(),
      prompt: z.string(),
      seconds: z.number().int().positive(),
      size: z.string(),
      host: z.string(),
      createdAt: z.number(),
      completeAt: z.number(),
    }),
  ),
});

export const companionSnapshotSchema = z.strictObject({
  version: z.literal(1),
  rpc: z.record(z.string(), ledgerState),
  bridge: z.strictObject({ requests: requestsState, orders: ordersState }),
  points: pointsState,
  aggregator: swapsState,
  inference: inferenceState,
});

export type CompanionSnapshot = z.infer<typeof companionSnapshotSchema>;
