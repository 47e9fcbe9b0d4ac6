/**
 * `perps markets` and `perps config`: the service's live configuration (never hardcoded in the app), the
 * markets with the venue's mark, 24 h change, hourly funding and open interest,
 * `perps config leverage`: the default leverage the app and the command line both apply, and
 * `perps config max-notional`: the fat-finger cap on an order's notional (off by default),
 * `perps config stop-tolerance`: how far past its trigger a fired stop-loss may fill (default 10%), and
 * `perps config wallet`: the profile's default wallet, for commands given no --wallet.
 */
import type { Command } from 'commander';
import { isMaxLeverage, resolveLeverage } from '../orders/leverageFlag.js';
import { depositInfo } from '../../main/services/money/funds.js';
import { readMarketsWithVenue, type MarketWithVenue } from '../../main/services/reads/marketData.js';
import { saveProfileUrls } from '../../main/profiles/profiles.js';
import { ValidationError } from '../../main/services/errors.js';
import { defaultLeverageFor, readPreferences, updatePreferences } from '../../main/services/settings/preferences.js';
import { setLeverageDefault } from '../../main/services/settings/leverageDefaults.js';
import { setStopTolerance } from '../../main/services/settings/stopToleranceSetting.js';
import { bpsAsPercent, parseStopTolerancePercent, stopToleranceBpsFor } from '../../shared/orders/stopTolerance.js';
import { contextOf, globalsOf, profileOf } from '../globals.js';
import { clearDefaultWallet, readDefaultWallet, setDefaultWallet } from '../../main/services/settings/defaultWallet.js';
import { openNodeSettings } from '../../main/settings/settingsStore.js';
import { parseIntegerOption } from '../parse.js';
import { formatFields, formatTable, runAction } from '../output.js';
import { fixedPlaces, percent } from '../numbers.js';

export function registerConfigCommands(program: Command): void {
  program
    .command('markets')
    .description('list the markets the service offers (GET /markets) with the venue\'s mark, 24 h change, funding and open interest')
    .option('--all', 'include inactive markets')
    .action(async (opts: { all?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const ctx = contextOf(g);
        // Joined to the venue on venue_asset_index / venue_symbol, never on symbol.
        const markets = await readMarketsWithVenue(ctx, { all: opts.all === true });
        out.result(markets, () =>
          formatTable<MarketWithVenue>(markets, [
            { header: 'SYMBOL', value: (m) => m.symbol },
            { header: 'VENUE', value: (m) => `${m.venue_symbol}#${m.venue_asset_index}` },
            { header: 'MARK', value: (m) => fixedPlaces(m.mark, m.px_decimals), align: 'right' },
            { header: '24H', value: (m) => percent(m.change_24h, 2, true), align: 'right' },
            { header: 'FUNDING 1H', value: (m) => percent(m.funding_rate, 4, true), align: 'right' },
            { header: 'OI', value: (m) => fixedPlaces(m.open_interest, m.sz_decimals), align: 'right' },
            { header: 'MAX LEV', value: (m) => String(m.max_leverage), align: 'right' },
            { header: 'TICK', value: (m) => m.tick_size, align: 'right' },
            { header: 'SZ DEC', value: (m) => String(m.sz_decimals), align: 'right' },
            { header: 'MIN VALUE', value: (m) => m.min_order_value, align: 'right' },
            { header: 'MAX NOTIONAL', value: (m) => (m.max_notional === '0' ? 'none' : m.max_notional), align: 'right' },
            { header: 'MAKER', value: (m) => m.maker_fee_rate, align: 'right' },
            { header: 'TAKER', value: (m) => m.taker_fee_rate, align: 'right' },
            { header: 'IMR', value: (m) => m.initial_margin_ratio, align: 'right' },
            { header: 'MMR', value: (m) => m.maintenance_margin_ratio, align: 'right' },
            { header: 'ISOLATED ONLY', value: (m) => (m.only_isolated ? 'yes' : 'no') },
            { header: 'ACTIVE', value: (m) => (m.is_active ? 'yes' : 'no') },
          ]),
        );
      });
    });

  const config = program
    .command('config')
    .description('show the profile and the funding configuration (GET /config): deposit address, minimums, fees')
    .option('--save', "remember this profile's service URLs (from --base-url / --venue-url) in the data folder, once they answered")
    .action(async (opts: { save?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const ctx = contextOf(g);
        const [config, deposit] = await Promise.all([ctx.config.funding(), depositInfo(ctx)]);
        const p = ctx.profile;
        // Saved only after the service answered at these URLs, so a typo is never remembered.
        if (opts.save === true) saveProfileUrls(ctx.settings, p.name, { baseUrl: p.baseUrl, venueInfoUrl: p.venueInfoUrl, ...(p.venueWsUrl ? { venueWsUrl: p.venueWsUrl } : {}) });
        const profile = { name: p.name, environment: p.environment, trading_chain_id: p.tradingChainId, base_url: p.baseUrl, venue_info_url: p.venueInfoUrl, venue_ws_url: p.venueWsUrl ?? null, data_dir: p.dataDir };
        out.result({ profile, config, deposit, saved: opts.save === true }, () =>
          formatFields([
            ['profile', `${p.name} (${p.environment}, chainId ${p.tradingChainId})`],
            ['base url', p.baseUrl],
            ['venue info url', p.venueInfoUrl],
            ['data dir', p.dataDir],
            ['deposit address', deposit.address],
            ...deposit.rails.map((r) => [`deposit min (${r.rail})`, `${r.min_amount} USDC`] as const),
            ['withdrawal min', `${config.withdrawal.min_amount} USDC`],
            ['new-wallet fee', `${config.withdrawal.new_wallet_fee} USDC (first withdrawal to a new destination)`],
            ['trader share', String(config.trader_share)],
          ]) + `\n\n${deposit.note}` + (opts.save === true ? `\n\nSaved these URLs for profile '${p.name}' in ${p.dataDir}.` : ''),
        );
      });
    });

  config
    .command('leverage')
    .description('show or set the default leverage of orders that name none (the app and the command line share it)')
    .argument('[n]', 'the new default: at most the market\'s max_leverage (with --market), else at most the highest max_leverage of any market; max (with --market only): that market\'s max_leverage read from /markets now')
    .option('--market <symbol>', 'set or clear the default of one market only (it wins over the global one)')
    .option('--clear', 'remove the default (of --market, else reset the global one to 1x)')
    .action(async (n: string | undefined, opts: { market?: string; clear?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const ctx = contextOf(g);
        if (n !== undefined && opts.clear === true) throw new ValidationError('give a leverage or --clear, not both', { field: 'clear', code: 'USAGE' });
        // `max` is one market's maximum, read from /markets now and stored as that number; as an every-market
        // default it would mean a different number on each market, so it needs --market.
        let value: number | undefined;
        if (isMaxLeverage(n)) {
          if (opts.market === undefined) {
            throw new ValidationError("max as the default of every market makes no sense: each market has its own maximum", { field: 'n', code: 'LEVERAGE_MAX_NOT_APPLICABLE', hint: 'Give --market SYM to set that market\'s default to its max_leverage, or a whole number.' });
          }
          const lev = await resolveLeverage(ctx, opts.market, { value: undefined, max: true });
          value = lev.leverage;
          out.note(`${lev.note!} (stored as ${value}x: a later change of the market's maximum does not move it)`);
        } else value = parseIntegerOption(n, 'n');
        // Checked against GET /markets before anything is stored: above the market's max_leverage (or,
        // globally, above every market's) is refused, exit 2.
        let prefs = readPreferences(ctx.settings);
        if (value !== undefined) prefs = await setLeverageDefault(ctx, { market: opts.market, leverage: value });
        else if (opts.clear === true) prefs = await setLeverageDefault(ctx, { market: opts.market, clear: true });
        const markets = await ctx.config.markets();
        const effective = markets.filter((m) => m.is_active).map((m) => ({ market: m.symbol, leverage: defaultLeverageFor(prefs, m), max_leverage: m.max_leverage, own: prefs.leverage_by_market[m.symbol] !== undefined }));
        out.result({ default_leverage: prefs.default_leverage, leverage_by_market: prefs.leverage_by_market, effective }, () =>
          [
            `default leverage: ${prefs.default_leverage}x (orders that name no --leverage, on markets without their own)`,
            '',
            formatTable(effective, [
              { header: 'MARKET', value: (e) => e.market },
              { header: 'LEVERAGE', value: (e) => `${e.leverage}x`, align: 'right' },
              { header: 'FROM', value: (e) => (e.own ? 'market default' : 'global default') },
              { header: 'MAX', value: (e) => `${e.max_leverage}x`, align: 'right' },
            ]),
          ].join('\n'),
        );
      });
    });

  config
    .command('wallet')
    .description('show or set the default wallet of this profile: commands given no --wallet act for it and name it')
    .argument('[address]', 'the main wallet address (0x followed by 40 hex characters)')
    .option('--clear', 'remove the default (then every command needs --wallet again)')
    .action(async (address: string | undefined, opts: { clear?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        if (address !== undefined && opts.clear === true) throw new ValidationError('give an address or --clear, not both', { field: 'clear', code: 'USAGE' });
        const profile = profileOf(g);
        const store = openNodeSettings(profile.dataDir);
        if (address !== undefined) setDefaultWallet(store, profile.name, address);
        else if (opts.clear === true) clearDefaultWallet(store, profile.name);
        const wallet = readDefaultWallet(store, profile.name);
        out.result({ profile: profile.name, default_wallet: wallet }, () =>
          wallet === null ? `default wallet (${profile.name}): none; commands need --wallet (set one with \`perps config wallet ADDR\`)` : `default wallet (${profile.name}): ${wallet} (commands given no --wallet act for it)`,
        );
      });
    });

  config
    .command('stop-tolerance')
    .description('show or set how far past its trigger a fired stop-loss (plain, bracket, trailing) may fill: default 10%; take-profits keep the market\'s slippage, --slippage-bps still overrides one order')
    .argument('[percent]', 'the tolerance in percent, e.g. 10 or 7.5 (0.01 to 50)')
    .option('--market <symbol>', 'set or clear the tolerance of one market only (it wins over the global one)')
    .option('--clear', 'remove the tolerance (of --market, else reset the global one to 10%)')
    .action(async (pct: string | undefined, opts: { market?: string; clear?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        if (pct !== undefined && opts.clear === true) throw new ValidationError('give a percentage or --clear, not both', { field: 'clear', code: 'USAGE' });
        let bps: number | undefined;
        if (pct !== undefined) {
          const parsed = parseStopTolerancePercent(pct);
          if (!parsed.ok) throw new ValidationError(parsed.message, { field: 'percent' });
          bps = parsed.bps;
        }
        const ctx = contextOf(g);
        let prefs = readPreferences(ctx.settings);
        if (bps !== undefined) prefs = await setStopTolerance(ctx, { market: opts.market, bps });
        else if (opts.clear === true) prefs = await setStopTolerance(ctx, { market: opts.market, clear: true });
        const markets = (await ctx.config.markets()).filter((m) => m.is_active);
        const effective = markets.map((m) => ({ market: m.symbol, stop_tolerance_bps: stopToleranceBpsFor(prefs, m.symbol), own: prefs.stop_tolerance_by_market[m.symbol] !== undefined, tp_slippage_bps: m.slippage_bps }));
        out.result({ stop_tolerance_bps: prefs.stop_tolerance_bps, stop_tolerance_by_market: prefs.stop_tolerance_by_market, effective }, () =>
          [
            `stop tolerance: ${bpsAsPercent(prefs.stop_tolerance_bps)} (a fired stop-loss fills no further than this past its trigger, on markets without their own)`,
            '',
            formatTable(effective, [
              { header: 'MARKET', value: (e) => e.market },
              { header: 'STOP', value: (e) => bpsAsPercent(e.stop_tolerance_bps), align: 'right' },
              { header: 'FROM', value: (e) => (e.own ? 'market setting' : 'global setting') },
              { header: 'TP SLIPPAGE', value: (e) => bpsAsPercent(e.tp_slippage_bps), align: 'right' },
            ]),
          ].join('\n'),
        );
      });
    });

  config
    .command('max-notional')
    .description('show or set your cap on an order\'s notional (USDC): a larger order needs --allow-large (the app asks to confirm it); off by default')
    .argument('[amount]', 'the cap in USDC, e.g. 25000')
    .option('--clear', 'turn the cap off')
    .action(async (amount: string | undefined, opts: { clear?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        if (amount !== undefined && opts.clear === true) throw new ValidationError('give an amount or --clear, not both', { field: 'clear', code: 'USAGE' });
        const ctx = contextOf(g);
        let prefs = readPreferences(ctx.settings);
        if (amount !== undefined) prefs = updatePreferences(ctx.settings, { max_order_notional: amount });
        else if (opts.clear === true) prefs = updatePreferences(ctx.settings, { max_order_notional: null });
        const cap = prefs.max_order_notional;
        out.result({ max_order_notional: cap }, () =>
          cap === null ? 'max order notional: off (no order needs --allow-large)' : `max order notional: ${cap} USDC (an order above it needs --allow-large; reduce-only orders are exempt)`,
        );
      });
    });
}
