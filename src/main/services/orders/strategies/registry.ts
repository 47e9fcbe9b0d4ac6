/**
 * Every order kind the desk can place, one strategy each. Adding a kind: its intent schema in
 * src/shared/orders/intents.ts, its strategy file here, and one line below.
 */
import type { OrderIntent, OrderKind } from '../../../../shared/orders/intents.js';
import { bracketStrategy } from './bracket.js';
import { scaleStrategy } from './scale.js';
import { singleStrategy } from './single.js';
import type { OrderStrategy } from './strategy.js';

const STRATEGIES: { readonly [K in OrderKind]: OrderStrategy<Extract<OrderIntent, { kind: K }>> } = {
  single: singleStrategy,
  bracket: bracketStrategy,
  scale: scaleStrategy,
};

export function strategyFor<K extends OrderKind>(kind: K): OrderStrategy<Extract<OrderIntent, { kind: K }>> {
  return STRATEGIES[kind];
}

export const ORDER_KINDS = Object.keys(STRATEGIES) as OrderKind[];
