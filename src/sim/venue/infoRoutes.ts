/**
 * The venue's public info endpoint: POST / with a JSON body {type: ...}, answered in the venue's
 * exact shape. Its errors are the venue's too: the venue's HTTP framework answers bodies it cannot
 * parse as JSON with 400 "Failed to parse the request body as JSON: ..." and bodies of the wrong
 * shape (unknown type, missing or mistyped field) with 422 "Failed to deserialize the JSON body into
 * the target type: ...", as a bare string rather than an object.
 */
import { json, type RouteModule, type SimRequest, type SimResponse } from '../runtime/http.js';
import { infoRequestSchema, type InfoRequest } from './infoRequest.js';
import type { VenueMarketSource } from './venueTypes.js';

export { infoRequestSchema, type InfoRequest };

const INFO_TYPES = infoRequestSchema.options.map((option) => option.shape.type.value);

const DESERIALIZE_ERROR = 'Failed to deserialize the JSON body into the target type';
const PARSE_ERROR = 'Failed to parse the request body as JSON';

/** Answers one parsed info request; `null` bodies are the venue's answer for an unknown coin where it has one. */
export function answerInfo(venue: VenueMarketSource, request: InfoRequest): unknown {
  switch (request.type) {
    case 'meta':
      return venue.meta();
    case 'metaAndAssetCtxs':
      return [venue.meta(), venue.assetCtxs()];
    case 'allMids':
      return venue.allMids();
    case 'l2Book':
      if (!venue.hasAsset(request.coin)) return null;
      return venue.l2Book(request.coin, request.nSigFigs ?? null, request.mantissa ?? null);
    case 'candleSnapshot': {
      const { coin, interval, startTime, endTime } = request.req;
      if (!venue.hasAsset(coin)) return [];
      return venue.candles(coin, interval, startTime, endTime ?? Number.MAX_SAFE_INTEGER);
    }
    case 'fundingHistory':
      if (!venue.hasAsset(request.coin)) return [];
      return venue.fundingHistory(request.coin, request.startTime, request.endTime ?? undefined);
    case 'predictedFundings':
      return venue.predictedFundings();
    case 'recentTrades':
      // The venue answers an unknown coin with an empty list, as it does for candles.
      if (!venue.hasAsset(request.coin)) return [];
      return venue.recentTrades(request.coin);
  }
}

/**
 * Validates an info body the way the venue's deserializer does and returns either the request or
 * the venue's error text (without the common prefix).
 */
export function parseInfoRequest(body: unknown): { ok: true; request: InfoRequest } | { ok: false; detail: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, detail: `invalid type: ${describe(body)}, expected internally tagged enum InfoRequest` };
  }
  const type = (body as Record<string, unknown>).type;
  if (type === undefined) return { ok: false, detail: 'missing field `type`' };
  if (typeof type !== 'string' || !(INFO_TYPES as string[]).includes(type)) {
    return { ok: false, detail: `unknown variant \`${String(type)}\`, expected one of ${INFO_TYPES.map((t) => `\`${t}\``).join(', ')}` };
  }
  const parsed = infoRequestSchema.safeParse(body);
  if (parsed.success) {
    const request = parsed.data;
    if (request.type === 'l2Book' && request.mantissa != null && request.nSigFigs !== 5) {
      return { ok: false, detail: 'invalid value: mantissa is only allowed with nSigFigs 5' };
    }
    return { ok: true, request };
  }
  const issue = parsed.error.issues[0];
  const field = issue?.path[issue.path.length - 1];
  const value = issue?.path.reduce<unknown>((node, key) => (typeof node === 'object' && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined), body);
  if (value === undefined && field !== undefined) return { ok: false, detail: `missing field \`${String(field)}\`` };
  return { ok: false, detail: `invalid value: ${describe(value)} for field \`${String(field ?? 'type')}\`` };
}

export function createInfoModule(venue: VenueMarketSource): RouteModule {
  return {
    handle(request: SimRequest): Promise<SimResponse> | SimResponse | null {
      if (request.path !== '/') return null;
      if (request.method !== 'POST') return json(405, 'Method Not Allowed');
      if (request.bodyError !== undefined) return json(400, `${PARSE_ERROR}: ${request.bodyError}`);
      if (request.body === undefined) return json(400, `${PARSE_ERROR}: EOF while parsing a value at line 1 column 0`);
      const parsed = parseInfoRequest(request.body);
      if (!parsed.ok) return json(422, `${DESERIALIZE_ERROR}: ${parsed.detail}`);
      // Candles and funding history of a market that follows an upstream venue are the upstream's.
      const proxied = venue.proxyInfo(parsed.request);
      if (proxied) return proxied.then((body) => json(200, body));
      return json(200, answerInfo(venue, parsed.request));
    },
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'sequence';
  if (typeof value === 'object') return 'map';
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === 'boolean') return `boolean \`${value}\``;
  return String(value);
}
