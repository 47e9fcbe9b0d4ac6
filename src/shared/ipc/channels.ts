/**
 * The names of every IPC channel and event, with no schema attached. The preload imports only this
 * module (and types), so the sandboxed preload bundle stays tiny and carries no zod; ./index.ts (the
 * channel table) attaches a request and response schema to each name and the compiler checks the two lists agree.
 *
 * A channel is `group:name`; window.perps exposes it as perps[group][name](request).
 * An event is delivered on the wire channel `event:<name>`; window.perps.on(name, listener) receives it.
 */

export const CHANNEL_NAMES = [
  // app
  'app:getInfo',
  'app:getProfile',
  'app:setProfile',
  // the first screen's reads in one answer (FIRST_SCREEN_READS), asked by the preload as the page is created
  'app:firstScreen',
  // onboarding: the main wallet (custody signer)
  'wallet:current',
  'wallet:chooseKeystoreFile',
  'wallet:connectKeystore',
  'wallet:connectEnv',
  'wallet:connectOffline',
  'wallet:disconnect',
  // onboarding on the simulator: a paper wallet, authorized and funded in one step
  'wallet:createPaper',
  // onboarding: Ledger
  'ledger:listDevices',
  'ledger:listAccounts',
  'ledger:connect',
  // onboarding: Trezor, and the answers to its prompts (PIN positions, passphrase, cancel on the device)
  'trezor:connect',
  'trezor:answerPin',
  'trezor:answerPassphrase',
  'trezor:cancel',
  // answers to main-to-renderer prompts (blind signing, offline signature)
  'prompt:respondBlindSigning',
  'prompt:respondOfflineSignature',
  'prompt:exportSigningRequest',
  'prompt:importSignatureFile',
  // trading keys
  'keys:list',
  'keys:create',
  'keys:review',
  'keys:reviewForeign',
  'keys:authorize',
  'keys:renew',
  'keys:revoke',
  // funding and balance
  'funding:depositInfo',
  'funding:faucet',
  'account:balance',
  'account:health',
  // markets
  'markets:list',
  'markets:candles',
  'markets:book',
  'markets:watchBook',
  // the trades tape of the watched market (advanced execution)
  'markets:watchTrades',
  // orders
  'orders:preview',
  'orders:place',
  'orders:modify',
  'orders:cancel',
  'orders:cancelAll',
  'orders:listOpen',
  'orders:listTriggers',
  // positions
  'positions:list',
  'positions:close',
  'positions:reverse',
  'positions:adjustMargin',
  // position management: close every position, TP/SL on a position (reviewed, then applied)
  'positions:closeAll',
  'positions:previewTpsl',
  'positions:applyTpsl',
  'trail:start',
  'trail:off',
  // history (paged windows for a virtualized table) and CSV export
  'history:orders',
  'history:orderGroups',
  'history:fills',
  'history:funding',
  'history:deposits',
  'history:withdrawals',
  'history:exportCsv',
  // portfolio: figures rebuilt from the service's records, and CSV export of its tables
  'portfolio:get',
  'portfolio:exportCsv',
  'portfolio:cancel',
  // withdrawals
  'withdraw:preview',
  'withdraw:submit',
  'withdraw:list',
  // settings and notification preferences
  'settings:get',
  'settings:set',
  'settings:getAirgap',
  'settings:setAirgap',
  'notifications:get',
  'notifications:set',
  // companion services: URLs, per-chain JSON-RPC, partner code
  'companion:getSettings',
  'companion:setRpcUrl',
  'companion:setPartnerCode',
  'companion:setServiceUrl',
  // the receiver allowlist of bridges and swaps (adding takes a confirmation)
  'companion:listReceivers',
  'companion:addReceiver',
  'companion:confirmReceiver',
  'companion:removeReceiver',
  // bridge funding
  'bridge:tokenInfo',
  'bridge:quote',
  'bridge:send',
  'bridge:track',
  // aggregator swaps
  'swap:quote',
  'swap:execute',
  // bridge and swap transfers in flight and done
  'transfers:list',
  'transfers:dismiss',
  // partner points
  'points:estimate',
  'points:credited',
  // the assistant (off until an inference key is set)
  'assistant:status',
  'assistant:setKey',
  'assistant:clearKey',
  'assistant:models',
  'assistant:setModel',
  'assistant:ask',
  // TWAPs (advanced execution): review, start, progress, and the decisions on interrupted ones
  'twap:preview',
  'twap:start',
  'twap:list',
  'twap:pause',
  'twap:resume',
  'twap:cancel',
  'twap:stop',
  // OCO pairs: review, start, list (with the damaged ones), cancel both legs
  'oco:preview',
  'oco:start',
  'oco:list',
  'oco:cancel',
  // chase orders: review, start, list (with the damaged ones), stop (leave or cancel the live order)
  'chase:preview',
  'chase:start',
  'chase:list',
  'chase:stop',
  // alerts: evaluated by main on the venue's stream; the page lists, adds, removes and drags them
  'alerts:list',
  'alerts:add',
  'alerts:remove',
  'alerts:setLevel',
  // risk limits and panic (issue 39): kept and enforced by main; the page reads and changes them
  'risk:getLimits',
  'risk:setLimits',
  'risk:panic',
  // trade hotkeys (advanced execution): off until enabled; conflicts refused
  'settings:getHotkeys',
  'settings:setHotkeys',
  // simulator prices: simulated, or live from a venue (paper trading on live data)
  'settings:getSimPrices',
  'settings:setSimPrices',
  'settings:getSimFeed',
  // tray mode: closing the window while background work is active keeps the app in the tray (on by default)
  'settings:getTray',
  'settings:setTray',
] as const;

export type ChannelName = (typeof CHANNEL_NAMES)[number];

/**
 * What app:firstScreen answers, part by part: the reads the gate and the Trade view's first frame make
 * whoever is signed in. Each part is that channel's own answer (its value or its error), so one failing
 * read (no wallet yet: keys answer NO_WALLET) does not fail the others.
 */
export const FIRST_SCREEN_READS = {
  wallet: 'wallet:current',
  keys: 'keys:list',
  markets: 'markets:list',
  settings: 'settings:get',
  profile: 'app:getProfile',
  notifications: 'notifications:get',
  appInfo: 'app:getInfo',
  simFeed: 'settings:getSimFeed',
  hotkeys: 'settings:getHotkeys',
} as const satisfies Record<string, ChannelName>;
export type FirstScreenPart = keyof typeof FIRST_SCREEN_READS;

/**
 * Channels the preload asks once as the page is created, before the page's script has loaded: main's
 * answer travels while the script downloads and compiles, and the page's first call of the channel gets
 * it (issue 17: a first start otherwise waits a round trip after the script has run). Reads only, taking
 * no request.
 */
export const PRELOADED_CHANNELS = ['app:firstScreen'] as const satisfies readonly ChannelName[];
export type PreloadedChannel = (typeof PRELOADED_CHANNELS)[number];

/**
 * Main-to-renderer events. The stream events are throttled main-side to at most 10 deliveries a second
 * each, coalesced so the latest value per key wins; the prompt events are requests that need an answer
 * (through a prompt:* channel) and are never coalesced.
 */
export const STREAM_EVENT_NAMES = ['orderStatus', 'fills', 'positions', 'marks', 'withdrawals', 'keyExpiry', 'session', 'transfers', 'book', 'riskWarning', 'twap', 'oco', 'chase', 'trades', 'simFeed', 'alerts', 'alertFired', 'riskLimits', 'panicRequest', 'portfolioProgress'] as const;
export const PROMPT_EVENT_NAMES = ['blindSigningRequest', 'offlineSignatureRequest', 'trezorPrompt'] as const;
export const EVENT_NAMES = [...STREAM_EVENT_NAMES, ...PROMPT_EVENT_NAMES] as const;

export type StreamEventName = (typeof STREAM_EVENT_NAMES)[number];
export type PromptEventName = (typeof PROMPT_EVENT_NAMES)[number];
export type EventName = (typeof EVENT_NAMES)[number];

/** The wire channel an event travels on (what webContents.send and ipcRenderer.on use). */
export function eventWireChannel(name: EventName): `event:${EventName}` {
  return `event:${name}`;
}

/** Splits `group:name` into its two halves (the preload's property path). */
export function splitChannel(channel: ChannelName): [string, string] {
  const i = channel.indexOf(':');
  return [channel.slice(0, i), channel.slice(i + 1)];
}
