/**
 * The companion screens' channels, each group mapped to its own desk of the open profile (a getter, since
 * the desks change with the profile): companion:* (service and per-chain JSON-RPC URLs, partner code, the
 * receiver allowlist) to the settings desk; bridge:* and transfers:* to the bridge desk; swap:*, points:*
 * and assistant:* to theirs.
 */
import type { AssistantDesk } from '../../app/companion/assistantDesk.js';
import type { BridgeDesk } from '../../app/companion/bridgeDesk.js';
import type { CompanionSettingsDesk } from '../../app/companion/companionSettingsDesk.js';
import type { PointsDesk } from '../../app/companion/pointsDesk.js';
import type { SwapDesk } from '../../app/companion/swapDesk.js';
import type { HandlerGroup } from './types.js';

export function companionHandlers(desk: () => CompanionSettingsDesk): HandlerGroup<'companion'> {
  return {
    'companion:getSettings': async () => desk().view(),
    'companion:setRpcUrl': (r) => desk().setRpcUrl(r),
    'companion:setPartnerCode': async (r) => desk().setPartnerCode(r),
    'companion:setServiceUrl': async (r) => desk().setServiceUrl(r),
    'companion:listReceivers': async () => desk().receivers(),
    'companion:addReceiver': async (r) => desk().addReceiver(r),
    'companion:confirmReceiver': (r) => desk().confirmReceiver(r),
    'companion:removeReceiver': async (r) => desk().removeReceiver(r),
  };
}

export function bridgeHandlers(desk: () => BridgeDesk): HandlerGroup<'bridge'> {
  return {
    'bridge:tokenInfo': (r) => desk().tokenInfo(r),
    'bridge:quote': (r) => desk().quote(r),
    'bridge:send': async (r) => desk().send(r),
    'bridge:track': async (r) => desk().track(r),
  };
}

export function transfersHandlers(desk: () => BridgeDesk): HandlerGroup<'transfers'> {
  return {
    'transfers:list': async () => desk().transfers(),
    'transfers:dismiss': async (r) => desk().dismissTransfer(r),
  };
}

export function swapHandlers(desk: () => SwapDesk): HandlerGroup<'swap'> {
  return {
    'swap:quote': (r) => desk().quote(r),
    'swap:execute': async (r) => desk().execute(r),
  };
}

export function pointsHandlers(desk: () => PointsDesk): HandlerGroup<'points'> {
  return {
    'points:estimate': (r) => desk().estimate(r),
    'points:credited': (r) => desk().credited(r),
  };
}

export function assistantHandlers(desk: () => AssistantDesk): HandlerGroup<'assistant'> {
  return {
    'assistant:status': () => desk().status(),
    'assistant:setKey': (r) => desk().setKey(r),
    'assistant:clearKey': () => desk().clearKey(),
    'assistant:models': () => desk().models(),
    'assistant:setModel': (r) => desk().setModel(r),
    'assistant:ask': (r) => desk().ask(r),
  };
}
