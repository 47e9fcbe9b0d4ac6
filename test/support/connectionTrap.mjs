/**
 * A trap for every outbound connection and name lookup of the process it is installed in: net and tls
 * sockets (and so http, https, WebSocket and fetch/undici, which all open their sockets through
 * net.Socket.prototype.connect), dgram, and dns (lookup, the promises API and resolve*). Every attempt
 * is recorded; one to anything but loopback (127.0.0.0/8, ::1, localhost, a local socket path) is
 * refused BEFORE a socket is opened or a query sent, with an error like the system's own, so a test
 * proves "nothing leaves the machine" without ever sending anything off it.
 *
 * Plain JavaScript so that bootScenario.mjs (plain Node) and the TypeScript tests share it.
 */
import dgram from 'node:dgram';
import dns from 'node:dns';
import net from 'node:net';

/** Loopback by address or by the name every system maps to it. */
export function isLoopback(host) {
  if (typeof host !== 'string' || host === '') return false;
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost') return true;
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice(7) : h;
  return net.isIPv4(v4) && v4.split('.')[0] === '127';
}

function refusal(api, host, port) {
  const err = new Error(`connection trap: ${api} to ${host}${port !== undefined ? `:${port}` : ''} refused before connecting (not loopback)`);
  err.code = 'ECONNREFUSED';
  return err;
}

/** net.Socket#connect's arguments, as Node normalizes them: (options[, cb]), (path[, cb]), (port[, host][, cb]). */
function destinationOf(args) {
  let first = args[0];
  if (Array.isArray(first)) first = first[0]; // internal normalized form [options, cb]
  if (first !== null && typeof first === 'object') return first.path != null ? { path: first.path } : { host: first.host ?? 'localhost', port: first.port };
  if (typeof first === 'string' && !/^\d+$/.test(first)) return { path: first };
  return { host: typeof args[1] === 'string' ? args[1] : 'localhost', port: first };
}

let installed = null;

/**
 * Installs the trap (once per process; later calls return the same one). `records` holds every attempt:
 * { api, host, port, refused } or { api, path } for a local socket.
 */
export function installConnectionTrap() {
  if (installed) return installed;
  const records = [];
  const originals = [];
  const patch = (owner, key, make) => {
    const original = owner[key];
    if (typeof original !== 'function') return;
    originals.push([owner, key, original]);
    owner[key] = make(original);
  };

  patch(net.Socket.prototype, 'connect', (original) =>
    function trappedConnect(...args) {
      const to = destinationOf(args);
      const api = this.encrypted !== undefined || this._tlsOptions ? 'tls' : 'net';
      if (to.path !== undefined) {
        records.push({ api, path: String(to.path) });
        return original.apply(this, args);
      }
      const refused = !isLoopback(String(to.host));
      records.push({ api, host: String(to.host), port: to.port === undefined ? undefined : Number(to.port), refused });
      if (refused) {
        const err = refusal(api, to.host, to.port);
        process.nextTick(() => this.destroy(err));
        return this;
      }
      return original.apply(this, args);
    },
  );

  const trapLookup = (api, original, promised) =>
    function trappedLookup(hostname, ...rest) {
      const refused = !isLoopback(String(hostname));
      records.push({ api, host: String(hostname), refused });
      if (refused) {
        const err = refusal(api, hostname);
        err.code = 'ENOTFOUND';
        if (promised) return Promise.reject(err);
        const cb = rest.findLast((a) => typeof a === 'function');
        if (cb) process.nextTick(() => cb(err));
        return undefined;
      }
      return original.call(this, hostname, ...rest);
    };
  patch(dns, 'lookup', (o) => trapLookup('dns.lookup', o, false));
  patch(dns.promises, 'lookup', (o) => trapLookup('dns.promises.lookup', o, true));
  for (const key of Object.keys(dns)) {
    if (/^resolve/.test(key) || key === 'reverse' || key === 'lookupService') patch(dns, key, (o) => trapLookup(`dns.${key}`, o, false));
  }
  for (const key of Object.keys(dns.promises)) {
    if (/^resolve/.test(key) || key === 'reverse' || key === 'lookupService') patch(dns.promises, key, (o) => trapLookup(`dns.promises.${key}`, o, true));
  }

  patch(dgram.Socket.prototype, 'send', (original) =>
    function trappedSend(msg, ...rest) {
      const address = rest.find((a) => typeof a === 'string');
      const port = rest.find((a) => typeof a === 'number');
      if (address !== undefined) {
        const refused = !isLoopback(address);
        records.push({ api: 'dgram', host: address, port, refused });
        if (refused) throw refusal('dgram', address, port);
      }
      return original.call(this, msg, ...rest);
    },
  );

  installed = {
    records,
    /** Every host:port (or host, for a lookup) reached or tried, without duplicates, sorted. */
    destinations() {
      return [...new Set(records.filter((r) => r.host !== undefined).map((r) => (r.port !== undefined ? `${r.host}:${r.port}` : r.host)))].sort();
    },
    refused() {
      return records.filter((r) => r.refused);
    },
    clear() {
      records.length = 0;
    },
    uninstall() {
      for (const [owner, key, original] of originals.reverse()) owner[key] = original;
      installed = null;
    },
  };
  return installed;
}
