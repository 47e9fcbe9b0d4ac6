/**
 * The IPC shapes of the simulator's price source (settings:getSimPrices / settings:setSimPrices) and of
 * its live feed when it follows a real venue (settings:getSimFeed, the simFeed event): paper trading on
 * live market data, issue 16.
 */
import { z } from 'zod';
import { isVenueInfoUrl } from '../venueInfoUrl.js';

export const VenueInfoUrlSchema = z
  .string()
  .trim()
  .min(1, 'enter the venue info API URL, such as https://api.hyperliquid.xyz/info')
  .max(2048)
  .refine(isVenueInfoUrl, 'expected an http or https URL such as https://api.hyperliquid.xyz/info');

/** Where the simulator's prices come from: its own random walk, or a real venue's public market data. */
export const SimPricesSchema = z.discriminatedUnion('source', [
  z.strictObject({ source: z.literal('simulated') }),
  z.strictObject({ source: z.literal('venue'), info_url: VenueInfoUrlSchema }),
]);
export type SimPrices = z.infer<typeof SimPricesSchema>;

/** The simulator's feed as the app shows it (null off the simulator profile). */
export const SimFeedViewSchema = z.object({
  source: z.enum(['simulated', 'venue']),
  /** The followed venue's info URL (source 'venue'). */
  info_url: z.string().nullable(),
  /** live: prices follow the venue; down: it is not answering, marks are frozen and orders paused. */
  feed: z.enum(['live', 'down']).nullable(),
  /** Unix ms the venue stopped answering (feed 'down'). */
  down_since: z.number().int().nullable(),
  /** Markets that keep the simulated walk and why (absent or delisted on the venue). */
  walking: z.array(z.object({ venue_symbol: z.string(), reason: z.string() })),
  /**
   * Followed markets paused on their own while the feed is live (issue 26): held (a move beyond the
   * plausibility band waits for confirmation) or frozen (a value failed the price rules), why and since
   * when (Unix ms). Their marks stay; triggers, liquidations and new orders on them wait.
   */
  paused_markets: z.array(z.object({ venue_symbol: z.string(), state: z.enum(['held', 'frozen']), reason: z.string().max(2000), since: z.number().int() })),
  /** Following was asked for but could not start (the venue unreadable at start): prices are simulated. */
  error: z.string().nullable(),
});
export type SimFeedView = z.infer<typeof SimFeedViewSchema>;
