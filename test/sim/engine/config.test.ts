import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FundingConfigSchema, MarketSchema } from '../../../src/shared/protocol/index.js';
import { DEFAULT_CONFIG_PATH, SimConfigError, loadSimConfig, mergeConfig, resolveSimConfig } from '../../../src/sim/config/load.js';
import { MarketTable } from '../../../src/sim/config/markets.js';
import { chainIdsOf } from '../../../src/sim/config/schema.js';

describe('simulator config', () => {
  it('the default config is valid and its records parse with the shared schemas', () => {
    const config = loadSimConfig();
    const table = new MarketTable(config);
    for (const m of table.records) MarketSchema.parse(m);
    FundingConfigSchema.parse(config.funding_config);
    expect(config.environment).toBe('Testnet');
    expect(chainIdsOf(config)).toEqual({ trading: 998, arbitrum: 421614 });
    expect(config.keys.max_lifetime_days).toBe(180);
    const pepe = table.get('PEPE')!;
    expect(pepe.venueSymbol).toBe('kPEPE');
    expect(table.get('BTC')!.maxNotional).toBeNull();
  });

  it('merges objects and replaces arrays; replace_defaults uses the override alone', () => {
    expect(mergeConfig({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { c: 3 }, l: [9] })).toEqual({ a: { b: 1, c: 3 }, l: [9] });
    const mainnet = resolveSimConfig({ environment: 'Mainnet', timings: { order_accept_ms: 5 } });
    expect(chainIdsOf(mainnet)).toEqual({ trading: 999, arbitrum: 42161 });
    expect(mainnet.timings.order_accept_ms).toBe(5);
    expect(mainnet.timings.order_execute_ms).toBe(100);
    const full = JSON.parse(fs.readFileSync(DEFAULT_CONFIG_PATH, 'utf8'));
    full.markets = full.markets.slice(0, 1);
    expect(resolveSimConfig({ ...full, replace_defaults: true }).markets).toHaveLength(1);
    expect(() => resolveSimConfig({ replace_defaults: true, environment: 'Testnet' })).toThrow(SimConfigError);
  });

  it('names the bad field', () => {
    expect(() => resolveSimConfig({ funding_config: { trader_share: 2 } })).toThrow(/funding_config\.trader_share/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'simcfg-'));
    const file = path.join(dir, 'c.json');
    const full = JSON.parse(fs.readFileSync(DEFAULT_CONFIG_PATH, 'utf8'));
    full.markets[1].tick_size = '0.001';
    fs.writeFileSync(file, JSON.stringify({ markets: full.markets }));
    expect(() => loadSimConfig(file)).toThrow(/markets\[1\]\.tick_size/);
    full.markets[1].venue_asset_index = 9;
    fs.writeFileSync(file, JSON.stringify({ markets: full.markets }));
    expect(() => loadSimConfig(file)).toThrow(/venue_asset_index/);
  });
});
