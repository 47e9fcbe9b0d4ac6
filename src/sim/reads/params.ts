/**
 * Query and path parameters of the open reads. account_id-keyed routes refuse a plain wallet (and any
 * other text) with 400 naming account_id; wallet-keyed routes need ?wallet= as an address.
 */
import { parseAccountId, toChecksumAddress } from '../../shared/identity/index.js';
import { invalidRequest } from '../core/response.js';

export function accountIdParam(value: string): { accountId: string; wallet: string } {
  if (/^0x[0-9a-fA-F]{40}$/.test(value)) {
    throw invalidRequest('account_id: expected an account_id (wallet + 24 hex zeros); got a plain wallet address');
  }
  try {
    const accountId = parseAccountId(value);
    return { accountId, wallet: accountId.slice(0, 42) };
  } catch (err) {
    throw invalidRequest((err as Error).message);
  }
}

export function walletParam(query: URLSearchParams): string {
  const raw = query.get('wallet');
  if (raw === null || raw === '') throw invalidRequest('wallet: is required');
  try {
    return toChecksumAddress(raw, 'wallet').toLowerCase();
  } catch (err) {
    throw invalidRequest((err as Error).message);
  }
}

function intParam(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw)) throw invalidRequest(`${name}: expected an integer, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n)) throw invalidRequest(`${name}: out of range`);
  return n;
}

/** open-orders, order-history, trade-history, funding-history: limit 1..200, offset >= 0. */
export function strictPage(query: URLSearchParams, defaultLimit: number): { limit: number; offset: number } {
  const limit = intParam(query, 'limit') ?? defaultLimit;
  const offset = intParam(query, 'offset') ?? 0;
  if (limit < 1 || limit > 200) throw invalidRequest(`limit: must be between 1 and 200, got ${limit}`);
  if (offset < 0) throw invalidRequest(`offset: must be 0 or more, got ${offset}`);
  return { limit, offset };
}

/**
 * Deposit and withdrawal history accept limit/offset unbounded: no ceiling and no 400. A negative or
 * unparseable value is ignored (treated as absent); no limit means everything.
 */
export function loosePage(query: URLSearchParams): { limit: number | null; offset: number } {
  const num = (name: string): number | null => {
    const raw = query.get(name);
    if (raw === null || !/^\d+$/.test(raw)) return null;
    const n = Number(raw);
    return Number.isSafeInteger(n) ? n : null;
  };
  return { limit: num('limit'), offset: num('offset') ?? 0 };
}

/** from/to (Unix ms, inclusive) filters. */
export function timeRange(query: URLSearchParams): { from: number | null; to: number | null } {
  return { from: intParam(query, 'from') ?? null, to: intParam(query, 'to') ?? null };
}

export function inRange(t: number, r: { from: number | null; to: number | null }): boolean {
  return (r.from === null || t >= r.from) && (r.to === null || t <= r.to);
}
