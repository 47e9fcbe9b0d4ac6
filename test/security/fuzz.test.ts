/**
 * Fuzzing the IPC boundary: arbitrary payloads (random values, objects built from the contract's field
 * names with hostile values, prototype-pollution shapes) sent to EVERY channel through the real
 * registerHandlers, backed by a real AppCore on the sim profile with a main wallet connected. Every call
 * must answer an IpcResult: a success, or a typed error that is never INTERNAL (INTERNAL means an
 * exception nobody anticipated). Nothing may crash, reject unhandled, or pollute Object.prototype, and
 * untrusted frames are refused whatever they send.
 */
import fc from 'fast-check';
import { Wallet } from 'ethers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL_NAMES, IpcErrorSchema, type ChannelName, type IpcResult } from '../../src/shared/ipc.js';
import { fakeUsb } from '../support/trezor/fakeUsb.js';
import { AppHarness } from '../integration/app/appHarness.js';

/** Every field name the contract's requests use, plus a few hostile ones. */
const FIELD_NAMES = [
  'amount', 'market', 'side', 'order_type', 'size', 'limit_price', 'time_in_force', 'reduce_only', 'leverage', 'slippage_bps', 'trigger', 'trigger_price', 'tpsl',
  'bracket', 'tp', 'sl', 'order', 'preview_id', 'review_id', 'order_id', 'price', 'agent', 'action', 'expires_in_days', 'name', 'profile', 'mainnet', 'base_url',
  'venue_info_url', 'venue_ws_url', 'address', 'variable', 'file_token', 'password', 'forget', 'device_id', 'scheme', 'start', 'count', 'path', 'prompt_id', 'accept',
  'signature', 'cancel', 'offset', 'limit', 'kind', 'interval', 'start_time', 'end_time', 'default_slippage_bps', 'default_leverage', 'confirm_orders',
  'key_expiry_warning_days', 'theme', 'palette', 'fills', 'trigger_fires', 'withdrawals', 'key_expiry', 'liquidation_warning_pct', 'liquidation_warning', 'chain', 'url', 'code', 'service', 'token', 'from_chain', 'to_chain',
  'from_token', 'to_token', 'decimals', 'protocols', 'receiver', 'source_usd_value', 'quote_id', 'quote_idx', 'points_usd', 'src', 'dst', 'src_tx', 'id', 'token_in',
  'token_out', 'slippage', 'src_chain', 'dst_chain', 'src_token', 'dst_token', 'src_usd', 'dst_usd', 'from', 'to', 'api_key', 'model', 'question', 'n_sig_figs', 'fingerprint', 'label', 'confirmation_id', 'percent', 'confirm', 'max_order_notional', 'total_size', 'duration_s', 'slices', 'randomize_time_pct', 'randomize_size_pct', 'enabled', 'bindings', 'market_buy', 'cancel_all', 'info_url', 'range', 'table', 'keep_running_in_tray', 'limits', 'daily_loss', 'max_drawdown', 'max_leverage', 'reset_time', 'cooldown', 'end_lockout', '__proto__', 'constructor', 'prototype', 'toString',
] as const;

const leaf = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.bigInt().map(String),
  fc.constantFrom(
    '0', '1', '-1', '0.5', '.5', '1e9', '1e-9', 'NaN', 'Infinity', '9'.repeat(80), 'ETH', 'BTC', 'kPEPE', 'sim', 'mainnet', 'MARKET', 'LIMIT', 'TRIGGER', 'BUY', 'SELL',
    'GTC', 'ALO', 'TP', 'SL', 'authorize', 'revoke', 'renew', 'orders', 'fills', '1m', '1d', 'all', 'points', 'days', 'ledger-live', "m/44'/60'/0'/0/0", '0x' + 'a'.repeat(40), '0x' + '0'.repeat(130),
    'http://127.0.0.1:1/api/v1', 'file:///etc/passwd', '../../etc/passwd', 'javascript:alert(1)', '<script>', 'A'.repeat(5000),
  ),
);

const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.constantFrom(...FIELD_NAMES), tie('value'), { maxKeys: 4 })),
}));

const payload = fc.oneof(
  fc.anything(),
  fc.jsonValue(),
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), value, { maxKeys: 6 }),
  fc.constant(JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}') as unknown),
  fc.constant(undefined),
);

/** A valid request per channel: the fuzzer mutates these, so payloads get past validation into the handlers. */
const TEMPLATES: Record<ChannelName, Record<string, unknown>> = {
  'app:getInfo': {},
  'app:getProfile': {},
  'app:firstScreen': {},
  'app:setProfile': { profile: 'sim' },
  'wallet:current': {},
  'wallet:chooseKeystoreFile': {},
  'wallet:connectKeystore': { file_token: 'f0c1b1d2-0000-4000-8000-000000000000', password: 'pw' },
  'wallet:connectEnv': { variable: 'PERPS_FUZZ_MAIN_KEY' },
  'wallet:connectOffline': { address: '0x' + 'a'.repeat(40) },
  'wallet:disconnect': { forget: false },
  'wallet:createPaper': {},
  'ledger:listDevices': {},
  'ledger:listAccounts': { device_id: '/dev/hidraw0', scheme: 'bip44', start: 0, count: 2 },
  'ledger:connect': { device_id: '/dev/hidraw0', path: "m/44'/60'/0'/0/0" },
  'trezor:connect': { path: "m/44'/60'/0'/0/0" },
  'trezor:answerPin': { prompt_id: 'p1', positions: '7913' },
  'trezor:answerPassphrase': { prompt_id: 'p1', passphrase: 'x' },
  'trezor:cancel': {},
  'prompt:respondBlindSigning': { prompt_id: 'p1', accept: true },
  'prompt:respondOfflineSignature': { prompt_id: 'p1', signature: '0x' + '1'.repeat(130) },
  'prompt:exportSigningRequest': { prompt_id: 'p1' },
  'prompt:importSignatureFile': { prompt_id: 'p1' },
  'keys:list': {},
  'keys:create': { name: 'fuzz' },
  'keys:review': { action: 'authorize', agent: '0x' + 'b'.repeat(40), expires_in_days: 30 },
  'keys:reviewForeign': { agent: '0x' + 'b'.repeat(40), expires_in_days: 30 },
  'keys:authorize': { review_id: 'r1' },
  'keys:renew': { review_id: 'r1' },
  'keys:revoke': { review_id: 'r1' },
  'funding:depositInfo': {},
  'funding:faucet': { amount: '10' },
  'account:balance': {},
  'account:health': {},
  'markets:list': {},
  'markets:candles': { market: 'ETH', interval: '1m' },
  'markets:book': { market: 'ETH', n_sig_figs: 5 },
  'markets:watchBook': { market: 'ETH', n_sig_figs: null },
  'orders:preview': { intent: { kind: 'bracket', market: 'ETH', side: 'BUY', order_type: 'LIMIT', size: '0.01', limit_price: '3000', sl: { trigger_price: '2900' } } },
  'orders:place': { preview_id: 'x', confirm: ['FAR_PRICE', 'LARGE_ORDER'] },
  'orders:modify': { order_id: 'o1', price: '3000', size: '0.01' },
  'orders:cancel': { order_id: 'o1', order_type: 'LIMIT' },
  'orders:cancelAll': { market: 'ETH' },
  'orders:listOpen': { market: 'ETH' },
  'orders:listTriggers': {},
  'positions:list': {},
  'positions:close': { market: 'ETH', percent: '50', price: '3000', confirm: ['FAR_PRICE'] },
  'positions:reverse': { market: 'ETH', size: '0.01' },
  'positions:adjustMargin': { market: 'ETH', amount: '-1' },
  'positions:closeAll': {},
  'positions:previewTpsl': { market: 'ETH', tp: '4000', sl: null, slippage_bps: 50 },
  'positions:applyTpsl': { preview_id: 'x' },
  'history:orders': { offset: 0, limit: 10 },
  'history:orderGroups': { offset: 0, limit: 10, market: 'ETH' },
  'history:fills': { offset: 0, limit: 10, market: 'ETH' },
  'history:funding': { offset: 0, limit: 10 },
  'history:deposits': { offset: 0, limit: 10 },
  'history:withdrawals': { offset: 0, limit: 10 },
  'history:exportCsv': { kind: 'fills' },
  'portfolio:get': { range: '1d' },
  'portfolio:exportCsv': { range: 'all', table: 'days' },
  'portfolio:cancel': {},
  'withdraw:preview': { amount: '5' },
  'withdraw:submit': { review_id: 'r1' },
  'withdraw:list': {},
  'settings:get': {},
  'settings:set': { theme: 'light', default_leverage: 3, max_order_notional: '25000' },
  'settings:getAirgap': {},
  'settings:setAirgap': { fingerprint: 'a1b2c3d4', path: "m/44'/60'/0'/0/1" },
  'notifications:get': {},
  'notifications:set': { fills: false },
  'companion:getSettings': {},
  'companion:setRpcUrl': { chain: 'arbitrum', url: null },
  'companion:setPartnerCode': { code: 'perpsdesk' },
  'companion:setServiceUrl': { service: 'platform', url: 'http://127.0.0.1:1/platform' },
  'companion:listReceivers': {},
  'companion:addReceiver': { address: '0x' + 'b'.repeat(40), label: 'Savings' },
  'companion:confirmReceiver': { confirmation_id: 'f0c1b1d2-0000-4000-8000-000000000000', address: '0x' + 'b'.repeat(40) },
  'companion:removeReceiver': { address: '0x' + 'b'.repeat(40) },
  'bridge:tokenInfo': { chain: 'arbitrum', token: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' },
  'bridge:quote': {
    from_chain: 'arbitrum', to_chain: 'base', from_token: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', to_token: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
    amount: '0.1', decimals: 18, protocols: ['rail_fast'], slippage_bps: 100,
  },
  'bridge:send': { quote_id: 'q1', quote_idx: 0 },
  'bridge:track': { src_tx: '0x' + 'c'.repeat(64) },
  'swap:quote': { chain: 'base', token_in: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', token_out: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', amount: '0.01', decimals: 18, slippage: '0.005' },
  'swap:execute': { quote_id: 'q1' },
  'transfers:list': {},
  'transfers:dismiss': { id: 't1' },
  'points:estimate': { src_chain: 'arbitrum', dst_chain: 'base', src_token: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', dst_token: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE', src_usd: '300', dst_usd: '299' },
  'points:credited': { from: 0, to: 86_400_000 },
  'assistant:status': {},
  'assistant:setKey': { api_key: 'sk-fuzz-not-a-key' },
  'assistant:clearKey': {},
  'assistant:models': {},
  'assistant:setModel': { model: 'sim-chat-mini' },
  'assistant:ask': { question: 'What are my positions?' },
  // ---- advanced execution: the trades tape and TWAPs ----
  'markets:watchTrades': { market: 'ETH' },
  'twap:preview': { market: 'ETH', side: 'BUY', total_size: '0.02', duration_s: 60, slices: 2, randomize_time_pct: 10, randomize_size_pct: 10, reduce_only: false, slippage_bps: 50, leverage: 3 },
  'twap:start': { preview_id: 'x', confirm: ['LARGE_ORDER'] },
  'twap:list': {},
  'twap:pause': { id: '0123456789ab' },
  'twap:resume': { id: '0123456789ab' },
  'twap:cancel': { id: '0123456789ab' },
  'twap:stop': { id: '0123456789ab' },
  'oco:preview': { market: 'ETH', buy: '3300', sell: '3500', size: '0.01', leverage: 3 },
  'oco:start': { preview_id: 'x' },
  'oco:list': {},
  'oco:cancel': { id: '0123456789ab' },
  'chase:preview': { market: 'ETH', side: 'BUY', size: '0.01', offset_ticks: '0', max_distance: '0.5%', timeout: '5m', on_limit: 'cancel', leverage: 3 },
  'chase:start': { preview_id: 'x' },
  'chase:list': {},
  'chase:stop': { id: '0123456789ab', order: 'leave' },
  'alerts:list': {},
  'alerts:add': { market: 'ETH', kind: 'move', value: '2', window: '5m', repeat: true, note: 'n' },
  'alerts:remove': { id: '0123456789ab' },
  'alerts:setLevel': { id: '0123456789ab', level: '3500' },
  'trail:start': { market: 'ETH', distance: '1.5%' },
  'trail:off': { market: 'ETH' },
  'risk:getLimits': {},
  'risk:setLimits': { limits: { max_order_notional: '100000' } },
  'risk:panic': { confirm: 'panic' },
  'settings:getHotkeys': {},
  'settings:setHotkeys': { enabled: true, bindings: { market_buy: 'Alt+B', cancel_all: null } },
  // Simulator prices: the stored value again, so valid payloads do not restart the simulator on every run.
  'settings:getSimPrices': {},
  'settings:setSimPrices': { source: 'simulated' },
  'settings:getSimFeed': {},
  'settings:getTray': {},
  'settings:setTray': { keep_running_in_tray: true },
};

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A template with each field kept (often), dropped, replaced by a hostile value, or mutated inside; maybe one extra key. */
function mutated(template: Record<string, unknown>): fc.Arbitrary<unknown> {
  const fields = Object.entries(template).map(([k, v]) =>
    fc.oneof(
      { arbitrary: isPlainObject(v) ? mutated(v) : fc.constant(v), weight: 10 },
      { arbitrary: fc.constant(DROP), weight: 1 },
      { arbitrary: value, weight: 2 },
    ).map((nv) => [k, nv] as const),
  );
  const extraKey = fc.oneof({ arbitrary: fc.constant(null), weight: 3 }, { arbitrary: fc.tuple(fc.constantFrom(...FIELD_NAMES), value), weight: 1 });
  return fc.tuple(fc.tuple(...fields), extraKey).map(([entries, extra]) => {
    const out: Record<string, unknown> = {};
    for (const [k, v] of entries) if (v !== DROP) out[k] = v;
    if (extra) out[extra[0]] = extra[1];
    return out;
  });
}
const DROP = Symbol('drop');

/** Channels that change the session (wallet, profile) go last, so the rest are fuzzed with a wallet connected. */
const ORDER: ChannelName[] = [...CHANNEL_NAMES].sort((a, b) => Number(a.startsWith('wallet:') || a === 'app:setProfile') - Number(b.startsWith('wallet:') || b === 'app:setProfile'));

describe('IPC fuzzing', () => {
  let h: AppHarness;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    const main = Wallet.createRandom();
    h = await AppHarness.start('fuzz', {
      // The wall clock: the fuzzer calls every channel, and some of them wait on the service's time (a close
      // for its fill, a withdrawal's steps); nothing here is about time, and no step could move a manual clock.
      manualClock: false,
      env: { PERPS_FUZZ_MAIN_KEY: main.privateKey, PERPS_TREZOR_TRANSPORT: 'usb' },
      // No USB here: a Ledger double and a USB stack with no device plugged in.
      core: { ledger: { listDevices: async () => [], open: async () => Promise.reject(new Error('no device')) }, trezor: { usb: fakeUsb() } },
    });
    await h.call('wallet:connectEnv', { variable: 'PERPS_FUZZ_MAIN_KEY' });
    // An authorized, funded trading key: previews, margin and withdrawals then run deep into the services.
    const { agent } = await h.call('keys:create', { name: 'fuzz' });
    const review = await h.call('keys:review', { action: 'authorize', agent });
    await h.call('keys:authorize', { review_id: review.review_id });
    await h.call('funding:faucet', { amount: '1000' });
  }, 60_000);

  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await h?.stop();
    h?.cleanup();
  });

  function checkResult(channel: string, r: unknown): void {
    const result = r as IpcResult<unknown>;
    expect(typeof result.ok, channel).toBe('boolean');
    if (!result.ok) {
      expect(IpcErrorSchema.safeParse(result.error).success, `${channel}: ${JSON.stringify(result.error)}`).toBe(true);
      expect(result.error.code, `${channel}: ${result.error.message}`).not.toBe('INTERNAL');
    }
  }

  it('every channel answers every payload with a typed result', async () => {
    const reached = new Map<string, Set<string>>();
    for (const channel of ORDER) {
      await fc.assert(
        fc.asyncProperty(fc.oneof({ arbitrary: payload, weight: 1 }, { arbitrary: mutated(TEMPLATES[channel]), weight: 3 }), async (p) => {
          const r = await h.invoke(channel, p);
          checkResult(channel, r);
          const code = r.ok ? 'ok' : r.error.code;
          if (!reached.has(channel)) reached.set(channel, new Set());
          reached.get(channel)!.add(code);
        }),
        { numRuns: 60, seed: 20_251_121 },
      );
    }
    if (process.env['PERPS_DEBUG_LOGS']) console.log(JSON.stringify(Object.fromEntries([...reached].map(([k, v]) => [k, [...v]]))));
    // Fuzzing that never gets past validation proves little: every channel must have reached its handler.
    for (const channel of CHANNEL_NAMES) {
      const codes = [...(reached.get(channel) ?? [])];
      expect(codes.filter((c) => c !== 'INVALID_PAYLOAD'), `${channel} only saw ${codes.join(', ')}`).not.toEqual([]);
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    expect(h.logs.filter((l) => l.startsWith('error '))).toEqual([]);
  }, 240_000);

  it('untrusted frames are refused whatever they send', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CHANNEL_NAMES), fc.oneof(fc.webUrl(), fc.string(), fc.constant('app://perps.evil/'), fc.constant('file:///index.html')), payload, async (channel, url, p) => {
        const listener = h.listeners.get(channel)!;
        const r = (await listener({ senderFrame: { url } }, p)) as IpcResult<unknown>;
        if (url.startsWith('app://perps/')) return;
        expect(r).toMatchObject({ ok: false, error: { code: 'UNTRUSTED_SENDER' } });
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('the app still works afterwards, and nothing was left unhandled', async () => {
    expect((await h.call('app:getInfo', {})).profile).toBe('sim');
    await new Promise((r) => setTimeout(r, 200));
    expect(unhandled).toEqual([]);
  });
});
