/**
 * Whether a service URL points at this machine: its host is a loopback address (127.0.0.0/8 or ::1) or
 * `localhost`. Decided on the URL's own text as the WHATWG parser normalises it ("127.1" and "2130706433"
 * are 127.0.0.1, "[0:0::1]" is "[::1]"), with no DNS lookup and no connection: a private, link-local or
 * public host is refused before anything is opened. The paper wallet signs only for such a simulator.
 */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  if (host === 'localhost' || host === '[::1]') return true;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return v4 !== null && v4[1] === '127' && v4.slice(2).every((o) => Number(o) <= 255);
}
