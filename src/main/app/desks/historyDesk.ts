/**
 * history:* — paged windows of each history for a virtualized table (order history also one row per
 * order), and CSV export (services/reads/
 * history.ts writes the same file the command line does). Every row is read once and cached briefly, so
 * a table scrolling through windows sees one consistent list and the service is not walked again for
 * each window; new activity (a 'history.changed' event) and a wallet or profile change drop the copy.
 */
import path from 'node:path';
import type { IpcResponse } from '../../../shared/ipc.js';
import { groupOrderHistory, type OrderHistoryEntry } from '../../../shared/orders/orderHistory.js';
import type { ListedOrder } from '../../../shared/protocol/index.js';
import { writeFileAtomic } from '../../files/atomicWrite.js';
import { historyCsv, historyHasMarkets, readHistory, type History, type HistoryKind } from '../../services/reads/history.js';
import type { DeskContext } from '../deskContext.js';
import { depositView, fillView, fundingView, listedOrderView, withdrawalRowView } from '../views.js';

const HISTORY_TTL_MS = 5_000;

export class HistoryDesk {
  private readonly cache = new Map<string, { at: number; history: History }>();
  /** Each cached order history grouped once (it goes when its history leaves the cache). */
  private readonly grouped = new WeakMap<History, OrderHistoryEntry<ListedOrder>[]>();

  constructor(private readonly session: DeskContext) {
    session.events.on('history.changed', (e) => {
      for (const kind of e.kinds) this.invalidate(kind);
    });
    session.onReset(() => this.cache.clear());
  }

  private invalidate(kind: HistoryKind): void {
    for (const key of [...this.cache.keys()]) if (key.startsWith(`${kind}|`)) this.cache.delete(key);
  }

  private async load(kind: HistoryKind, market: string | undefined): Promise<History> {
    const m = historyHasMarkets(kind) ? market : undefined;
    const key = `${kind}|${this.session.scope()}|${m ?? ''}`;
    const hit = this.cache.get(key);
    if (hit && Date.now() - hit.at < HISTORY_TTL_MS) return hit.history;
    const history = await readHistory(this.session.ctx(), this.session.wallet.requireAddress(), kind, m ? { market: m } : {});
    this.cache.set(key, { at: Date.now(), history });
    return history;
  }

  private page<T, V>(rows: readonly T[], offset: number, limit: number, view: (r: T) => V): { rows: V[]; total: number; offset: number; limit: number } {
    return { rows: rows.slice(offset, offset + limit).map(view), total: rows.length, offset, limit };
  }

  async orders(req: { offset: number; limit: number; market?: string | undefined }): Promise<IpcResponse<'history:orders'>> {
    const h = (await this.load('orders', req.market)) as Extract<History, { kind: 'orders' }>;
    return this.page(h.rows, req.offset, req.limit, listedOrderView);
  }

  /**
   * One row per order (its status changes inside), grouped here where every row is held: a window of raw
   * rows could split an order's changes across two pages, and the renderer only ever sees windows.
   */
  async orderGroups(req: { offset: number; limit: number; market?: string | undefined }): Promise<IpcResponse<'history:orderGroups'>> {
    const h = (await this.load('orders', req.market)) as Extract<History, { kind: 'orders' }>;
    return this.page(this.groupsOf(h), req.offset, req.limit, (g) => ({ order: listedOrderView(g.latest), changes: g.changes, avg_fill_price: g.avg_fill_price, price: g.price }));
  }

  private groupsOf(h: Extract<History, { kind: 'orders' }>): OrderHistoryEntry<ListedOrder>[] {
    let groups = this.grouped.get(h);
    if (!groups) {
      groups = groupOrderHistory(h.rows);
      this.grouped.set(h, groups);
    }
    return groups;
  }

  async fills(req: { offset: number; limit: number; market?: string | undefined }): Promise<IpcResponse<'history:fills'>> {
    const h = (await this.load('fills', req.market)) as Extract<History, { kind: 'fills' }>;
    return this.page(h.rows, req.offset, req.limit, fillView);
  }

  async funding(req: { offset: number; limit: number; market?: string | undefined }): Promise<IpcResponse<'history:funding'>> {
    const h = (await this.load('funding', req.market)) as Extract<History, { kind: 'funding' }>;
    return this.page(h.rows, req.offset, req.limit, fundingView);
  }

  async deposits(req: { offset: number; limit: number }): Promise<IpcResponse<'history:deposits'>> {
    const h = (await this.load('deposits', undefined)) as Extract<History, { kind: 'deposits' }>;
    return this.page(h.rows, req.offset, req.limit, depositView);
  }

  async withdrawals(req: { offset: number; limit: number }): Promise<IpcResponse<'history:withdrawals'>> {
    const h = (await this.load('withdrawals', undefined)) as Extract<History, { kind: 'withdrawals' }>;
    return this.page(h.rows, req.offset, req.limit, withdrawalRowView);
  }

  async exportCsv(req: { kind: HistoryKind; market?: string | undefined }): Promise<IpcResponse<'history:exportCsv'>> {
    const market = historyHasMarkets(req.kind) ? req.market : undefined;
    // Read before asking for a file: a failing read should not leave the user with an empty file.
    this.invalidate(req.kind);
    const history = await this.load(req.kind, market);
    const csv = historyCsv(history);
    // Order history is exported one row per order (as History › Orders shows it).
    const rows = history.kind === 'orders' ? this.groupsOf(history).length : history.rows.length;
    const day = new Date().toISOString().slice(0, 10);
    const file = await this.session.dialogs.chooseSaveFile({
      title: `Export ${req.kind} history`,
      defaultName: `perps-${req.kind}${market ? `-${market}` : ''}-${day}.csv`,
      filters: [{ name: 'CSV', extensions: ['csv'] }],
    });
    if (file === null) return { saved: false, file_name: null, rows };
    await writeFileAtomic(file, csv);
    return { saved: true, file_name: path.basename(file), rows };
  }
}
