/** The venue info URL rule, without zod so the renderer checks a typed URL with the same rule main applies. */

/** An http(s) URL without credentials: a venue's public info API root. */
export function isVenueInfoUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

export const VENUE_INFO_URL_EXAMPLE = 'https://api.hyperliquid.xyz/info';
