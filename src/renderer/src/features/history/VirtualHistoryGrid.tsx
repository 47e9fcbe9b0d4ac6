/**
 * A virtualized history table over offset/limit windows. Only the rows in view (plus a small overscan)
 * exist in the DOM, and only the 200-row windows that cover them are fetched, so 100,000 rows cost what
 * a screenful costs. TanStack Table owns the column model and cell rendering; TanStack Virtual owns the
 * geometry. Windows are fetched once the scroll position settles, so a fast fling through the list does
 * not queue hundreds of reads.
 */
import { useQueries } from '@tanstack/react-query';
import { createColumnHelper, tableFeatures, useTable, type ColumnDef } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { fetchHistoryPage, qk, useHistoryPage, type HistoryKind } from '../../ipc/queries';
import { EmptyState, ErrorState, Loading } from '../../ui/States';

export const PAGE_SIZE = 200;
const ROW_HEIGHT = 28;

/** Rows that open to show more beneath them (an order's status changes). */
export interface ExpandableRows<T> {
  /** A stable key per row (what stays open as windows load and reload). */
  key: (row: T) => string;
  /** What the toggle says it opens, e.g. 'status changes of ETH Limit buy 123'. */
  label: (row: T) => string;
  /** The content shown under an open row, and its height in px (the virtualizer needs it up front). */
  detail: (row: T) => ReactNode;
  detailHeight: (row: T) => number;
}

export interface HistoryColumn<T> {
  id: string;
  header: string;
  /** CSS grid track, e.g. '140px' or 'minmax(120px, 1fr)'. */
  width: string;
  align?: 'r';
  cell: (row: T) => ReactNode;
}

interface Slot<T> {
  index: number;
  row: T | undefined;
}

const features = tableFeatures({});

export function VirtualHistoryGrid<T>({
  kind,
  market,
  columns: baseColumns,
  label,
  emptyText,
  expandable,
}: {
  kind: HistoryKind;
  market: string | null;
  columns: HistoryColumn<T>[];
  label: string;
  emptyText: string;
  expandable?: ExpandableRows<T>;
}) {
  const first = useHistoryPage(kind, market, 0, PAGE_SIZE);
  const total = first.data?.total ?? 0;
  const scroller = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (key: string) => setOpen((cur) => (cur.has(key) ? new Set([...cur].filter((k) => k !== key)) : new Set([...cur, key])));
  // The toggle leads each row of an expandable table.
  const columns = useMemo<HistoryColumn<T>[]>(
    () =>
      expandable
        ? [
            {
              id: 'expand',
              header: '',
              width: '30px',
              cell: (row: T) => {
                const key = expandable.key(row);
                const isOpen = open.has(key);
                return (
                  <button type="button" className="vgrid-toggle" aria-expanded={isOpen} aria-label={`${isOpen ? 'Hide' : 'Show'} ${expandable.label(row)}`} onClick={() => toggle(key)}>
                    {isOpen ? '▾' : '▸'}
                  </button>
                );
              },
            },
            ...baseColumns,
          ]
        : baseColumns,
    [baseColumns, expandable, open],
  );
  const rowAtRef = useRef<(i: number) => T | undefined>(() => undefined);
  const heightOf = (i: number): number => {
    const row = expandable ? rowAtRef.current(i) : undefined;
    return row !== undefined && expandable && open.has(expandable.key(row)) ? ROW_HEIGHT + expandable.detailHeight(row) : ROW_HEIGHT;
  };
  const virtualizer = useVirtualizer({
    count: total,
    getScrollElement: () => scroller.current,
    estimateSize: heightOf,
    overscan: 12,
  });
  // Opening or closing a row changes its height: measure again.
  useEffect(() => {
    if (expandable) virtualizer.measure();
  }, [open, expandable, virtualizer]);
  const items = virtualizer.getVirtualItems();
  const startIndex = items[0]?.index ?? 0;
  const endIndex = items[items.length - 1]?.index ?? 0;

  // The windows to fetch follow the visible range once it has been still for a moment.
  const [settled, setSettled] = useState({ start: 0, end: 0 });
  useEffect(() => {
    const t = setTimeout(() => setSettled({ start: startIndex, end: endIndex }), 60);
    return () => clearTimeout(t);
  }, [startIndex, endIndex]);
  const pageNumbers = useMemo(() => {
    const out: number[] = [];
    for (let p = Math.floor(settled.start / PAGE_SIZE); p <= Math.floor(settled.end / PAGE_SIZE); p++) if (p > 0) out.push(p);
    return out;
  }, [settled]);
  const pages = useQueries({
    queries: pageNumbers.map((p) => ({
      queryKey: qk.historyPage(kind, market, p * PAGE_SIZE, PAGE_SIZE),
      queryFn: () => fetchHistoryPage(kind, market, p * PAGE_SIZE, PAGE_SIZE),
      staleTime: 10_000,
    })),
  });

  const rowAt = (i: number): T | undefined => {
    const p = Math.floor(i / PAGE_SIZE);
    const data = p === 0 ? first.data : pages[pageNumbers.indexOf(p)]?.data;
    return data?.rows[i - p * PAGE_SIZE] as T | undefined;
  };
  rowAtRef.current = rowAt;

  const slots: Slot<T>[] = items.map((it) => ({ index: it.index, row: rowAt(it.index) }));
  const helper = useMemo(() => createColumnHelper<typeof features, Slot<T>>(), []);
  const tableColumns = useMemo<ColumnDef<typeof features, Slot<T>, unknown>[]>(
    () =>
      columns.map((c) =>
        helper.display({
          id: c.id,
          header: c.header,
          cell: (ctx) => {
            const row = ctx.row.original.row;
            return row === undefined ? <span className="vgrid-placeholder">·</span> : c.cell(row);
          },
        }),
      ),
    [columns, helper],
  );
  const table = useTable({ features, columns: tableColumns, data: slots, getRowId: (s) => String(s.index) });
  const template = columns.map((c) => c.width).join(' ');
  const pageError = pages.find((p) => p.error)?.error;

  if (first.isPending) return <Loading label={`Loading ${label.toLowerCase()}`} rows={6} />;
  if (first.error) return <ErrorState error={first.error} title={`${label} unavailable`} onRetry={() => void first.refetch()} />;
  if (total === 0) return <EmptyState title={`No ${label.toLowerCase()}`}>{emptyText}</EmptyState>;

  return (
    // Focusable, so the keyboard scrolls the window of rows too (the rows themselves hold no control in most tables).
    <div className="vgrid" ref={scroller} role="table" aria-label={label} aria-rowcount={total + 1} tabIndex={0}>
      <div className="vgrid-head" role="row" style={{ gridTemplateColumns: template }} aria-rowindex={1}>
        {table.getHeaderGroups()[0]?.headers.map((h, i) => (
          <div key={h.id} role="columnheader" className={`vgrid-cell${columns[i]?.align === 'r' ? ' r' : ''}`}>
            <table.FlexRender header={h} />
          </div>
        ))}
      </div>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {table.getRowModel().rows.map((row, i) => {
          const item = items[i];
          if (!item) return null;
          const data = row.original.row;
          const isOpen = expandable !== undefined && data !== undefined && open.has(expandable.key(data));
          return (
            <div
              key={row.id}
              role="row"
              aria-rowindex={item.index + 2}
              className={`vgrid-row${isOpen ? ' is-open' : ''}`}
              style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)`, ...(isOpen ? { height: item.size } : {}) }}
            >
              {row.getAllCells().map((cell, j) => (
                <div key={cell.id} role="cell" className={`vgrid-cell${columns[j]?.align === 'r' ? ' r' : ''}`}>
                  <table.FlexRender cell={cell} />
                </div>
              ))}
              {isOpen && (
                <div role="cell" className="vgrid-detail">
                  {expandable.detail(data)}
                </div>
              )}
            </div>
          );
        })}
      </div>
      {pageError !== undefined && pageError !== null && (
        <div className="vgrid-error">
          <ErrorState error={pageError} title="Some rows could not be loaded" compact />
        </div>
      )}
    </div>
  );
}
