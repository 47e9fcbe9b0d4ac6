/**
 * One HTTP server, one port, every interface of the simulated world under its own path:
 *
 *   /api/v1        trading API ({base_url})            /bridge/v1     bridge ({bridge_url})
 *   /platform      points ({platform_url})             /aggregator/v1 aggregator ({aggregator_url})
 *   /inference     inference ({inference_url})         /rpc/<chain>   EVM JSON-RPC of each chain
 *   /venue/info    venue info API                      /venue/ws      venue WebSocket (upgrade)
 *   /sim           control API                         /sim/companion companion control
 *
 * Every route, the WebSocket's upgrade included, answers local programs only (./control/localOnly.ts).
 */
import http from 'node:http';
import { createRequestListener, listen, type Mount, type Refusal, type RunningServer } from './runtime/router.js';
import { json, type RouteModule, type SimResponse } from './runtime/http.js';
import type { BeforeRoute } from './runtime/router.js';
import { errorResponse } from './core/response.js';
import { localOnlyRefusal } from './control/localOnly.js';
import { inferenceError } from './companion/inference/errors.js';

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

/**
 * Every interface's routes, each with its refusal (./control/localOnly.ts) in that interface's own error
 * shape: the trading and control APIs' envelope, the bridge, points and aggregator `{ error }`, the
 * inference API's error object, a JSON-RPC error, and the venue's bare string. Companion shapes without
 * an error code for these statuses (bridge, points) carry the message only.
 */
export function mountsFor(m: ServerModules, now: () => number): Mount[] {
  const envelope = (r: Refusal): SimResponse => errorResponse(r.status, r.code, r.message, now());
  const plain = (r: Refusal): SimResponse => json(r.status, { error: r.message });
  return [
    { prefix: PATHS.base, module: m.trading, refused: envelope },
    { prefix: PATHS.bridge, module: m.bridge, refused: plain },
    { prefix: PATHS.platform, module: m.points, refused: plain },
    { prefix: PATHS.aggregator, module: m.aggregator, refused: plain },
    { prefix: PATHS.inference, module: m.inference, refused: (r) => inferenceError(r.status, r.status === 415 ? 'invalid_request' : null, r.message) },
    // -32600 is JSON-RPC's "invalid request"; the HTTP status says why.
    { prefix: PATHS.rpc, module: m.rpc, refused: (r) => json(r.status, { jsonrpc: '2.0', id: null, error: { code: -32600, message: r.message } }) },
    { prefix: PATHS.venueInfo, module: m.venueInfo, refused: (r) => json(r.status, r.message) },
    { prefix: PATHS.control, module: m.control, refused: envelope },
    { prefix: PATHS.companionControl, module: m.companionControl, refused: plain },
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
    mountsFor(modules, now),
    (path) => ({ status: 404, body: { success: false, error: { code: 'NOT_FOUND', message: `no route ${path}` }, timestamp: now() } }),
    beforeRoute,
    (limitBytes) => errorResponse(413, 'PAYLOAD_TOO_LARGE', `request body is over the ${limitBytes}-byte limit`, now()),
    // The server listens on 127.0.0.1 only, so every route answers local programs only.
    (req) => localOnlyRefusal({ method: req.method ?? 'GET', headers: req.headers, rawHeaders: req.rawHeaders }),
  );
  const server = http.createServer((req, res) => {
    void listener(req, res);
  });
  // Keep-alive connections are reused by clients and benchmarks; the default 5 s is fine but explicit.
  server.keepAliveTimeout = 5_000;
  attachUpgrades(server);
  return listen(server, port);
}
