/* eslint-disable @typescript-eslint/no-explicit-any -- the helpers hand arbitrary JSON answers to assertions */
/**
 * Test helpers for the simulator's own tests. Requests are signed with ethers' Wallet.signTypedData
 * over struct definitions written out here from the spec — deliberately not the shared builders, so a
 * misreading in src/shared/eip712 would show up as a failing test rather than two matching mistakes.
 */
import fs from 'node:fs';
import { Wallet, type BaseWallet, type TypedDataField } from 'ethers';
import { startSimulator, type RunningSimulator } from '../../../src/sim/index.js';
import { DEFAULT_CONFIG_PATH } from '../../../src/sim/config/load.js';

export const T0 = 1_770_000_000_000;
export const TRADING_CHAIN_ID = 998;

export const TYPES: Record<string, TypedDataField[]> = {
  AuthorizeAgent: [
    { name: 'user', type: 'address' },
    { name: 'agent', type: 'address' },
    { name: 'serviceEnvironment', type: 'string' },
    { name: 'expiresAt', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
  ],
  RevokeAgent: [
    { name: 'user', type: 'address' },
    { name: 'agent', type: 'address' },
    { name: 'serviceEnvironment', type: 'string' },
    { name: 'nonce', type: 'uint256' },
  ],
  Withdraw: [
    { name: 'user', type: 'address' },
    { name: 'destination', type: 'address' },
    { name: 'amount', type: 'uint256' },
    { name: 'serviceEnvironment', type: 'string' },
    { name: 'nonce', type: 'uint256' },
  ],
  Order: [
    { name: 'account', type: 'bytes32' },
    { name: 'market', type: 'string' },
    { name: 'side', type: 'string' },
    { name: 'orderType', type: 'string' },
    { name: 'size', type: 'string' },
    { name: 'limitPrice', type: 'string' },
    { name: 'timeInForce', type: 'string' },
    { name: 'reduceOnly', type: 'bool' },
    { name: 'leverage', type: 'uint256' },
    { name: 'nonce', type: 'uint256' },
    { name: 'triggerPrice', type: 'string' },
    { name: 'isMarket', type: 'bool' },
    { name: 'tpsl', type: 'string' },
  ],
  Cancel: [
    { name: 'account', type: 'address' },
    { name: 'orderId', type: 'string' },
    { name: 'orderType', type: 'string' },
    { name: 'nonce', type: 'uint256' },
  ],
  Modify: [
    { name: 'account', type: 'bytes32' },
    { name: 'orderId', type: 'string' },
    { name: 'clientOrderId', type: 'string' },
    { name: 'limitPrice', type: 'string' },
    { name: 'size', type: 'string' },
    { name: 'triggerPrice', type: 'string' },
    { name: 'nonce', type: 'uint256' },
  ],
  UpdateIsolatedMargin: [
    { name: 'account', type: 'bytes32' },
    { name: 'market', type: 'string' },
    { name: 'amount', type: 'string' },
    { name: 'nonce', type: 'uint256' },
  ],
};

export function domain(chainId: number): { name: string; version: string; chainId: number } {
  return { name: 'Service Perps', version: '2', chainId };
}

export async function sign(wallet: BaseWallet, primaryType: string, chainId: number, message: Record<string, unknown>): Promise<string> {
  return wallet.signTypedData(domain(chainId), { [primaryType]: TYPES[primaryType]! }, message);
}

/** The default config with every mark held still (volatility 0), optionally further changed. */
export function quietConfig(change?: (config: Record<string, any>) => void): Record<string, unknown> {
  const config = JSON.parse(fs.readFileSync(DEFAULT_CONFIG_PATH, 'utf8')) as Record<string, any>;
  for (const m of config.markets) m.sim.volatility_bps = 0;
  change?.(config);
  return config;
}

export interface HttpAnswer {
  status: number;
  body: any;
}

export class Api {
  constructor(readonly sim: RunningSimulator) {}

  async request(method: string, url: string, body?: unknown): Promise<HttpAnswer> {
    const res = await fetch(url, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  get(path: string): Promise<HttpAnswer> {
    return this.request('GET', this.sim.urls.base_url + path);
  }

  post(path: string, body: unknown): Promise<HttpAnswer> {
    return this.request('POST', this.sim.urls.base_url + path, body);
  }

  async control(path: string, body?: unknown): Promise<any> {
    const r = await this.request(body === undefined ? 'GET' : 'POST', this.sim.urls.control_url + path, body);
    if (r.status !== 200) throw new Error(`control ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  }

  advance(ms: number): Promise<any> {
    return this.control('/advance', { ms });
  }

  mark(market: string, price: string): Promise<any> {
    return this.control('/mark', { market, price });
  }
}

export async function startTestSim(config?: unknown, extra: { stateFile?: string; seed?: number } = {}): Promise<{ sim: RunningSimulator; api: Api }> {
  const sim = await startSimulator({ port: 0, manualClock: true, startTime: T0, config: config ?? quietConfig(), ...extra });
  return { sim, api: new Api(sim) };
}

export interface LegSpec {
  market: string;
  side: 'BUY' | 'SELL';
  size: string;
  limit_price: string;
  order_type?: 'MARKET' | 'LIMIT' | 'TRIGGER';
  time_in_force?: 'GTC' | 'IOC' | 'ALO';
  reduce_only?: boolean;
  leverage?: number;
  client_order_id?: string;
  trigger?: { trigger_price: string; is_market: boolean; tpsl: 'TP' | 'SL' };
  parent_client_order_id?: string;
}

let cloidCounter = 0;

export class Trader {
  readonly main: Wallet;
  readonly agent: Wallet;
  readonly accountId: string;
  private nonce: number;

  constructor(
    readonly api: Api,
    seed: number,
  ) {
    this.main = new Wallet('0x' + (0x1000 + seed).toString(16).padStart(64, '0'));
    this.agent = new Wallet('0x' + (0x900000 + seed).toString(16).padStart(64, '0'));
    this.accountId = this.main.address.toLowerCase() + '0'.repeat(24);
    this.nonce = T0 + seed * 1_000_000;
  }

  get wallet(): string {
    return this.main.address;
  }

  nextNonce(): number {
    return ++this.nonce;
  }

  async registerBody(overrides: Record<string, unknown> = {}, signOverrides: Record<string, unknown> = {}, chainId = 42161): Promise<Record<string, unknown>> {
    const now = this.api.sim.clock.now();
    const body: Record<string, unknown> = {
      wallet_address: this.main.address,
      agent_wallet_address: this.agent.address,
      service_environment: 'Testnet',
      signature_chain_id: chainId,
      expires_at: now + 30 * 86_400_000,
      nonce: this.nextNonce(),
      name: 'desk',
      ...overrides,
    };
    const message = {
      user: body.wallet_address,
      agent: body.agent_wallet_address,
      serviceEnvironment: body.service_environment,
      expiresAt: String(body.expires_at),
      nonce: String(body.nonce),
      ...signOverrides,
    };
    body.signature = await sign(this.main, 'AuthorizeAgent', chainId, message);
    return body;
  }

  async register(): Promise<void> {
    const r = await this.api.post('/auth/register', await this.registerBody());
    if (r.status !== 200) throw new Error(`register: ${r.status} ${JSON.stringify(r.body)}`);
  }

  async revokeBody(overrides: Record<string, unknown> = {}, chainId = 998): Promise<Record<string, unknown>> {
    const body: Record<string, unknown> = {
      wallet_address: this.main.address,
      agent_wallet_address: this.agent.address,
      service_environment: 'Testnet',
      signature_chain_id: chainId,
      nonce: this.nextNonce(),
      ...overrides,
    };
    body.signature = await sign(this.main, 'RevokeAgent', chainId, {
      user: body.wallet_address,
      agent: body.agent_wallet_address,
      serviceEnvironment: body.service_environment,
      nonce: String(body.nonce),
    });
    return body;
  }

  async fund(amount: string): Promise<void> {
    await this.api.control('/deposit', { wallet: this.main.address, amount });
    await this.api.advance(1000);
  }

  /** A signed leg; `signed` overrides members of the signed message only (to forge mismatches). */
  async leg(spec: LegSpec, signed: Record<string, unknown> = {}, signer: BaseWallet = this.agent, chainId = TRADING_CHAIN_ID): Promise<Record<string, unknown>> {
    const nonce = String(this.nextNonce());
    const type = spec.order_type ?? 'MARKET';
    const message = {
      account: this.accountId,
      market: spec.market,
      side: spec.side,
      orderType: type,
      size: spec.size,
      limitPrice: spec.limit_price,
      timeInForce: type === 'TRIGGER' ? 'IOC' : (spec.time_in_force ?? ''),
      reduceOnly: spec.reduce_only ?? false,
      leverage: String(spec.leverage ?? 0),
      nonce,
      triggerPrice: spec.trigger?.trigger_price ?? '0',
      isMarket: spec.trigger?.is_market ?? false,
      tpsl: spec.trigger?.tpsl ?? '',
      ...signed,
    };
    const leg: Record<string, unknown> = {
      ...spec,
      client_order_id: spec.client_order_id ?? `c${++cloidCounter}`,
      nonce,
      signature: await sign(signer, 'Order', chainId, message),
    };
    return leg;
  }

  async place(specs: (LegSpec | Record<string, unknown>)[]): Promise<HttpAnswer> {
    const orders = await Promise.all(specs.map((s) => ('signature' in s ? s : this.leg(s as LegSpec))));
    return this.api.post('/orders', { account_id: this.accountId, orders });
  }

  async placeOne(spec: LegSpec): Promise<{ order_id: string; status: string; reason?: string }> {
    const r = await this.place([spec]);
    if (r.status !== 200) throw new Error(`place: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data[0];
  }

  async cancelBody(orderId: string, orderType: 'LIMIT' | 'TRIGGER', signer: BaseWallet = this.agent): Promise<Record<string, unknown>> {
    const nonce = String(this.nextNonce());
    const signature = await sign(signer, 'Cancel', TRADING_CHAIN_ID, { account: this.main.address, orderId, orderType, nonce });
    return { account: this.main.address, order_type: orderType, nonce, signature };
  }

  async cancel(orderId: string, orderType: 'LIMIT' | 'TRIGGER'): Promise<HttpAnswer> {
    return this.api.post(`/orders/${orderId}/cancel`, await this.cancelBody(orderId, orderType));
  }

  async modifyBody(orderId: string, fields: { client_order_id?: string; limit_price: string; size: string; trigger_price?: string }): Promise<Record<string, unknown>> {
    const nonce = String(this.nextNonce());
    const body = {
      account_id: this.accountId,
      client_order_id: fields.client_order_id ?? `m${++cloidCounter}`,
      limit_price: fields.limit_price,
      size: fields.size,
      trigger_price: fields.trigger_price ?? '0',
      nonce,
    };
    const signature = await sign(this.agent, 'Modify', TRADING_CHAIN_ID, {
      account: this.accountId,
      orderId,
      clientOrderId: body.client_order_id,
      limitPrice: body.limit_price,
      size: body.size,
      triggerPrice: body.trigger_price,
      nonce,
    });
    return { ...body, signature };
  }

  async modify(orderId: string, fields: { client_order_id?: string; limit_price: string; size: string; trigger_price?: string }): Promise<HttpAnswer> {
    return this.api.post(`/orders/${orderId}/modify`, await this.modifyBody(orderId, fields));
  }

  async margin(market: string, amount: string): Promise<HttpAnswer> {
    const nonce = this.nextNonce();
    const signature = await sign(this.agent, 'UpdateIsolatedMargin', TRADING_CHAIN_ID, { account: this.accountId, market, amount, nonce: String(nonce) });
    return this.api.post('/positions/margin', { account_id: this.accountId, market, amount, nonce, signature });
  }

  async withdrawBody(
    amount: string,
    opts: { recipient?: string; environment?: string; chainId?: number; destinationChainId?: number } = {},
  ): Promise<Record<string, unknown>> {
    const nonce = String(this.nextNonce());
    const chainId = opts.chainId ?? 42161;
    const baseUnits = BigInt(Math.round(Number(amount) * 1e6)).toString();
    const sig = await sign(this.main, 'Withdraw', chainId, {
      user: this.main.address,
      destination: opts.recipient ?? this.main.address,
      amount: baseUnits,
      serviceEnvironment: opts.environment ?? 'Testnet',
      nonce,
    });
    const r = '0x' + sig.slice(2, 66);
    const s = '0x' + sig.slice(66, 130);
    const v = parseInt(sig.slice(130, 132), 16);
    return {
      account_id: this.accountId,
      amount,
      signature: { r, s, v },
      nonce,
      signature_chain_id: chainId,
      ...(opts.recipient ? { destination_chain_id: opts.destinationChainId ?? 421614, destination_recipient: opts.recipient } : {}),
    };
  }

  async withdraw(amount: string, opts: { recipient?: string } = {}): Promise<HttpAnswer> {
    return this.api.post('/account/withdraw', await this.withdrawBody(amount, opts));
  }

  async order(id: string): Promise<any> {
    const r = await this.api.get(`/orders/${id}`);
    return r.status === 200 ? r.body.data : { http: r.status };
  }

  async positions(): Promise<any[]> {
    return (await this.api.get(`/account/${this.accountId}/positions`)).body.data.positions;
  }

  async balance(): Promise<string> {
    return (await this.api.get(`/account/${this.accountId}/balance`)).body.data.free_balance;
  }

  async openOrders(query = ''): Promise<any> {
    return (await this.api.get(`/account/open-orders?wallet=${this.main.address}${query}`)).body.data;
  }

  async history(query = ''): Promise<any> {
    return (await this.api.get(`/account/order-history?wallet=${this.main.address}${query}`)).body.data;
  }

  async fills(query = ''): Promise<any> {
    return (await this.api.get(`/account/trade-history?wallet=${this.main.address}${query}`)).body.data;
  }

  async triggers(): Promise<any> {
    return (await this.api.get(`/account/position-triggers?wallet=${this.main.address}`)).body.data;
  }
}

/** Started, registered and funded trader. */
export async function readyTrader(api: Api, seed: number, funds = '100000'): Promise<Trader> {
  const t = new Trader(api, seed);
  await t.register();
  await t.fund(funds);
  return t;
}
