/**
 * One HTTP server, one port, every interface of the simulated world under its own path:
 *
 *   /api/v1        trading API ({base_url})            /bridge/v1     bridge ({bridge_url})
 *   /platform      points ({platform_url})             /aggregator/v1 aggregator ({aggregator_url})
 *   /inference     inference ({inference_url})         /rpc/<chain>   EVM JSON-RPC of each chain
 *   /venue/info    venue info API                      /venue/ws      venue WebSocket (upgrade)
 *   /sim           control API                         /sim/companion companion control
 */
import http from 'node:http';
import { createRequestListener, listen, type Mount, type RunningServer } from './runtime/router.js';
import type { RouteModule } from './runtime/http.js';
import type { BeforeRoute } from './runtime/router.js';
import { errorResponse } from './core/response.js';

export const PATHS = {
  base: '/api/v1',
  bridge: '/bridge/v1',
  platform: '/platform',
  aggregator: '/aggregator/v1',
  inference: '/inference',
  rpc: '/rpc',
  venueInfo: '/venue/info',
  venueWs: '/venue/ws',
  control: '/sim',
  companionControl: '/sim/companion',
} as const;

export interface SimUrls {
  base_url: string;
  bridge_url: string;
  platform_url: string;
  aggregator_url: string;
  inference_url: string;
  venue_info_url: string;
  venue_ws_url: string;
  control_url: string;
  companion_control_url: string;
  rpc_url: string;
}

export function urlsFor(port: number): SimUrls {
  const http = `http://127.0.0.1:${port}`;
  return {
    base_url: http + PATHS.base,
    bridge_url: http + PATHS.bridge,
    platform_url: http + PATHS.platform,
    aggregator_url: http + PATHS.aggregator,
    inference_url: http + PATHS.inference,
    venue_info_url: http + PATHS.venueInfo,
    venue_ws_url: `ws://127.0.0.1:${port}${PATHS.venueWs}`,
    control_url: http + PATHS.control,
    companion_control_url: http + PATHS.companionControl,
    rpc_url: http + PATHS.rpc,
  };
}

export interface ServerModules {
  trading: RouteModule;
  bridge: RouteModule;
  points: RouteModule;
  aggregator: RouteModule;
  inference: RouteModule;
  rpc: RouteModule;
  venueInfo: RouteModule;
  control: RouteModule;
  companionControl: RouteModule;
}

export function mountsFor(m: ServerModules): Mount[] {
  return [
    { prefix: PATHS.base, module: m.trading },
    { prefix: PATHS.bridge, module: m.bridge },
    { prefix: PATHS.platform, module: m.points },
    { prefix: PATHS.aggregator, module: m.aggregator },
    { prefix: PATHS.inference, module: m.inference },
    { prefix: PATHS.rpc, module: m.rpc },
    { prefix: PATHS.venueInfo, module: m.venueInfo },
    { prefix: PATHS.control, module: m.control },
    { prefix: PATHS.companionControl, module: m.companionControl },
  ];
}

export async function startServer(
  modules: ServerModules,
  port: number,
  now: () => number,
  beforeRoute: BeforeRoute | undefined,
  attachUpgrades: (server: http.Server) => void,
): Promise<RunningServer> {
  const listener = createRequestListener(
    mountsFor(modules),
    (path) => ({ status: 404, body: { success: false, error: { code: 'NOT_FOUND', message: `no route ${path}` }, timestamp: now() } }),
    beforeRoute,
    (limitBytes) => errorResponse(413, 'PAYLOAD_TOO_LARGE', `request body is over the ${limitBytes}-byte limit`, now()),
  );
  const server = http.createServer((req, res) => {
    void listener(req, res);
  });
  // Keep-alive connections are reused by clients and benchmarks; the default 5 s is fine but explicit.
  server.keepAliveTimeout = 5_000;
  attachUpgrades(server);
  return listen(server, port);
}
