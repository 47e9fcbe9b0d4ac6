/**
 * The upstream's URLs: the info API root a user gives, checked, and the WebSocket URL derived from it the
 * way the venue lays them out (https://api.hyperliquid.xyz/info -> wss://api.hyperliquid.xyz/ws).
 *
 * Neither may carry credentials (user:password@): the upstream is public market data, and whatever is in
 * the URL would be printed in the log, returned by GET /sim/follow and sent upstream as Basic auth. A
 * refused URL is never echoed with what stands before an '@'.
 */

/** Parses an http(s) URL or throws an Error saying what is wrong with it. */
export function parseHttpUrl(text: string, what: string): URL {
  return parseUrl(text, what, ['http:', 'https:'], 'an http or https URL');
}

/** Parses a ws(s) URL or throws an Error saying what is wrong with it. */
export function parseWsUrl(text: string, what: string): URL {
  return parseUrl(text, what, ['ws:', 'wss:'], 'a ws or wss URL');
}

function parseUrl(text: string, what: string, protocols: readonly string[], expected: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`${what} must be ${expected}, got ${JSON.stringify(redactCredentials(text))}`);
  }
  // Credentials first: a URL carrying them is refused without being echoed, whatever else is wrong with it.
  if (url.username || url.password) throw new Error(`${what} must not carry credentials`);
  if (!protocols.includes(url.protocol)) throw new Error(`${what} must be ${expected}, got ${JSON.stringify(redactCredentials(text))}`);
  return url;
}

/** Text with whatever stands before its last '@' (within the authority) replaced, so no password is echoed. */
export function redactCredentials(text: string): string {
  return text.includes('@') ? text.replace(/^([a-z][a-z0-9+.-]*:\/*)?[^/?#]*@/i, '$1***@') : text;
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
