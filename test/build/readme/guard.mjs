/**
 * The README test's guard, loaded into every Node process of the run with NODE_OPTIONS=--import: the
 * project's loopback guard (test/support/loopbackOnlyGuard.mjs: a connection to, or a lookup of, anything
 * but loopback ends the process), plus one allowance it lacks. Vite's dev server (`npm run dev`) "looks
 * up" the wildcard addresses (0.0.0.0, and :: written out in full) to print its URLs: address literals,
 * which need no DNS, so any address literal is answered here with itself and never reaches a resolver.
 * Connections are still guarded as before.
 */
import dns from 'node:dns';
import net from 'node:net';
import '../../support/loopbackOnlyGuard.mjs';

/** The family of an address literal (4 or 6), or undefined for a name. */
const literalFamily = (hostname) => (net.isIP(String(hostname)) === 0 ? undefined : net.isIP(String(hostname)));

const lookup = dns.lookup;
dns.lookup = function lookupLiteral(hostname, options, callback) {
  const family = literalFamily(hostname);
  if (family === undefined) return lookup.call(this, hostname, options, callback);
  const done = typeof options === 'function' ? options : callback;
  const all = typeof options === 'object' && options !== null && options.all === true;
  process.nextTick(() => (all ? done(null, [{ address: hostname, family }]) : done(null, hostname, family)));
  return undefined;
};

const lookupPromise = dns.promises.lookup;
dns.promises.lookup = async function lookupLiteral(hostname, options) {
  const family = literalFamily(hostname);
  if (family === undefined) return lookupPromise.call(this, hostname, options);
  const all = typeof options === 'object' && options !== null && options.all === true;
  return all ? [{ address: hostname, family }] : { address: hostname, family };
};
