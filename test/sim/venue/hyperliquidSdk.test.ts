/**
 * The paper venue speaks Hyperliquid exactly (issue 29, item 4): an independently written client, the
 * `@nktkas/hyperliquid` SDK, runs against the simulator on loopback for every info type and channel the
 * simulator serves, over HTTP and over the WebSocket's `post` request, and every answer is checked
 * against the SDK's published response types.
 *
 * The SDK publishes its responses as TypeScript types (its valibot schemas cover requests only), so
 * each answer is validated at run time by a strict zod schema that is declared as `z.ZodType<SdkType>`:
 * the type checker proves the schema never accepts what the SDK's type would not (a field the SDK
 * requires and the schema lacks, or a wrong type, fails `npm run typecheck`), and `.strict` objects
 * refuse any field the SDK does not know, so no bot can come to depend on a simulator-only field.
 * The `@pattern` annotations of the SDK's types are the schemas' regexes.
 */
import { WebSocket as WsWebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { HttpTransport, InfoClient, SubscriptionClient, WebSocketTransport } from '@nktkas/hyperliquid';
import type {
  AllMidsResponse,
  CandleSnapshotResponse,
  FundingHistoryResponse,
  L2BookResponse,
  MetaAndAssetCtxsResponse,
  MetaResponse,
  PredictedFundingsResponse,
  RecentTradesResponse,
} from '@nktkas/hyperliquid/api/info';
import type { ActiveAssetCtxEvent, AllMidsEvent, CandleEvent, L2BookEvent, TradesEvent } from '@nktkas/hyperliquid/api/subscription';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';

// The SDK's WebSocket transport needs a global WebSocket (Node 22 has one; Node 20 only behind
// --experimental-websocket). The `ws` package's WebSocket implements the same interface.
(globalThis as { WebSocket?: unknown }).WebSocket ??= WsWebSocket;

const unsigned = z.string().regex(/^[0-9]+(\.[0-9]+)?$/);
const signed = z.string().regex(/^-?[0-9]+(\.[0-9]+)?$/);
const hash = z.string().regex(/^0x[a-fA-F0-9]{64}$/) as unknown as z.ZodType<`0x${string}`>;
const address = z.string().regex(/^0x[a-fA-F0-9]{40}$/) as unknown as z.ZodType<`0x${string}`>;
const interval = z.enum(['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '8h', '12h', '1d', '3d', '1w', '1M']);

const marginTable = z.strictObject({
  description: z.string(),
  marginTiers: z.array(z.strictObject({ lowerBound: unsigned, maxLeverage: z.number().int().positive() })).min(1),
});
const metaSchema: z.ZodType<MetaResponse> = z.strictObject({
  universe: z.array(
    z.strictObject({
      szDecimals: z.number().int().nonnegative(),
      name: z.string().min(1),
      maxLeverage: z.number().int().positive(),
      marginTableId: z.number().int().nonnegative(),
      onlyIsolated: z.literal(true).optional(),
      isDelisted: z.literal(true).optional(),
    }),
  ),
  marginTables: z.array(z.tuple([z.number().int().nonnegative(), marginTable])),
  collateralToken: z.number().int().nonnegative(),
});
const perpAssetCtx = z.strictObject({
  prevDayPx: unsigned,
  dayNtlVlm: unsigned,
  markPx: unsigned,
  midPx: unsigned.nullable(),
  funding: signed,
  openInterest: unsigned,
  premium: signed.nullable(),
  oraclePx: unsigned,
  impactPxs: z.tuple([unsigned, unsigned]).nullable(),
  dayBaseVlm: unsigned,
});
const metaAndAssetCtxsSchema: z.ZodType<MetaAndAssetCtxsResponse> = z.tuple([metaSchema, z.array(perpAssetCtx)]);
const allMidsSchema: z.ZodType<AllMidsResponse> = z.record(z.string(), unsigned);
const level = z.strictObject({ px: unsigned, sz: unsigned, n: z.number().int().positive() });
const bookSchema = z.strictObject({ coin: z.string(), time: z.number().int(), levels: z.tuple([z.array(level), z.array(level)]), spread: unsigned.optional() });
const l2BookSchema: z.ZodType<L2BookResponse> = bookSchema.nullable();
const candleSchema = z.strictObject({
  t: z.number().int(),
  T: z.number().int(),
  s: z.string(),
  i: interval,
  o: unsigned,
  c: unsigned,
  h: unsigned,
  l: unsigned,
  v: unsigned,
  n: z.number().int().nonnegative(),
});
const candleSnapshotSchema: z.ZodType<CandleSnapshotResponse> = z.array(candleSchema);
const fundingHistorySchema: z.ZodType<FundingHistoryResponse> = z.array(
  z.strictObject({ coin: z.string(), fundingRate: signed, premium: signed, time: z.number().int() }),
);
const predictedFundingsSchema: z.ZodType<PredictedFundingsResponse> = z.array(
  z.tuple([
    z.string(),
    z.array(
      z.tuple([
        z.string(),
        z.strictObject({ fundingRate: signed, nextFundingTime: z.number().int(), fundingIntervalHours: z.number().int().positive().optional() }).nullable(),
      ]),
    ),
  ]),
);
const trade = z.strictObject({
  coin: z.string(),
  side: z.enum(['B', 'A']),
  px: unsigned,
  sz: unsigned,
  time: z.number().int(),
  hash,
  tid: z.number().int(),
  users: z.tuple([address, address]),
});
const recentTradesSchema: z.ZodType<RecentTradesResponse> = z.array(trade);

const allMidsEvent: z.ZodType<AllMidsEvent> = z.strictObject({ mids: allMidsSchema, dex: z.string().optional() });
const l2BookEvent: z.ZodType<L2BookEvent> = bookSchema.extend({ fast: z.literal(true).optional() }).strict();
const tradesEvent: z.ZodType<TradesEvent> = z.array(trade).min(1);
const candleEvent: z.ZodType<CandleEvent> = candleSchema;
const activeAssetCtxEvent: z.ZodType<ActiveAssetCtxEvent> = z.strictObject({ coin: z.string(), ctx: perpAssetCtx });

/** Parses with the schema and fails the test with zod's account of what differs. */
function conforms<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) expect.fail(`${z.prettifyError(parsed.error)}\n${JSON.stringify(value).slice(0, 400)}`);
  return parsed.data;
}

/** Significant figures of a decimal string (trailing zeros of an integer part do not count). */
function sigFigs(px: string): number {
  const digits = px.replace('.', '').replace(/^0+/, '');
  return (px.includes('.') ? digits : digits.replace(/0+$/, '')).length;
}

let sim: RunningSimulator;
let apiUrl: string;

beforeAll(async () => {
  // A 100 ms walk so the channels publish several updates within a test.
  sim = await startSimulator({ port: 0, seed: 29, config: { timings: { venue_tick_ms: 100 } } });
  // The SDK resolves '<apiUrl>/info'; the simulator serves the venue's info API at /venue/info.
  apiUrl = sim.urls.venue_info_url.replace(/info$/, '');
});
afterAll(async () => {
  await sim.stop();
});

/** Every info request the simulator serves, with the SDK's call and the schema of its answer. */
function infoCalls(info: InfoClient): { name: string; call: () => Promise<unknown>; schema: z.ZodType<unknown> }[] {
  const now = Date.now();
  return [
    { name: 'meta', call: () => info.meta(), schema: metaSchema },
    { name: 'metaAndAssetCtxs', call: () => info.metaAndAssetCtxs(), schema: metaAndAssetCtxsSchema },
    { name: 'allMids', call: () => info.allMids(), schema: allMidsSchema },
    { name: 'l2Book', call: () => info.l2Book({ coin: 'BTC' }), schema: l2BookSchema },
    { name: 'l2Book nSigFigs 3', call: () => info.l2Book({ coin: 'ETH', nSigFigs: 3 }), schema: l2BookSchema },
    { name: 'l2Book nSigFigs 5 mantissa 5', call: () => info.l2Book({ coin: 'BTC', nSigFigs: 5, mantissa: 5 }), schema: l2BookSchema },
    { name: 'l2Book unknown coin', call: () => info.l2Book({ coin: 'NOPE' }), schema: l2BookSchema },
    { name: 'candleSnapshot', call: () => info.candleSnapshot({ coin: 'BTC', interval: '1m', startTime: now - 3_600_000 }), schema: candleSnapshotSchema },
    { name: 'fundingHistory', call: () => info.fundingHistory({ coin: 'ETH', startTime: now - 86_400_000 }), schema: fundingHistorySchema },
    { name: 'predictedFundings', call: () => info.predictedFundings(), schema: predictedFundingsSchema },
    { name: 'recentTrades', call: () => info.recentTrades({ coin: 'SOL' }), schema: recentTradesSchema },
  ];
}

describe('the @nktkas/hyperliquid SDK against the paper venue', () => {
  it('InfoClient over HTTP: every info type answers in the SDK response type', async () => {
    // Once the walk has printed trades on SOL, recentTrades has something to check (bounded, polled).
    for (let i = 0; sim.venue.recentTrades('SOL').length === 0; i++) {
      if (i > 500) throw new Error('the walk printed no SOL trade within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const info = new InfoClient({ transport: new HttpTransport({ apiUrl, timeout: 5_000 }) });
    for (const { name, call, schema } of infoCalls(info)) {
      const answer = conforms(schema, await call());
      expect(answer, name).not.toBeUndefined();
    }
    const meta = conforms(metaSchema, await info.meta());
    // Every asset's margin table is listed, and its first tier carries the asset's maximum leverage.
    const tables = new Map(meta.marginTables);
    for (const asset of meta.universe) {
      const table = tables.get(asset.marginTableId);
      expect(table, asset.name).toBeDefined();
      expect(table!.marginTiers[0]).toEqual({ lowerBound: '0.0', maxLeverage: asset.maxLeverage });
    }
    expect(meta.collateralToken).toBe(0);
    // The HTTP answer is the simulator's own list: compared with the list read right after it, again
    // when the walk printed a trade in between (wall clock here; a loaded machine widens the gap).
    let trades = conforms(recentTradesSchema, await info.recentTrades({ coin: 'SOL' }));
    let direct = sim.venue.recentTrades('SOL');
    for (let i = 0; i < 5 && JSON.stringify(trades) !== JSON.stringify(direct); i++) {
      trades = conforms(recentTradesSchema, await info.recentTrades({ coin: 'SOL' }));
      direct = sim.venue.recentTrades('SOL');
    }
    expect(trades.length).toBeGreaterThan(0);
    expect(trades).toEqual(direct);
    const predicted = conforms(predictedFundingsSchema, await info.predictedFundings());
    expect(predicted.map(([coin]) => coin)).toEqual(sim.venue.symbols());
  });

  it('l2Book honours nSigFigs and mantissa', async () => {
    const info = new InfoClient({ transport: new HttpTransport({ apiUrl, timeout: 5_000 }) });
    for (const nSigFigs of [2, 3, 4, 5] as const) {
      const book = conforms(l2BookSchema, await info.l2Book({ coin: 'BTC', nSigFigs }));
      for (const side of book!.levels) for (const { px } of side) expect(sigFigs(px), `${px} at ${nSigFigs}`).toBeLessThanOrEqual(nSigFigs);
    }
    for (const mantissa of [2, 5] as const) {
      const book = conforms(l2BookSchema, await info.l2Book({ coin: 'BTC', nSigFigs: 5, mantissa }));
      // BTC near 97,000 at 5 figures steps by 1; a mantissa of 2 or 5 steps by 2 or 5.
      for (const side of book!.levels) for (const { px } of side) expect(Number(px) % mantissa, `${px} at mantissa ${mantissa}`).toBe(0);
    }
  });

  it('InfoClient over the WebSocket post request: the same answers, and ping is answered', async () => {
    const transport = new WebSocketTransport({ url: sim.urls.venue_ws_url, timeout: 5_000 });
    try {
      await transport.ready();
      const info = new InfoClient({ transport });
      for (const { name, call, schema } of infoCalls(info)) {
        const answer = conforms(schema, await call());
        expect(answer, name).not.toBeUndefined();
      }
      // An unknown info type is refused under the request's id, not left to time out.
      await expect(transport.request('info', { type: 'clearinghouseStateOfNobody' })).rejects.toThrow(/unknown variant/);
      // The SDK's keep-alive: {method: 'ping'} answered by {channel: 'pong'} on the same socket.
      const pong = new Promise<unknown>((resolve) =>
        transport.socket.addEventListener('message', (event) => {
          const msg = JSON.parse(String((event as MessageEvent).data)) as { channel?: string };
          if (msg.channel === 'pong') resolve(msg);
        }),
      );
      transport.socket.send(JSON.stringify({ method: 'ping' }));
      expect(await pong).toEqual({ channel: 'pong' });
    } finally {
      await transport.close();
    }
  });

  it('SubscriptionClient: every channel is confirmed (the echo matches what the SDK sent) and its events have the SDK type', async () => {
    const transport = new WebSocketTransport({ url: sim.urls.venue_ws_url, timeout: 5_000 });
    try {
      const subs = new SubscriptionClient({ transport });
      const seen = new Map<string, number>();
      const collect =
        <T>(name: string, schema: z.ZodType<T>) =>
        (event: unknown): void => {
          conforms(schema, event);
          seen.set(name, (seen.get(name) ?? 0) + 1);
        };
      // Each call resolves only once the venue's subscriptionResponse echoes the subscription as sent
      // (the SDK sends l2Book with nSigFigs: null and mantissa: null and matches on those keys).
      const handles = [
        await subs.allMids(collect('allMids', allMidsEvent)),
        await subs.l2Book({ coin: 'BTC' }, collect('l2Book', l2BookEvent)),
        await subs.l2Book({ coin: 'ETH', nSigFigs: 5, mantissa: 2 }, collect('l2Book aggregated', l2BookEvent)),
        await subs.trades({ coin: 'SOL' }, collect('trades', tradesEvent)),
        await subs.candle({ coin: 'BTC', interval: '1m' }, collect('candle', candleEvent)),
        await subs.activeAssetCtx({ coin: 'ETH' }, collect('activeAssetCtx', activeAssetCtxEvent)),
      ];
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline && [...seen.values()].filter((n) => n >= 2).length < 6) await new Promise((r) => setTimeout(r, 50));
      expect(Object.fromEntries(seen)).toEqual({
        allMids: expect.any(Number),
        l2Book: expect.any(Number),
        'l2Book aggregated': expect.any(Number),
        trades: expect.any(Number),
        candle: expect.any(Number),
        activeAssetCtx: expect.any(Number),
      });
      for (const [name, count] of seen) expect(count, name).toBeGreaterThanOrEqual(2);
      // Unsubscribing is confirmed the same way.
      for (const handle of handles) await handle.unsubscribe();
    } finally {
      await transport.close();
    }
  });
});
