/**
 * Test control for the companion services, mounted under /sim/companion:
 *   POST /bridge/outcome  { src_tx, state } or { next: true, state }  state: done | refunded | failed
 *   POST /rpc/fund        { chain, address, amount, token? }  amount in smallest units (wei without token), at most uint256
 *   POST /inference/keys  { key, balance?, disabled?, deleted?, spendingLimit?, spent?, rateLimit? }  USD amounts at most maxUsd
 *   POST /inference/hosts { model, host, up, failure? }  failure: unreachable (default) | error | partial
 * Errors: 400 `{ error }` for a bad body, 404 for an unknown model or host, 409 for forcing a settled order;
 * 403 or 415 for a request that is not from a local program (../../control/localOnly.ts).
 */
import { z } from 'zod';
import { DECIMAL_TEXT, Decimal } from '../../../shared/decimal/index.js';
import type { RouteModule, SimRequest, SimResponse } from '../../runtime/http.js';
import { json } from '../../runtime/http.js';
import type { Catalog } from '../common/catalog.js';
import { isEvmAddress } from '../common/evm.js';
import type { BridgeOrders } from '../bridge/orders.js';
import type { RpcService } from '../rpc/module.js';
import type { InferenceService } from '../inference/module.js';
import { localOnlyRefusal } from '../../control/localOnly.js';

const finalState = z.enum(['done', 'refunded', 'failed']);
const outcomeBody = z.union([
  z.strictObject({ src_tx: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'src_tx must be a transaction hash'), state: finalState }),
  z.strictObject({ next: z.literal(true), state: finalState }),
]);
const address = z.string().refine(isEvmAddress, 'expected an address');
/** The largest amount an EVM balance can hold (uint256); the length check comes first so no huge string is parsed. */
const UINT256_MAX = 2n ** 256n - 1n;
const INTEGER = /^(0|[1-9]\d*)$/;
const fundAmount = z
  .string()
  .regex(INTEGER, 'amount must be an integer string in smallest units')
  // zod runs every check, so a non-integer (already refused above) must not reach BigInt here.
  .refine((s) => !INTEGER.test(s) || (s.length <= UINT256_MAX.toString().length && BigInt(s) <= UINT256_MAX), `amount must be at most ${UINT256_MAX} (uint256)`);
const fundBody = z.strictObject({ chain: z.string(), address, amount: fundAmount, token: address.optional() });
const USD = DECIMAL_TEXT;
/** A USD amount, at most maxUsd when the simulator gives one (its control_limits.max_deposit). */
function usdAmount(maxUsd: string | null) {
  const usd = z.string().regex(USD, 'expected a non-negative decimal string');
  if (maxUsd === null) return usd;
  // zod runs every check, so a malformed amount (already refused above) is not parsed here.
  return usd.refine((s) => !USD.test(s) || !new Decimal(s).gt(maxUsd), `must be at most ${maxUsd} USD (control_limits.max_deposit of the simulator config)`);
}
function keyBodyOf(maxUsd: string | null) {
  const usd = usdAmount(maxUsd);
  return z.strictObject({
    key: z.string().min(8),
    balance: usd.optional(),
    disabled: z.boolean().optional(),
    deleted: z.boolean().optional(),
    spendingLimit: usd.nullable().optional(),
    spent: usd.optional(),
    rateLimit: z.strictObject({ max: z.number().int().positive(), windowMs: z.number().int().positive() }).nullable().optional(),
  });
}
const hostBody = z.strictObject({ model: z.string(), host: z.string(), up: z.boolean(), failure: z.enum(['unreachable', 'error', 'partial']).optional() });

function parse<T>(schema: z.ZodType<T>, req: SimRequest): T | SimResponse {
  if (req.bodyError) return json(400, { error: `invalid body: ${req.bodyError}` });
  const r = schema.safeParse(req.body);
  if (!r.success) return json(400, { error: z.prettifyError(r.error) });
  return r.data;
}

function isResponse(v: unknown): v is SimResponse {
  return typeof v === 'object' && v !== null && 'status' in v && 'body' in v && typeof (v as SimResponse).status === 'number';
}

export function createControlModule(catalog: Catalog, orders: BridgeOrders, rpc: RpcService, inference: InferenceService, maxUsd: string | null): RouteModule {
  const keyBody = keyBodyOf(maxUsd);
  return {
    handle(req: SimRequest): SimResponse | null {
      const refusal = localOnlyRefusal(req);
      if (refusal) return json(refusal.status, { error: refusal.message });
      if (req.method !== 'POST') return null;
      switch (req.path) {
        case '/bridge/outcome': {
          const b = parse(outcomeBody, req);
          if (isResponse(b)) return b;
          const r = 'next' in b ? orders.force({ next: true }, b.state) : orders.force({ srcTx: b.src_tx }, b.state);
          if (r === 'final') return json(409, { error: 'the order of that src_tx has already settled' });
          return json(200, { ok: true });
        }
        case '/rpc/fund': {
          const b = parse(fundBody, req);
          if (isResponse(b)) return b;
          const chain = catalog.chain(b.chain);
          if (!chain || chain.evmChainId === null) return json(400, { error: `chain: no EVM chain ${b.chain}` });
          if (b.token !== undefined) {
            const t = catalog.token(b.chain, b.token);
            if (!t || t.kind === 'native') return json(400, { error: `token: no ERC-20 ${b.token} on ${b.chain}` });
          }
          const balance = rpc.fund(b.chain, b.address, BigInt(b.amount), b.token);
          return json(200, { ok: true, balance: balance.toString() });
        }
        case '/inference/keys': {
          const b = parse(keyBody, req);
          if (isResponse(b)) return b;
          const k = inference.keys.upsert(b);
          return json(200, { ok: true, key: inference.keys.view(k) });
        }
        case '/inference/hosts': {
          const b = parse(hostBody, req);
          if (isResponse(b)) return b;
          if (!inference.hosts.has(b.model, b.host)) return json(404, { error: `no host ${b.host} for model ${b.model}` });
          inference.hosts.set(b.model, b.host, { up: b.up, failure: b.failure ?? 'unreachable' });
          return json(200, { ok: true });
        }
        default:
          return null;
      }
    },
  };
}
