/**
 * `perps sim`: runs the local simulator of the service (the paper-trading profile and the test bed).
 *
 *   perps sim [--port N] [--seed N] [--manual-clock] [--config FILE] [--state FILE]
 *             [--markets default|venue-scale] [--storm FACTOR]
 *             [--follow-venue URL [--follow-venue-ws URL] [--follow-band PERCENT]]
 *
 * --markets venue-scale: the real venue's scale, 200 markets (prices, ticks, size decimals and leverage
 * tiers spread as on the venue); a --config file is merged onto it. --storm 10x: marks, books and
 * trades at ten times the normal rates with bursts of trades and liquidation cascades, deterministic
 * under --seed; POST /sim/storm changes it while running.
 *
 * --follow-venue: paper trading on live prices. The simulator's venue follows the public market data of
 * the venue whose info API is at URL (Hyperliquid's shape, no key); orders, positions and money stay
 * local. Which markets follow, outages and recoveries are logged on stderr. Upstream values that fail
 * the simulator's own price rules freeze their market; a mark or book moving more than --follow-band
 * (default 10%) in one update is held until the next update or the info API confirms it. Neither URL
 * may carry credentials.
 *
 * Prints ONE JSON line with every URL (base_url, bridge_url, platform_url, aggregator_url,
 * inference_url, venue_info_url, venue_ws_url, control_url, ...) once listening, then runs until
 * SIGINT/SIGTERM, when it saves the state file (if any) and exits. On a terminal it also says, on stderr,
 * what started (src/cli/simBanner.ts): the URL, the profile, the markets, the clock, where its state lives
 * or that it is in memory only, and how to stop it.
 *
 *   perps sim faucet --wallet ADDR --amount N [--no-wait]
 *
 * Credits paper USDC to an existing wallet's account through the running simulator's faucet (its control
 * API, POST /sim/deposit) and, unless --no-wait, waits until the deposit is credited. Sim profile only.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { SIM_DEFAULT_PORT } from '../../main/profiles/profiles.js';
import { nodeHttpFetch } from '../../main/api/nodeHttpFetch.js';
import { FAUCET_MAX, simFaucet } from '../../main/services/sim/faucet.js';
import { contextOf, globalsOf } from '../globals.js';
import { formatFields, runAction } from '../output.js';
// URL checks only (no simulator code): a bad --follow-venue is refused before anything starts.
import { parseHttpUrl, parseWsUrl } from '../../sim/venue/follow/followUrls.js';
import { parseBandPercent } from '../../shared/feed/bandGate.js';
import { parseStormFactor } from '../../sim/venue/stormFactor.js';
import { MARKET_PRESETS, type MarketPreset } from '../../sim/config/venueScale.js';
import { shownStatePath, simBanner } from '../simBanner.js';
import fs from 'node:fs';

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be an integer`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${name} must be between ${min} and ${max}`);
    return n;
  };
}

interface SimOptions {
  port: number;
  seed: number;
  manualClock?: boolean;
  config?: string;
  state?: string;
  followVenue?: string;
  followVenueWs?: string;
  followBand?: string;
  markets?: MarketPreset;
  storm?: number;
}

function stormFactor(value: string): number {
  try {
    return parseStormFactor(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

function marketPreset(value: string): MarketPreset {
  if (!(MARKET_PRESETS as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${MARKET_PRESETS.join(', ')}`);
  return value as MarketPreset;
}

/**
 * The URLs are checked in the action, not by an option parser: commander echoes a refused argument in
 * its message, and a URL's credentials must never be printed.
 */
function checkedUrls(opts: SimOptions): { infoUrl?: string; wsUrl?: string } {
  return {
    ...(opts.followVenue !== undefined ? { infoUrl: parseHttpUrl(opts.followVenue, '--follow-venue').toString() } : {}),
    ...(opts.followVenueWs !== undefined ? { wsUrl: parseWsUrl(opts.followVenueWs, '--follow-venue-ws').toString() } : {}),
  };
}

function bandPercent(value: string): string {
  try {
    return parseBandPercent(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

export function register(program: Command): void {
  const sim = program
    .command('sim')
    .description('run the local simulator of the trading service (paper trading, tests)')
    // The default is the port the 'sim' profile points at, so `perps sim` then `perps markets` just works.
    .option('--port <n>', `port on 127.0.0.1 (0 picks a free port; default ${SIM_DEFAULT_PORT}, where the sim profile looks)`, integer('port', 0, 65535), SIM_DEFAULT_PORT)
    .option('--seed <n>', 'seed of every random stream', integer('seed', 0, 0xffffffff), 1)
    .option('--manual-clock', 'time moves only through POST /sim/advance')
    .option('--config <file>', 'JSON config merged onto resources/sim/default-config.json')
    .option('--state <file>', 'state file: loaded at start when present, saved on exit')
    .option('--markets <preset>', "market list: 'default' (5 markets) or 'venue-scale' (200, as on the real venue)", marketPreset)
    .option('--storm <factor>', 'market storm: marks, books and trades at FACTOR times the normal rates, e.g. 10x (POST /sim/storm changes it)', stormFactor)
    .option('--follow-venue <url>', "paper trading on live prices: follow the market data of the venue whose info API is at URL (e.g. https://api.hyperliquid.xyz/info)")
    .option('--follow-venue-ws <url>', 'its WebSocket (default: derived from --follow-venue, …/info -> …/ws)')
    .option('--follow-band <percent>', 'a followed mark or book moving more than this in one update is held until confirmed (default 10%)', bandPercent)
    .action(async (opts: SimOptions, cmd: Command) => {
      if (opts.followVenueWs && !opts.followVenue) cmd.error('error: --follow-venue-ws needs --follow-venue', { exitCode: 2 });
      if (opts.followBand && !opts.followVenue) cmd.error('error: --follow-band needs --follow-venue', { exitCode: 2 });
      let urls: { infoUrl?: string; wsUrl?: string } = {};
      try {
        urls = checkedUrls(opts);
      } catch (err) {
        cmd.error(`error: ${(err as Error).message}`, { exitCode: 2 });
      }
      // Loaded only here: `perps sim faucet` talks to a running simulator and needs none of its code.
      const { startSimulator } = await import('../../sim/index.js');
      const resumed = opts.state !== undefined && fs.existsSync(opts.state);
      const sim = await startSimulator({
        port: opts.port,
        seed: opts.seed,
        manualClock: opts.manualClock ?? false,
        ...(opts.config ? { configFile: opts.config } : {}),
        ...(opts.state ? { stateFile: opts.state } : {}),
        ...(opts.markets ? { markets: opts.markets } : {}),
        ...(opts.storm !== undefined ? { storm: opts.storm } : {}),
        ...(urls.infoUrl
          ? {
              followVenue: {
                infoUrl: urls.infoUrl,
                ...(urls.wsUrl ? { wsUrl: urls.wsUrl } : {}),
                ...(opts.followBand ? { band: opts.followBand } : {}),
                log: (line: string) => console.error(line),
              },
            }
          : {}),
      });
      process.stdout.write(JSON.stringify(sim.urls) + '\n');
      if (process.stderr.isTTY) {
        process.stderr.write(
          simBanner({
            baseUrl: sim.urls.base_url,
            controlUrl: sim.urls.control_url,
            atProfileAddress: opts.port === SIM_DEFAULT_PORT,
            markets: sim.config.markets.map((m) => m.symbol),
            manualClock: opts.manualClock ?? false,
            seed: opts.seed,
            ...(opts.state ? { state: { file: shownStatePath(opts.state), resumed } } : {}),
            ...(urls.infoUrl ? { followVenue: urls.infoUrl } : {}),
            ...(opts.storm !== undefined ? { storm: opts.storm } : {}),
          }),
        );
      }
      await new Promise<void>((resolve) => {
        const shutdown = (signal: NodeJS.Signals): void => {
          process.off('SIGINT', shutdown);
          process.off('SIGTERM', shutdown);
          sim.stop().then(
            () => resolve(),
            (err: unknown) => {
              console.error(`[sim] failed to stop cleanly after ${signal}:`, err);
              process.exitCode = 1;
              resolve();
            },
          );
        };
        process.on('SIGINT', shutdown);
        process.on('SIGTERM', shutdown);
      });
    });
  sim
    .command('faucet')
    .description("credit paper USDC to a wallet through the running simulator's faucet (sim profile only)")
    .requiredOption('--wallet <address>', 'the wallet whose account is credited')
    .requiredOption('--amount <usdc>', `paper USDC, at least the deposit minimum and at most ${FAUCET_MAX.toFixed()}`)
    .option('--no-wait', 'return once the deposit is detected instead of waiting until it is credited')
    .action(async (opts: { wallet: string; amount: string; wait: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        const r = await simFaucet(contextOf(g), { wallet: opts.wallet, amount: opts.amount, wait: opts.wait }, { fetch: nodeHttpFetch });
        out.result(r, () =>
          formatFields([
            ['wallet', r.wallet],
            ['amount', `${r.amount} USDC`],
            ['deposit', `${r.tx_hash} ${r.status}`],
            ['free balance', r.free_balance === null ? '- (not waited for; credited after the confirmation delay)' : `${r.free_balance} USDC`],
          ]),
        );
      });
    });
}
