/**
 * Plain loopback HTTP for the conformance suite: fetch, JSON in and out, nothing from the app.
 * Every answer is kept whole (status, parsed body, raw text) so tests can assert exact codes.
 */

/** Parsed JSON of a response. Loosely typed on purpose: the tests assert its shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type J = any;

export interface Res {
  status: number;
  body: J;
  text: string;
}

export type Query = Record<string, string | number | boolean | undefined>;

export function withQuery(url: string, query?: Query): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${url}?${qs}` : url;
}

export class Http {
  /** Latest `timestamp` seen in a trading-API envelope (the server's clock). */
  lastServerTime = 0;

  constructor(readonly root: string) {}

  async request(method: string, path: string, body?: unknown, query?: Query): Promise<Res> {
    const url = withQuery(this.root + path, query);
    const init: RequestInit = { method, headers: {} };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers = { 'content-type': 'application/json' };
    }
    const r = await fetch(url, init);
    const text = await r.text();
    let parsed: J = undefined;
    try {
      parsed = text.length ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed && typeof parsed === 'object' && typeof parsed.timestamp === 'number') {
      this.lastServerTime = Math.max(this.lastServerTime, parsed.timestamp);
    }
    return { status: r.status, body: parsed, text };
  }

  get(path: string, query?: Query): Promise<Res> {
    return this.request('GET', path, undefined, query);
  }

  post(path: string, body?: unknown, query?: Query): Promise<Res> {
    return this.request('POST', path, body ?? {}, query);
  }
}

export function describeRes(res: Res): string {
  return `HTTP ${res.status} ${res.text.slice(0, 600)}`;
}
