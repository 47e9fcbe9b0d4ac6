/**
 * The simulator's companion services: bridge, points, aggregator, inference, per-chain EVM JSON-RPC and
 * their test control. Each is a RouteModule the simulator server mounts under its prefix:
 *   bridge     at {bridge_url} (ends in /v1): /quote, /encode, /bridge/orders
 *   points     at {platform_url}: /v1/point/estimate, /v1/point/leaderboard
 *   aggregator at {aggregator_url} (ends in /v1): /<chain>/swap
 *   inference  at {inference_url}: /v1/chat/completions, /v1/models, /v1/videos[/{id}]
 *   rpc        at any prefix: /<chain> (e.g. /arbitrum) is that chain's JSON-RPC endpoint
 *   control    at /sim/companion: see control/module.ts
 * All time is SimClock time and all randomness comes from the shared SeededRandom, so runs replay.
 */
import { z } from 'zod';
import type { RouteModule } from '../runtime/http.js';
import { SnapshotError } from '../state/snapshotError.js';
import type { SimClock } from '../runtime/clock.js';
import type { SeededRandom } from '../runtime/random.js';
import { resolveCompanionConfig, type CompanionConfig, type CompanionConfigOverrides } from './config.js';
import { Catalog } from './common/catalog.js';
import { RpcService, createRpcModule } from './rpc/module.js';
import { PointsLedger } from './points/ledger.js';
import { createPointsModule } from './points/module.js';
import { BridgeRequests } from './bridge/requests.js';
import { BridgeOrders, type BridgeOrder } from './bridge/orders.js';
import { createBridgeModule } from './bridge/module.js';
import { AggregatorService } from './aggregator/swap.js';
import { createAggregatorModule } from './aggregator/module.js';
import { InferenceService, createInferenceModule } from './inference/module.js';
import { createControlModule } from './control/module.js';
import { companionSnapshotSchema, type CompanionSnapshot } from './snapshot.js';

export { defaultCompanionConfig, resolveCompanionConfig, NATIVE_TOKEN, CHAIN_IDS, PROTOCOL_IDS } from './config.js';
export type { CompanionConfig, CompanionConfigOverrides, ChainConfig, TokenConfig, ProtocolConfig, PartnerConfig, InferenceModelConfig, InferenceKeyConfig } from './config.js';
export type { BridgeOrder } from './bridge/orders.js';
export type { CompanionSnapshot } from './snapshot.js';

export interface CompanionOptions {
  clock: SimClock;
  random: SeededRandom;
  /** A full config or overrides of the defaults (sections replace, object sections merge one level). */
  config?: CompanionConfig | CompanionConfigOverrides;
  /**
   * Called when a bridge order settles (done, refunded or failed). The trading simulator can use it to
   * credit venue_core balances, which live outside the companion services.
   */
  onBridgeOrderFinal?: (order: Readonly<BridgeOrder>) => void;
  /**
   * Most USD the companion control API may set on an inference key (balance, spending limit, spent).
   * The simulator passes its config's control_limits.max_deposit; without it there is no ceiling.
   */
  maxControlUsd?: string;
}

export interface Companions {
  readonly config: CompanionConfig;
  readonly bridge: RouteModule;
  readonly points: RouteModule;
  readonly aggregator: RouteModule;
  readonly inference: RouteModule;
  readonly rpc: RouteModule;
  readonly control: RouteModule;
  snapshot(): CompanionSnapshot;
  restore(s: unknown): void;
}

export function createCompanions(options: CompanionOptions): Companions {
  const { clock, random } = options;
  const config = resolveCompanionConfig(options.config);
  const catalog = new Catalog(config);
  const rpc = new RpcService(catalog, clock);
  const points = new PointsLedger(config, catalog);
  const requests = new BridgeRequests(catalog, clock, random);
  const orders = new BridgeOrders(catalog, clock, random, requests, rpc, points, options.onBridgeOrderFinal);
  const aggregator = new AggregatorService(catalog, clock, random, points);
  const inference = new InferenceService(config, clock, random);

  for (const chain of catalog.evmChains()) {
    const ledger = rpc.ledger(chain.id);
    if (!ledger) throw new Error(`companions: no ledger for ${chain.id}`);
    if (chain.bridgeRouter) ledger.registerContract(chain.bridgeRouter, orders.routerContract(chain.id));
    if (chain.aggregatorRouter) ledger.registerContract(chain.aggregatorRouter, aggregator.routerContract(chain.id));
  }

  return {
    config,
    bridge: createBridgeModule(catalog, requests, orders),
    points: createPointsModule(catalog, points),
    aggregator: createAggregatorModule(aggregator),
    inference: createInferenceModule(inference),
    rpc: createRpcModule(rpc),
    control: createControlModule(catalog, orders, rpc, inference, options.maxControlUsd ?? null),
    snapshot(): CompanionSnapshot {
      return {
        version: 1,
        rpc: rpc.exportState(),
        bridge: { requests: requests.exportState(), orders: orders.exportState() },
        points: points.exportState(),
        aggregator: aggregator.exportState(),
        inference: inference.exportState(),
      };
    },
    restore(s: unknown): void {
      const parsed = companionSnapshotSchema.safeParse(s);
      if (!parsed.success) throw new SnapshotError(`invalid companion snapshot: ${z.prettifyError(parsed.error)}`);
      const snap = parsed.data;
      // Everything is validated before any service is touched, so a bad snapshot changes nothing.
      for (const chain of catalog.evmChains()) if (!snap.rpc[chain.id]) throw new SnapshotError(`companion snapshot has no state for chain ${chain.id}`);
      rpc.importState(snap.rpc);
      requests.importState(snap.bridge.requests);
      orders.importState(snap.bridge.orders);
      points.importState(snap.points);
      aggregator.importState(snap.aggregator);
      inference.importState(snap.inference);
    },
  };
}
