/**
 * Loopback stand-ins for the mainnet profile's services, in a child process of the test (so the test
 * process's connection trap sees only what the app connects to): a simulator pretending to be the
 * Mainnet service, behind one TCP forwarder per configured service, each on its own loopback address
 * (127.0.0.2 trading API, .3 venue, .4 bridge, .5 platform, .6 aggregator, .7 inference, .8 JSON-RPC).
 * The parent reads the addresses from the first IPC message and ends the child with SIGTERM.
 *
 *   fork('mainnetStandIn.ts', { execArgv: ['--import', 'tsx'] })
 */
import net from 'node:net';
import { startSimulator } from '../../../src/sim/index.js';

export const STAND_IN_HOSTS = {
  trading: '127.0.0.2',
  venue: '127.0.0.3',
  bridge: '127.0.0.4',
  platform: '127.0.0.5',
  aggregator: '127.0.0.6',
  inference: '127.0.0.7',
  rpc: '127.0.0.8',
} as const;

export type StandInService = keyof typeof STAND_IN_HOSTS;
export type StandInOrigins = Record<StandInService, string> & { simControl: string };

async function forwarder(host: string, targetPort: number): Promise<net.Server> {
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, '127.0.0.1');
    client.pipe(upstream).pipe(client);
    const close = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close);
    upstream.on('error', close);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, host, () => resolve()));
  return server;
}

async function main(): Promise<void> {
  const sim = await startSimulator({ port: 0, seed: 11, config: { environment: 'Mainnet' } });
  const simPort = Number(new URL(sim.urls.base_url).port);
  const servers: net.Server[] = [];
  const origins: Partial<StandInOrigins> = { simControl: new URL(sim.urls.control_url).origin };
  for (const [service, host] of Object.entries(STAND_IN_HOSTS)) {
    const server = await forwarder(host, simPort);
    servers.push(server);
    origins[service as StandInService] = `http://${host}:${(server.address() as net.AddressInfo).port}`;
  }
  process.send?.(origins);
  process.on('message', (msg: { control?: string; body?: unknown; id?: number }) => {
    if (!msg.control) return;
    void fetch(`${sim.urls.control_url}/${msg.control}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(msg.body ?? {}) })
      .then(async (r) => process.send?.({ id: msg.id, status: r.status, body: await r.text() }))
      .catch((err: unknown) => process.send?.({ id: msg.id, status: 0, body: String(err) }));
  });
  process.on('SIGTERM', () => {
    for (const s of servers) s.close();
    void sim.stop().finally(() => process.exit(0));
  });
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
