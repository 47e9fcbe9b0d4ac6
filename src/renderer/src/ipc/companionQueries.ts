/**
 * Reads of the companion screens (bridge, swap, points, assistant and their settings) as TanStack Query
 * hooks over window.perps, with their query keys, so the `transfers` event (events.ts) and the mutations
 * update the same cache entries the views read.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { IpcRequest, IpcResponse, TransferPhase, TransferView } from '../../../shared/ipc';
import { perps, unwrap } from './client';
import { useWallet } from './queries';

export const cqk = {
  settings: ['companion', 'settings'] as const,
  /** Prefix of every token lookup (balances change after a transfer: invalidate them all). */
  tokenInfoAll: ['bridge', 'tokenInfo'] as const,
  tokenInfo: (chain: string, token: string) => ['bridge', 'tokenInfo', chain, token.toLowerCase()] as const,
  transfers: ['transfers'] as const,
  /**
   * Points keys name whose points (the connected wallet) and under which partner code: main answers for
   * those, so after a wallet or code change the cache must not hand back the previous one's figures.
   */
  pointsEstimate: (who: PointsOwner, r: IpcRequest<'points:estimate'>) =>
    ['points', 'estimate', who.wallet, who.partnerCode, r.src_chain, r.dst_chain, r.src_token.toLowerCase(), r.dst_token.toLowerCase(), r.src_usd, r.dst_usd] as const,
  /** Prefix of every credited-points read (an ended transfer may have been credited). */
  pointsCreditedAll: ['points', 'credited'] as const,
  pointsCredited: (who: PointsOwner, range: PointsRange) =>
    'lastDays' in range
      ? (['points', 'credited', who.wallet, who.partnerCode, 'last', range.lastDays, range.today] as const)
      : (['points', 'credited', who.wallet, who.partnerCode, range.from, range.to] as const),
  assistantStatus: ['assistant', 'status'] as const,
  assistantModels: ['assistant', 'models'] as const,
};

export const useCompanionSettings = () => useQuery({ queryKey: cqk.settings, queryFn: () => unwrap(perps().companion.getSettings()) });

/** Symbol, decimals and the wallet's balance of one token (null request: nothing to look up yet). */
export function useTokenInfo(request: IpcRequest<'bridge:tokenInfo'> | null) {
  return useQuery({
    queryKey: cqk.tokenInfo(request?.chain ?? '', request?.token ?? ''),
    queryFn: () => unwrap(perps().bridge.tokenInfo(request ?? { chain: '', token: '' })),
    enabled: request !== null,
    // Symbol and decimals never change; the balance does, and is refreshed after each transfer.
    staleTime: 30_000,
    retry: false,
  });
}

export const useTransfers = () => useQuery({ queryKey: cqk.transfers, queryFn: () => unwrap(perps().transfers.list()) });

/** The wallet and partner code the points of main's answers belong to. */
interface PointsOwner {
  wallet: string | null;
  partnerCode: string | null;
}

function usePointsOwner(): PointsOwner {
  const wallet = useWallet();
  const settings = useCompanionSettings();
  return { wallet: wallet.data?.address?.toLowerCase() ?? null, partnerCode: settings.data?.partner_code ?? null };
}

export function usePointsEstimate(request: IpcRequest<'points:estimate'> | null) {
  const who = usePointsOwner();
  return useQuery({
    queryKey: request ? cqk.pointsEstimate(who, request) : ['points', 'estimate', 'none'],
    queryFn: () => unwrap(perps().points.estimate(request as IpcRequest<'points:estimate'>)),
    enabled: request !== null,
    staleTime: 60_000,
    retry: false,
  });
}

/**
 * A points range: fixed days (Unix ms, from the first day's local midnight to the end of the last), or
 * the last N days up to the end of today, worked out when the read is made, so a range opened before
 * midnight still takes in what is credited after it. `today` (the view's clock, YYYY-MM-DD) is in the
 * read's key: a new day is a new read.
 */
export type PointsRange = { from: number; to: number } | { lastDays: number; today: string };

/** The last `days` days up to the end of today (local), at `now`. */
export function lastDaysRange(days: number, now: number = Date.now()): { from: number; to: number } {
  const d = new Date(now);
  const from = new Date(d.getFullYear(), d.getMonth(), d.getDate() - days).getTime();
  const to = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime() - 1;
  return { from, to };
}

export function useCreditedPoints(range: PointsRange | null) {
  const who = usePointsOwner();
  return useQuery({
    queryKey: range ? cqk.pointsCredited(who, range) : ['points', 'credited', 'none'],
    queryFn: () => unwrap(perps().points.credited(range === null ? { from: 0, to: 0 } : 'lastDays' in range ? lastDaysRange(range.lastDays) : range)),
    enabled: range !== null,
    staleTime: 60_000,
  });
}

export const useAssistantStatus = () => useQuery({ queryKey: cqk.assistantStatus, queryFn: () => unwrap(perps().assistant.status()) });

export function useAssistantModels(enabled: boolean) {
  return useQuery({ queryKey: cqk.assistantModels, queryFn: () => unwrap(perps().assistant.models()), enabled, staleTime: 5 * 60_000 });
}

/** Latest state per transfer id, newest first (an older update never replaces a newer one). */
export function mergeTransfers(prev: readonly TransferView[] | undefined, next: readonly TransferView[]): TransferView[] {
  const byId = new Map((prev ?? []).map((t) => [t.id, t]));
  for (const t of next) {
    const old = byId.get(t.id);
    if (!old || old.updated_at <= t.updated_at) byId.set(t.id, t);
  }
  return [...byId.values()].sort((a, b) => b.created_at - a.created_at);
}

/**
 * The phase each transfer was in when it turned to 'error' (the view says only 'error'; this is where it
 * stopped, for the timeline). Known only for transfers this window watched.
 */
const phaseBeforeError = new Map<string, TransferPhase>();

export function stoppedAt(id: string): TransferPhase | undefined {
  return phaseBeforeError.get(id);
}

/**
 * Puts transfers (from an event or a send/track answer) into the list every view reads; returns the
 * state each one had before, so a caller can tell which just ended.
 */
export function putTransfers(client: QueryClient, transfers: readonly TransferView[]): Map<string, TransferView> {
  const before = new Map((client.getQueryData<IpcResponse<'transfers:list'>>(cqk.transfers)?.transfers ?? []).map((t) => [t.id, t]));
  for (const t of transfers) {
    const old = before.get(t.id);
    if (t.phase === 'error' && old && old.phase !== 'error' && !phaseBeforeError.has(t.id)) phaseBeforeError.set(t.id, old.phase);
  }
  client.setQueryData(cqk.transfers, (prev: IpcResponse<'transfers:list'> | undefined) => ({ transfers: mergeTransfers(prev?.transfers, transfers) }));
  return before;
}
