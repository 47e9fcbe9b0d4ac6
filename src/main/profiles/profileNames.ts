/**
 * The profile names on their own, with no imports: the command line's global options list them in
 * `perps --help`, which must not load the settings store or the signing code that profiles.ts needs.
 */
export const PROFILE_NAMES = ['sim', 'mainnet'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];
export const DEFAULT_PROFILE: ProfileName = 'sim';
