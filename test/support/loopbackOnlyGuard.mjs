/**
 * Loaded into a `perps` child with NODE_OPTIONS=--import: any attempt to open a socket to a host that is
 * not loopback (127.0.0.0/8, ::1, localhost), or to resolve a name other than localhost, ends the process
 * at once with exit code 97 and a line on stderr, before the connection or the lookup starts. Tests of
 * refusals that must happen before any connection use it: a test passes only if nothing was attempted.
 */
import dns from 'node:dns';
import net from 'node:net';

export const GUARD_EXIT = 97;

function loopback(host) {
  if (host === undefined || host === null || host === '' || host === 'localhost') return true;
  const h = String(host).replace(/^\[|\]$/g, '');
  return h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function trip(what) {
  process.stderr.write(`LOOPBACK GUARD: refused ${what}\n`);
  process.exit(GUARD_EXIT);
}

const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function guardedConnect(...args) {
  let options = args[0];
  if (Array.isArray(options)) options = options[0];
  if (typeof options !== 'object' || options === null) options = { port: args[0], host: typeof args[1] === 'string' ? args[1] : undefined };
  if (options.path === undefined && !loopback(options.host)) trip(`a connection to ${options.host}:${options.port}`);
  return connect.apply(this, args);
};

for (const target of [dns, dns.promises]) {
  const lookup = target.lookup;
  target.lookup = function guardedLookup(hostname, ...rest) {
    if (!loopback(hostname)) trip(`a DNS lookup of ${hostname}`);
    return lookup.call(this, hostname, ...rest);
  };
}
