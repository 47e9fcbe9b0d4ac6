/**
 * What `perps sim` says to a person once it listens (on stderr, when stderr is a terminal): the one JSON
 * line on stdout stays for scripts. A pure function of what started, so the words are tested without a
 * terminal.
 */
import path from 'node:path';

export interface SimBannerFacts {
  /** The trading API's URL (base_url of the JSON line). */
  readonly baseUrl: string;
  /** The control API's URL (control_url). */
  readonly controlUrl: string;
  /** True when this is the address the sim profile looks at, so every other `perps` finds it as is. */
  readonly atProfileAddress: boolean;
  readonly markets: readonly string[];
  readonly manualClock: boolean;
  readonly seed: number;
  /** The state file (absolute), and whether it held a saved state that was resumed; undefined: memory only. */
  readonly state?: { readonly file: string; readonly resumed: boolean };
  /** The followed venue's info URL, when prices follow a live venue. */
  readonly followVenue?: string;
  /** The storm factor when above 1. */
  readonly storm?: number;
}

/** At most this many market names are listed; the rest are counted. */
const LISTED_MARKETS = 12;

export function simBanner(f: SimBannerFacts): string {
  const shown = f.markets.slice(0, LISTED_MARKETS).join(', ');
  const more = f.markets.length > LISTED_MARKETS ? ` and ${f.markets.length - LISTED_MARKETS} more` : '';
  const lines = [
    `Perps Desk simulator (paper trading) listening at ${f.baseUrl}`,
    f.atProfileAddress
      ? '  profile:  sim (the default): every `perps` command and the app on the sim profile use it as is'
      : `  profile:  sim, on a port of its own: give other commands --base-url ${f.baseUrl}`,
    `  markets:  ${f.markets.length}: ${shown}${more}`,
    `  prices:   ${f.followVenue ? `following the live venue at ${f.followVenue} (orders stay local)` : `a seeded random walk (seed ${f.seed})`}${f.storm && f.storm > 1 ? `, storm ${f.storm}x` : ''}`,
    f.manualClock
      ? `  clock:    manual: time moves only through POST ${f.controlUrl}/advance`
      : '  clock:    real time',
    f.state
      ? `  state:    ${f.state.file} (${f.state.resumed ? 'resumed; ' : 'new; '}saved when it stops)`
      : '  state:    in memory only: paper accounts, orders and positions are gone when it stops (--state FILE keeps them)',
    `  stop:     Ctrl-C (or kill ${process.pid}); ${f.state ? 'it saves its state, then exits' : 'it exits'}`,
  ];
  return `${lines.join('\n')}\n`;
}

/** The state file as the banner shows it: absolute, so it can be found from any folder. */
export function shownStatePath(file: string): string {
  return path.resolve(file);
}
