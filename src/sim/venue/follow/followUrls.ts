/**
 * The upstream's URLs: the info API root a user gives, checked, and the WebSocket URL derived from it the
 * way the venue lays them out (https://api.hyperliquid.xyz/info -> wss://api.hyperliquid.xyz/ws).
 */

/** Parses an http(s) URL or throws an Error saying what is wrong with it. */
export function parseHttpUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${what} must be an http or https URL, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${what} must be an http or https URL, got ${JSON.stringify(text)}`);
  if (url.username || url.password) throw new Error(`${what} must not carry credentials`);
  return url;
}

export function parseWsUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${what} must be a ws or wss URL, got ${JSON.stringify(text)}`);
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') throw new Error(`${what} must be a ws or wss URL, got ${JSON.stringify(text)}`);
  return url;
}

/** …/info -> …/ws on the same host, http -> ws and https -> wss; a root without /info gets /ws appended. */
export function deriveWsUrl(infoUrl: string): string {
  const url = parseHttpUrl(infoUrl, 'the venue info URL');
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/info') ? path.slice(0, -'/info'.length) + '/ws' : path + '/ws';
  url.search = '';
  return url.toString();
}
