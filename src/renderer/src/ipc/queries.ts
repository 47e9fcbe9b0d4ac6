/**
 * Every read the renderer makes, as TanStack Query hooks over window.perps, and every write as a typed
 * call. Query keys live here so event handlers (events.ts) and mutations update the same cache entries
 * the views read.
 */
import { keepPreviousData, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import type { IpcRequest, IpcResponse } from '../../../shared/ipc';
import { perps, unwrap, type IpcQueryError } from './client';


export type HistoryKind = 'orders' | 'fills' | 'funding' | 'deposits' | 'withdrawals';

export const qk = {
  appInfo: ['app', 'info'] as const,
  profile: ['app', 'profile'] as const,
  wallet: ['wallet'] as const,
  keys: ['keys'] as const,
  depositInfo: ['funding', 'depositInfo'] as const,
  balance: ['account', 'balance'] as const,
  /**
   * The account's health is derived from the free balance, so it is keyed under it: whatever makes the
   * balance stale (a fill, a deposit, a withdrawal) makes the health figures stale with it.
   */
  health: ['account', 'balance', 'health'] as const,
  markets: ['markets'] as const,
  candles: (market: string, interval: string) => ['candles', market, interval] as const,
  book: (market: string, nSigFigs: number | null) => ['book', market, nSigFigs ?? 'full'] as const,
  airgap: ['settings', 'airgap'] as const,
  openOrders: ['orders', 'open'] as const,
  triggers: ['orders', 'triggers'] as const,
  positions: ['positions'] as const,
  history: (kind: HistoryKind, market: string | null) => ['history', kind, market ?? '*'] as const,
  historyPage: (kind: HistoryKind, market: string | null, offset: number, limit: number) => ['history', kind, market ?? '*', offset, limit] as const,
  withdrawals: ['withdrawals'] as const,
  settings: ['settings'] as const,
  notifications: ['notifications'] as const,
};

type Opts<T> = Omit<UseQueryOptions<T, IpcQueryError>, 'queryKey' | 'queryFn'>;

export const useAppInfo = () => useQuery({ queryKey: qk.appInfo, queryFn: () => unwrap(perps().app.getInfo()), staleTime: Infinity });
export const useProfile = () => useQuery({ queryKey: qk.profile, queryFn: () => unwrap(perps().app.getProfile()) });
export const useWallet = () => useQuery({ queryKey: qk.wallet, queryFn: () => unwrap(perps().wallet.current()) });

export function useKeys(opts: Opts<IpcResponse<'keys:list'>> = {}) {
  return useQuery({ queryKey: qk.keys, queryFn: () => unwrap(perps().keys.list()), refetchInterval: 60_000, ...opts });
}

export const useDepositInfo = (enabled = true) => useQuery({ queryKey: qk.depositInfo, queryFn: () => unwrap(perps().funding.depositInfo()), enabled });

export function useBalance(enabled = true) {
  return useQuery({ queryKey: qk.balance, queryFn: () => unwrap(perps().account.balance()), enabled, refetchInterval: 10_000 });
}

/**
 * account:health — equity, maintenance margin, margin ratio, account leverage and withdrawable, computed by
 * main from the balance, the positions and the marks. Refreshed when positions are re-priced (ipc/events.ts,
 * at most once a second) and on a slow timer otherwise.
 */
export function useAccountHealth(enabled = true) {
  return useQuery({ queryKey: qk.health, queryFn: () => unwrap(perps().account.health()), enabled, refetchInterval: 10_000 });
}

export function useMarkets() {
  // Market records change rarely, but 24h change, funding and open interest drift: refresh every 30 s.
  return useQuery({ queryKey: qk.markets, queryFn: () => unwrap(perps().markets.list()), refetchInterval: 30_000 });
}

export function useCandles(market: string | null, interval: IpcRequest<'markets:candles'>['interval']) {
  return useQuery({
    queryKey: qk.candles(market ?? '', interval),
    queryFn: () => unwrap(perps().markets.candles({ market: market ?? '', interval })),
    enabled: market !== null,
    staleTime: 30_000,
  });
}

/**
 * The order book snapshot (markets:book) the live `book` events then replace. Another grouping of the same
 * market keeps showing the previous book while it loads (never another market's).
 */
export function useBookSnapshot(market: string, nSigFigs: IpcRequest<'markets:book'>['n_sig_figs'] = null) {
  return useQuery({
    queryKey: qk.book(market, nSigFigs ?? null),
    queryFn: () => unwrap(perps().markets.book({ market, n_sig_figs: nSigFigs ?? null })),
    placeholderData: (prev, prevQuery) => (prevQuery?.queryKey[1] === market ? prev : undefined),
    gcTime: 30_000,
  });
}

export function useOpenOrders(enabled = true) {
  return useQuery({ queryKey: qk.openOrders, queryFn: () => unwrap(perps().orders.listOpen({})), enabled, refetchInterval: 15_000 });
}

export function useTriggers(enabled = true) {
  return useQuery({ queryKey: qk.triggers, queryFn: () => unwrap(perps().orders.listTriggers({})), enabled, refetchInterval: 15_000 });
}

export function usePositions(enabled = true) {
  return useQuery({ queryKey: qk.positions, queryFn: () => unwrap(perps().positions.list()), enabled, refetchInterval: 15_000 });
}

export function useTrackedWithdrawals(enabled = true) {
  return useQuery({ queryKey: qk.withdrawals, queryFn: () => unwrap(perps().withdraw.list()), enabled });
}

export const useSettings = () => useQuery({ queryKey: qk.settings, queryFn: () => unwrap(perps().settings.get()) });
export const useAirgap = () => useQuery({ queryKey: qk.airgap, queryFn: () => unwrap(perps().settings.getAirgap()) });
export const useNotificationPrefs = () => useQuery({ queryKey: qk.notifications, queryFn: () => unwrap(perps().notifications.get()) });

/** One window of a history table (offset/limit as the contract allows, limit at most 200). */
export type HistoryPage =
  | IpcResponse<'history:orderGroups'>
  | IpcResponse<'history:fills'>
  | IpcResponse<'history:funding'>
  | IpcResponse<'history:deposits'>
  | IpcResponse<'history:withdrawals'>;

export function fetchHistoryPage(kind: HistoryKind, market: string | null, offset: number, limit: number): Promise<HistoryPage> {
  const api = perps().history;
  const paged = { offset, limit };
  const withMarket = market ? { ...paged, market } : paged;
  switch (kind) {
    case 'orders':
      // One row per order (its status changes inside): main groups every row, the table sees windows.
      return unwrap(api.orderGroups(withMarket));
    case 'fills':
      return unwrap(api.fills(withMarket));
    case 'funding':
      return unwrap(api.funding(withMarket));
    case 'deposits':
      return unwrap(api.deposits(paged));
    case 'withdrawals':
      return unwrap(api.withdrawals(paged));
  }
}

export function useHistoryPage(kind: HistoryKind, market: string | null, offset: number, limit: number, enabled = true) {
  return useQuery({
    queryKey: qk.historyPage(kind, market, offset, limit),
    queryFn: () => fetchHistoryPage(kind, market, offset, limit),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

