/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose: a worker's first line requires it synchronously */
/**
 * A trap for every outbound connection and name lookup of the process it is installed in: net and tls
 * sockets (and so http, https, WebSocket and fetch/undici, which all open their sockets through
 * net.Socket.prototype.connect), dgram, and dns (lookup, the promises API and resolve*). Every attempt
 * is recorded; one to anything but loopback (127.0.0.0/8, ::1, localhost, a local socket path) is
 * refused BEFORE a socket is opened or a query sent, with an error like the system's own, so a test
 * proves "nothing leaves the machine" without ever sending anything off it.
 *
 * A name that passes (localhost) is held to its answer too: whatever lookup resolves it (the system's, or
 * a `lookup` option of the connect call pointing localhost elsewhere) must give loopback addresses, or
 * the attempt is refused before the socket connects. Worker threads get the same trap: every Worker is
 * started with this module imported first, and reports its attempts to the main thread's records.
 *
 * Plain CommonJS (connectionTrap.mjs re-exports it) so that bootScenario.mjs (plain Node), the TypeScript
 * tests and a worker's first line (a synchronous require, before the worker's own code) share it.
 */
'use strict';
const dgram = require('node:dgram');
const dns = require('node:dns');
const net = require('node:net');
const os = require('node:os');
const { syncBuiltinESMExports } = require('node:module');
const workerThreads = require('node:worker_threads');

/** Where a worker's trap reports its attempts to the main thread's. */
const CHANNEL = 'perps-connection-trap';

/** Loopback by address or by the name every system maps to it. */
function isLoopback(host) {
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

/**
 * A lookup whose every answer must be loopback (issue 36: a `lookup` option pointing localhost at another
 * address passed the name check and connected out). Answers the connect with the trap's refusal instead.
 */
function loopbackOnlyLookup(api, lookup, port, record) {
  return function trappedResolve(hostname, options, callback) {
    if (typeof options === 'function') {
      callback = options;
      options = {};
    }
    return lookup.call(this, hostname, options, (err, address, family) => {
      if (err) return callback(err, address, family);
      const addresses = Array.isArray(address) ? address.map((a) => a.address) : [address];
      const outside = addresses.find((a) => !isLoopback(String(a)));
      if (outside !== undefined) {
        record({ api, host: String(outside), port: port === undefined ? undefined : Number(port), refused: true, via: String(hostname) });
        return callback(refusal(api, `${hostname} (resolved to ${outside})`, port));
      }
      callback(null, address, family);
    });
  };
}

let installed = null;
let handleGuard = false;

/** Whether the handle-level guard is in place in this thread (tests check it before naming any outside address). */
function handleGuardInstalled() {
  return handleGuard && installed !== null;
}

/**
 * Installs the trap (once per process; later calls return the same one). `records` holds every attempt:
 * { api, host, port, refused } or { api, path } for a local socket.
 */
function installConnectionTrap() {
  if (installed) return installed;
  const records = [];
  const originals = [];
  // In a worker, every attempt also goes to the main thread's trap.
  const report = workerThreads.isMainThread ? null : new workerThreads.BroadcastChannel(CHANNEL);
  report?.unref();
  if (report) {
    records.push = (...entries) => {
      for (const e of entries) report.postMessage(e);
      return Array.prototype.push.apply(records, entries);
    };
  }
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
      // A name (localhost) is resolved by the options' lookup or the system's: hold its answer to loopback.
      if (!net.isIP(String(to.host).replace(/^\[|\]$/g, ''))) {
        const normalized = Array.isArray(args[0]);
        const given = normalized ? args[0][0] : args[0];
        if (given !== null && typeof given === 'object') {
          const options = { ...given, lookup: loopbackOnlyLookup(api, typeof given.lookup === 'function' ? given.lookup : dns.lookup, to.port, (e) => records.push(e)) };
          // Node's own normalized [options, cb] array carries a marker symbol: replaced in place.
          if (normalized) args[0][0] = options;
          else args[0] = options;
        }
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

  // The last line: the TCP handle's own connect, which every net socket reaches with a resolved address,
  // whatever resolved it. A non-loopback address is answered ECONNREFUSED without a syscall.
  const deprecations = process.noDeprecation;
  process.noDeprecation = true;
  let tcp;
  try {
    tcp = process.binding('tcp_wrap').TCP;
  } finally {
    process.noDeprecation = deprecations;
  }
  for (const key of ['connect', 'connect6']) {
    patch(tcp.prototype, key, (original) =>
      function trappedHandleConnect(req, address, port, ...rest) {
        if (!isLoopback(String(address))) {
          records.push({ api: 'tcp', host: String(address), port: Number(port), refused: true });
          return -os.constants.errno.ECONNREFUSED;
        }
        return original.call(this, req, address, port, ...rest);
      },
    );
  }

  handleGuard = true;

  // Workers: started with this module imported first (their own trap), their records heard here.
  let listener = null;
  if (workerThreads.isMainThread) {
    listener = new workerThreads.BroadcastChannel(CHANNEL);
    listener.unref();
    listener.onmessage = (event) => Array.prototype.push.call(records, { ...event.data, worker: true });
    const OriginalWorker = workerThreads.Worker;
    // The worker runs a first line that installs its own trap synchronously, then its own code: eval code
    // as it was (CommonJS), a file through import() (CommonJS or ESM alike).
    const first = `require(${JSON.stringify(__filename)}).installConnectionTrap();\n`;
    class TrappedWorker extends OriginalWorker {
      constructor(filename, options = {}) {
        if (options.eval) {
          super(first + String(filename), options);
        } else {
          const href = filename instanceof URL ? filename.href : require('node:url').pathToFileURL(String(filename)).href;
          super(`${first}import(${JSON.stringify(href)}).catch((err) => { process.nextTick(() => { throw err; }); });`, { ...options, eval: true });
        }
      }
    }
    originals.push([workerThreads, 'Worker', OriginalWorker]);
    workerThreads.Worker = TrappedWorker;
  }

  // `import { lookup } from 'node:dns'` and the like see the patched functions too.
  syncBuiltinESMExports();

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
      listener?.close();
      report?.close();
      syncBuiltinESMExports();
      handleGuard = false;
      installed = null;
    },
  };
  return installed;
}

module.exports = { isLoopback, handleGuardInstalled, installConnectionTrap };
