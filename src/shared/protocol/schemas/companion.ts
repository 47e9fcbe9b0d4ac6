/** Companion interfaces: bridge quotes and tracking, points. */
import { z } from 'zod';
import { BRIDGE_ORDER_STATES } from '../statuses.js';
import { integerString } from './common.js';

export const NATIVE_TOKEN_PLACEHOLDER = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';

/** The spec's lowercase bridge chain ids (Bridge API > Chain ids). */
export const BRIDGE_CHAIN_IDS = ['ethereum', 'arbitrum', 'optimism', 'base', 'unichain', 'flare', 'plasma', 'venue_evm', 'venue_core'] as const;
export type BridgeChainId = (typeof BRIDGE_CHAIN_IDS)[number];

/** The spec's bridge protocol ids (Bridge API > Protocol ids). */
export const BRIDGE_PROTOCOL_IDS = [
  'rail_canonical',
  'rail_native_assets',
  'rail_fast',
  'rail_size',
  'rail_gas',
  'core_bridge',
  'core_spot_swap',
  'swap_evm',
  'swap_aggregator',
  'swap_wrap',
] as const;
export type BridgeProtocolId = (typeof BRIDGE_PROTOCOL_IDS)[number];

export const BridgeQuoteElementSchema = z.looseObject({
  amountOut: integerString,
  crossProtocol: z.looseObject({ id: z.string() }),
});
export type BridgeQuoteElement = z.infer<typeof BridgeQuoteElementSchema>;

export const BridgeQuoteResponseSchema = z.object({
  requestId: z.string().optional(),
  data: z.array(BridgeQuoteElementSchema),
});
export type BridgeQuoteResponse = z.infer<typeof BridgeQuoteResponseSchema>;

export const BridgeEncodeResponseSchema = z.object({
  status: z.literal('ok'),
  data: z.object({ to: z.string(), value: z.string(), data: z.string() }),
  requestId: z.string(),
});
export type BridgeEncodeResponse = z.infer<typeof BridgeEncodeResponseSchema>;

export const BridgeOrdersSchema = z.object({ orders: z.array(z.looseObject({ state: z.enum(BRIDGE_ORDER_STATES) })) });
export type BridgeOrders = z.infer<typeof BridgeOrdersSchema>;

export const BridgeErrorSchema = z.object({ error: z.string() });

export const PointsEstimateSchema = z.object({ point: z.number(), partnerBonus: z.number() });
export type PointsEstimate = z.infer<typeof PointsEstimateSchema>;

export const PointsLeaderboardSchema = z.looseObject({
  total: z.looseObject({ point: z.number(), pointPartnerBonuses: z.record(z.string(), z.number()).optional() }),
});
export type PointsLeaderboard = z.infer<typeof PointsLeaderboardSchema>;

export const InferenceErrorSchema = z.object({
  error: z.object({ message: z.string(), type: z.string().optional(), code: z.string().nullable().optional() }),
});
