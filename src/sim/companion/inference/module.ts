/**
 * Inference API ({inference_url}), OpenAI-style: POST /v1/chat/completions, GET /v1/models,
 * GET /v1/models/{id}, POST /v1/videos, GET /v1/videos/{id}.
 *
 * The key is presented as `Authorization: Bearer <key>`: the spec does not show how keys are presented
 * (Authentication > Inference API credential); this is the chat-completions convention.
 *
 * Order of checks (the spec lists the codes, not their precedence; this is the simulator's):
 *   unknown endpoint 404 not_found -> 429 rate_limited (per client address, rateLimit.ts; then a key's own
 *   test window) -> key 401 invalid_api_key / key_disabled -> body 400 invalid_request -> unknown model 404
 *   not_found -> request 400 invalid_request -> 402 insufficient_balance -> 403 spending limit -> hosts
 *   (failover), all failed 502 / 503 host_unavailable.
 * The rate limit comes before the key because the spec's 429 is about the address ("too many requests from
 * the address"), not about a key.
 * Refused requests are never charged. Balance and limit are checked against the most the request can cost
 * (prompt plus max_tokens, or a video's price); a completed request is charged its actual usage, a host
 * failing partway the work it did (spec: "a request failing partway is charged for what the model already
 * did"), and the total never exceeds that reservation.
 */
import type { RouteModule, SimRequest, SimResponse } from '../../runtime/http.js';
import type { SimClock } from '../../runtime/clock.js';
import type { SeededRandom } from '../../runtime/random.js';
import type { CompanionConfig, InferenceModelConfig } from '../config.js';
import { Dec } from '../common/amounts.js';
import { InferenceFailure, fail, inferenceError } from './errors.js';
import { KeyStore, type KeyState } from './keys.js';
import { HostPool, type HostFailure, type HostsState } from './hosts.js';
import { AddressWindows, normalizeAddress } from './rateLimit.js';
import { parseChat, tokensOf } from './chat.js';
import { parseVideo, videoJson, videoStatus, type VideoJob } from './videos.js';

export interface InferenceState {
  keys: KeyState[];
  hosts: HostsState;
  videos: VideoJob[];
}

const LOOPBACK = '127.0.0.1';

/**
 * The request's client address. The router passes the peer address as `remoteAddress`; without one (a
 * module called directly) the request counts as loopback's, which every client of the simulator is (it
 * listens on 127.0.0.1 only).
 */
function clientAddress(req: SimRequest): string {
  return req.remoteAddress ? normalizeAddress(req.remoteAddress) : LOOPBACK;
}

/** The token of `Authorization: Bearer <token>`, or null when the header is missing or not of that form. */
function bearerToken(header: string | undefined): string | null {
  if (header === undefined) return null;
  return /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1] ?? null;
}

type Route = { kind: 'chat' } | { kind: 'models' } | { kind: 'model'; id: string } | { kind: 'video-create' } | { kind: 'video-get'; id: string };

function route(method: string, path: string): Route | null {
  if (method === 'POST' && path === '/v1/chat/completions') return { kind: 'chat' };
  if (method === 'GET' && path === '/v1/models') return { kind: 'models' };
  if (method === 'POST' && path === '/v1/videos') return { kind: 'video-create' };
  const model = /^\/v1\/models\/([^/]+)$/.exec(path);
  if (method === 'GET' && model?.[1]) return { kind: 'model', id: model[1] };
  const video = /^\/v1\/videos\/([^/]+)$/.exec(path);
  if (method === 'GET' && video?.[1]) return { kind: 'video-get', id: video[1] };
  return null;
}

/** Model ids may contain '/' sent as %2F; a malformed escape is a bad parameter (400 invalid_request). */
function decodeId(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch (err) {
    if (err instanceof URIError) fail(400, 'invalid_request', `the path segment ${JSON.stringify(raw)} is not valid percent-encoding`);
    throw err;
  }
}

interface HostOutcome {
  host: string | null;
  /** How every tried host failed, in order. */
  failures: HostFailure[];
}

export class InferenceService {
  readonly keys: KeyStore;
  readonly hosts: HostPool;
  private readonly models: Map<string, InferenceModelConfig>;
  private videos = new Map<string, VideoJob>();
  private readonly addresses: AddressWindows;
  private readonly createdAt: number;

  constructor(
    private readonly config: CompanionConfig,
    private readonly clock: SimClock,
    private readonly random: SeededRandom,
  ) {
    this.keys = new KeyStore(config, clock);
    this.models = new Map(config.inference.models.map((m) => [m.id, m]));
    this.hosts = new HostPool(new Map(config.inference.models.map((m) => [m.id, m.hosts])));
    this.addresses = new AddressWindows(clock);
    this.createdAt = Math.floor(clock.now() / 1000);
  }

  hasModel(id: string): boolean {
    return this.models.has(id);
  }

  handle(req: SimRequest): SimResponse {
    const r = route(req.method, req.path);
    if (!r) return inferenceError(404, 'not_found', `no such endpoint: ${req.method} ${req.path}`);
    try {
      this.limitRate(req);
      const key = this.authenticate(req.headers.authorization);
      switch (r.kind) {
        case 'chat':
          return this.chat(key, req);
        case 'models':
          return { status: 200, body: { object: 'list', data: [...this.models.values()].map((m) => this.modelJson(m)) } };
        case 'model': {
          const id = decodeId(r.id);
          const m = this.models.get(id);
          if (!m) fail(404, 'not_found', `model not found: ${id} (see GET /v1/models)`);
          return { status: 200, body: this.modelJson(m) };
        }
        case 'video-create':
          return this.createVideo(key, req);
        case 'video-get':
          return this.getVideo(key, decodeId(r.id));
      }
    } catch (err) {
      if (err instanceof InferenceFailure) return err.response;
      throw err;
    }
  }

  /**
   * 429 when the client's address has used its window (or the presented key its own test window); else the
   * request is counted in both. Runs before authentication, so a wrong key is counted too.
   */
  private limitRate(req: SimRequest): void {
    const address = clientAddress(req);
    const token = bearerToken(req.headers.authorization);
    // Only looked up for its test window: whether the key is valid is authenticate()'s business.
    const presented = token === null ? undefined : this.keys.get(token);
    const addressWait = this.addresses.wait(address, this.config.inference.rateLimit);
    const keyWait = presented ? this.keys.rateWait(presented) : null;
    if (addressWait !== null || keyWait !== null) {
      const waitMs = Math.max(addressWait ?? 0, keyWait ?? 0);
      const why = addressWait !== null ? 'too many requests from this address' : 'too many requests with this key';
      fail(429, 'rate_limited', `${why}; back off and retry`, { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) });
    }
    this.addresses.record(address);
    if (presented) this.keys.recordRate(presented);
  }

  private authenticate(header: string | undefined): KeyState {
    if (header === undefined) fail(401, 'invalid_api_key', 'no API key provided; send Authorization: Bearer <key>');
    const token = bearerToken(header);
    if (token === null) fail(401, 'invalid_api_key', 'malformed Authorization header; expected Bearer <key>');
    const key = this.keys.get(token);
    if (!key || key.deleted) fail(401, 'invalid_api_key', 'invalid API key; check it or create a new one');
    if (key.disabled) fail(401, 'key_disabled', 'this API key is disabled; enable it to use it');
    return key;
  }

  private body(req: SimRequest): { body: Record<string, unknown>; model: InferenceModelConfig } {
    if (req.bodyError) fail(400, 'invalid_request', `invalid request body: ${req.bodyError}`);
    if (req.rawBody.length > this.config.inference.maxRequestChars) fail(400, 'invalid_request', `request too large: at most ${this.config.inference.maxRequestChars} characters`);
    const body = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) fail(400, 'invalid_request', 'request body must be a JSON object');
    const b = body as Record<string, unknown>;
    if (b.model === undefined) fail(400, 'invalid_request', 'missing required parameter: model');
    if (typeof b.model !== 'string' || b.model === '') fail(400, 'invalid_request', 'model must be a string');
    const model = this.models.get(b.model);
    if (!model) fail(404, 'not_found', `model not found: ${b.model} (see GET /v1/models)`);
    return { body: b, model };
  }

  /** 402 / 403 before any host is asked: a refused request costs nothing. */
  private checkFunds(key: KeyState, reserve: Dec): void {
    const balance = new Dec(key.balance);
    if (balance.lt(reserve)) fail(402, 'insufficient_balance', `available balance ${balance.toFixed()} USD cannot cover this request (up to ${reserve.toFixed()} USD); deposit or lower max_tokens`);
    if (key.spendingLimit !== null) {
      const spent = this.keys.spent(key);
      if (spent.add(reserve).gt(key.spendingLimit)) fail(403, null, `spending limit of ${key.spendingLimit} USD reached for this key (spent ${spent.toFixed()} USD this period); raise it or wait for the reset`);
    }
  }

  private tryHosts(model: InferenceModelConfig, onPartial: () => void): HostOutcome {
    const failures: HostFailure[] = [];
    for (const host of this.hosts.order(model.id)) {
      const st = this.hosts.state(model.id, host);
      if (st.up) return { host, failures };
      failures.push(st.failure);
      if (st.failure === 'partial') onPartial();
    }
    return { host: null, failures };
  }

  private allHostsFailed(model: InferenceModelConfig, failures: HostFailure[]): never {
    // 503 when no host answered at all; 502 when hosts answered but failed. Their own errors stay internal.
    const status = failures.every((f) => f === 'unreachable') ? 503 : 502;
    fail(status, 'host_unavailable', `the hosts of ${model.id} could not answer; retry shortly`);
  }

  private chat(key: KeyState, req: SimRequest): SimResponse {
    const { body, model } = this.body(req);
    const chat = parseChat(body, model, this.config.inference.maxMessages);
    const cost = (prompt: number, completion: number) => new Dec(prompt).mul(model.inputPerMTok).add(new Dec(completion).mul(model.outputPerMTok)).div(1_000_000);
    const reserve = cost(chat.promptTokens, chat.maxTokens);
    this.checkFunds(key, reserve);

    const fullTokens = tokensOf(chat.reply);
    const completionTokens = Math.min(fullTokens, chat.maxTokens);
    let charged = new Dec(0);
    const chargeCapped = (amount: Dec) => {
      const c = Dec.min(amount, reserve.sub(charged));
      this.keys.charge(key, c);
      charged = charged.add(c);
    };
    const outcome = this.tryHosts(model, () => chargeCapped(cost(chat.promptTokens, Math.ceil(completionTokens / 2))));
    if (outcome.host === null) this.allHostsFailed(model, outcome.failures);
    chargeCapped(cost(chat.promptTokens, completionTokens));

    const content = completionTokens < fullTokens ? chat.reply.slice(0, completionTokens * 4) : chat.reply;
    return {
      status: 200,
      headers: { 'x-sim-host': outcome.host },
      body: {
        id: `chatcmpl-${this.random.hex(12)}`,
        object: 'chat.completion',
        created: Math.floor(this.clock.now() / 1000),
        model: model.id,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: completionTokens < fullTokens ? 'length' : 'stop' }],
        usage: { prompt_tokens: chat.promptTokens, completion_tokens: completionTokens, total_tokens: chat.promptTokens + completionTokens, cost: charged.toFixed() },
      },
    };
  }

  private createVideo(key: KeyState, req: SimRequest): SimResponse {
    const { body, model } = this.body(req);
    const v = parseVideo(body, model);
    const price = new Dec(model.usdPerSecond).mul(v.seconds);
    this.checkFunds(key, price);
    // The price is the reservation: a host failing partway is charged the render it did (half the clip, the
    // same share a partial chat host is charged of its completion), the accepted job the rest, and the
    // total never exceeds the price. All hosts failing partway leaves only the partial charges.
    let charged = new Dec(0);
    const chargeCapped = (amount: Dec) => {
      const c = Dec.min(amount, price.sub(charged));
      this.keys.charge(key, c);
      charged = charged.add(c);
    };
    const outcome = this.tryHosts(model, () => chargeCapped(price.div(2)));
    if (outcome.host === null) this.allHostsFailed(model, outcome.failures);
    chargeCapped(price);
    const now = this.clock.now();
    const job: VideoJob = { id: `video_${this.random.hex(12)}`, key: key.key, model: model.id, prompt: v.prompt, seconds: v.seconds, size: v.size, host: outcome.host, createdAt: now, completeAt: now + v.seconds * model.renderMsPerSecond };
    this.videos.set(job.id, job);
    return { status: 200, headers: { 'x-sim-host': outcome.host }, body: videoJson(job, now) };
  }

  private getVideo(key: KeyState, id: string): SimResponse {
    const job = this.videos.get(id);
    if (!job || job.key !== key.key) fail(404, 'not_found', `video not found: ${id}`);
    const now = this.clock.now();
    const s = videoStatus(job, now);
    if (s.status !== 'completed') fail(409, 'video_not_ready', `video ${id} is not ready (${s.status}, ${s.progress}% done); poll until completed`);
    return { status: 200, body: videoJson(job, now) };
  }

  private modelJson(m: InferenceModelConfig): Record<string, unknown> {
    return {
      id: m.id,
      object: 'model',
      created: this.createdAt,
      owned_by: m.ownedBy,
      kind: m.kind,
      hosts: m.hosts.length,
      ...(m.kind === 'chat'
        ? { context_length: m.contextTokens, max_output_tokens: m.maxOutputTokens, vision: m.vision, pricing: { input_per_mtok: m.inputPerMTok, output_per_mtok: m.outputPerMTok } }
        : { max_seconds: m.maxSeconds, pricing: { per_second: m.usdPerSecond } }),
    };
  }

  exportState(): InferenceState {
    return { keys: this.keys.exportState(), hosts: this.hosts.exportState(), videos: [...this.videos.values()].map((v) => ({ ...v })) };
  }

  importState(s: InferenceState): void {
    this.keys.importState(s.keys);
    this.hosts.importState(s.hosts);
    this.videos = new Map(s.videos.map((v) => [v.id, { ...v }]));
  }
}

export function createInferenceModule(service: InferenceService): RouteModule {
  return { handle: (req) => service.handle(req) };
}
