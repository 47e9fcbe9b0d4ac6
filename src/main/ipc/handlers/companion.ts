/**
 * The companion screens' channels: companion:* (service and per-chain JSON-RPC URLs, partner code),
 * bridge:*, swap:*, transfers:*, points:* and assistant:*, each mapped to the open profile's CompanionDesk.
 */
import type { AppCore } from '../../app/appCore.js';
import type { HandlerGroup } from './types.js';

export function companionHandlers(core: AppCore): HandlerGroup<'companion'> {
  return {
    'companion:getSettings': async () => core.companion().settingsView(),
    'companion:setRpcUrl': (r) => core.companion().setRpcUrl(r),
    'companion:setPartnerCode': async (r) => core.companion().setPartnerCode(r),
    'companion:setServiceUrl': async (r) => core.companion().setServiceUrl(r),
  };
}

export function bridgeHandlers(core: AppCore): HandlerGroup<'bridge'> {
  return {
    'bridge:tokenInfo': (r) => core.companion().tokenInfo(r),
    'bridge:quote': (r) => core.companion().bridgeQuote(r),
    'bridge:send': async (r) => core.companion().bridgeSend(r),
    'bridge:track': async (r) => core.companion().bridgeTrack(r),
  };
}

export function swapHandlers(core: AppCore): HandlerGroup<'swap'> {
  return {
    'swap:quote': (r) => core.companion().swapQuote(r),
    'swap:execute': async (r) => core.companion().swapExecute(r),
  };
}

export function transfersHandlers(core: AppCore): HandlerGroup<'transfers'> {
  return {
    'transfers:list': async () => core.companion().transfers(),
    'transfers:dismiss': async (r) => core.companion().dismissTransfer(r),
  };
}

export function pointsHandlers(core: AppCore): HandlerGroup<'points'> {
  return {
    'points:estimate': (r) => core.companion().pointsEstimate(r),
    'points:credited': (r) => core.companion().creditedPoints(r),
  };
}

export function assistantHandlers(core: AppCore): HandlerGroup<'assistant'> {
  return {
    'assistant:status': () => core.companion().assistantStatus(),
    'assistant:setKey': (r) => core.companion().setInferenceKey(r),
    'assistant:clearKey': () => core.companion().clearInferenceKey(),
    'assistant:models': () => core.companion().assistantModels(),
    'assistant:setModel': (r) => core.companion().setAssistantModel(r),
    'assistant:ask': (r) => core.companion().ask(r),
  };
}
