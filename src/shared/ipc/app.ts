/** The app and its profiles (simulator or mainnet): channels app:*, and the session event. */
import { z } from 'zod';
import { WalletViewSchema } from './wallet.js';

export const PROFILE_NAMES = ['sim', 'mainnet'] as const;
export const ProfileNameSchema = z.enum(PROFILE_NAMES);
export type ProfileName = z.infer<typeof ProfileNameSchema>;

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  profile: z.string(),
  platform: z.string(),
  /** Why the vault (the keychain) is closed for this session, with what to do; null when it is open. */
  vault_closed: z.string().nullable(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

export const MainnetUrlsSchema = z.strictObject({
  /** Trading API root including /api/v1. */
  base_url: z.string().min(1).max(2048),
  /** The venue's info API. */
  venue_info_url: z.string().min(1).max(2048),
  /** The venue's WebSocket; derived from the info URL when omitted and it ends in /info. */
  venue_ws_url: z.string().min(1).max(2048).optional(),
});
export type MainnetUrls = z.infer<typeof MainnetUrlsSchema>;

export const ProfileViewSchema = z.object({
  active: ProfileNameSchema,
  /** The signed environment literal of the active profile. */
  environment: z.enum(['Mainnet', 'Testnet']),
  sim: z.object({ running: z.boolean(), base_url: z.string().nullable() }),
  mainnet: z.object({
    base_url: z.string().nullable(),
    venue_info_url: z.string().nullable(),
    venue_ws_url: z.string().nullable(),
    /** Both required URLs are set: the profile can be switched to. */
    configured: z.boolean(),
  }),
});
export type ProfileView = z.infer<typeof ProfileViewSchema>;

export const SetProfileRequestSchema = z.strictObject({
  profile: ProfileNameSchema,
  /** Mainnet URLs to store first (validated; a bad URL is never stored). */
  mainnet: MainnetUrlsSchema.optional(),
});

export const SessionEventSchema = z.object({ profile: ProfileNameSchema, wallet: WalletViewSchema, sim_running: z.boolean() });
