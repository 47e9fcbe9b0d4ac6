/**
 * The toast store behind the bottom strip: the same message again is counted on the toast already shown
 * (its time restarts) instead of stacking; at most MAX_SHOWN at once, newest first; each leaves by itself
 * after a few seconds (errors later); one opened to read stays until closed.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type ToastModule = typeof import('../../../src/renderer/src/ui/toastStore.js');
let toast: ToastModule;

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  toast = await import('../../../src/renderer/src/ui/toastStore.js');
});
afterEach(() => {
  vi.useRealTimers();
});

/** What the strip shows now, read through its subscription API. */
function shown(): { title: string; count: number; expanded: boolean }[] {
  return toast.currentToasts().map((t) => ({ title: t.title, count: t.count, expanded: t.expanded }));
}

describe('toasts', () => {
  it('a repeated message is counted, not stacked, and its time restarts', () => {
    toast.pushToast({ tone: 'success', title: 'Filled Open Long · ETH', body: '1 @ 3399' });
    vi.advanceTimersByTime(4_000);
    toast.pushToast({ tone: 'success', title: 'Filled Open Long · ETH', body: '1 @ 3399' });
    expect(shown()).toEqual([{ title: 'Filled Open Long · ETH', count: 2, expanded: false }]);
    // 4.5 s from the repeat, not from the first.
    vi.advanceTimersByTime(4_000);
    expect(shown()).toHaveLength(1);
    vi.advanceTimersByTime(600);
    expect(shown()).toEqual([]);
  });

  it('at most three at once, newest first; errors stay longer than confirmations', () => {
    toast.pushToast({ tone: 'error', title: 'Order rejected', body: 'post_only_would_take' });
    for (const n of [1, 2, 3]) toast.pushToast({ tone: 'info', title: `Cancel requested ${n}` });
    expect(shown().map((t) => t.title)).toEqual(['Cancel requested 3', 'Cancel requested 2', 'Cancel requested 1']);
    toast.dismissToast(toast.currentToasts()[0]!.id);
    toast.pushToast({ tone: 'error', title: 'Order rejected', body: 'reduce_only_no_position' });
    vi.advanceTimersByTime(5_000);
    expect(shown().map((t) => t.title)).toEqual(['Order rejected']);
    vi.advanceTimersByTime(4_100);
    expect(shown()).toEqual([]);
  });

  it('one opened to read stays until it is closed, then leaves shortly after', () => {
    const id = toast.pushToast({ tone: 'error', title: 'CSV export failed', error: { code: 'WRITE_FAILED', message: 'disk full', hint: 'Free some space.' } });
    toast.toggleToast(id);
    vi.advanceTimersByTime(60_000);
    expect(shown()).toEqual([{ title: 'CSV export failed', count: 1, expanded: true }]);
    toast.toggleToast(id);
    vi.advanceTimersByTime(2_100);
    expect(shown()).toEqual([]);
  });

  it('one holding the focus or the pointer waits, a repeat does not restart its clock, and it leaves shortly after release', () => {
    const id = toast.pushToast({ tone: 'success', title: 'TP/SL updated · ETH' });
    toast.holdToast(id, true);
    vi.advanceTimersByTime(30_000);
    toast.pushToast({ tone: 'success', title: 'TP/SL updated · ETH' });
    vi.advanceTimersByTime(30_000);
    expect(shown()).toEqual([{ title: 'TP/SL updated · ETH', count: 2, expanded: false }]);
    toast.holdToast(id, false);
    vi.advanceTimersByTime(1_900);
    expect(shown()).toHaveLength(1);
    vi.advanceTimersByTime(200);
    expect(shown()).toEqual([]);
  });

  it('released while open to read, it stays until closed', () => {
    const id = toast.pushToast({ tone: 'info', title: 'Cancel requested' });
    toast.holdToast(id, true);
    toast.toggleToast(id);
    toast.holdToast(id, false);
    vi.advanceTimersByTime(60_000);
    expect(shown()).toEqual([{ title: 'Cancel requested', count: 1, expanded: true }]);
  });

  it('a held toast is neither pushed out by newer ones nor moved by a repeat of itself', () => {
    const id = toast.pushToast({ tone: 'info', title: 'Cancel requested' });
    toast.pushToast({ tone: 'info', title: 'Order cancelled 1' });
    toast.holdToast(id, true);
    toast.pushToast({ tone: 'info', title: 'Order cancelled 2' });
    toast.pushToast({ tone: 'info', title: 'Order cancelled 3' });
    expect(shown().map((t) => t.title)).toEqual(['Order cancelled 3', 'Order cancelled 2', 'Cancel requested']);
    toast.pushToast({ tone: 'info', title: 'Cancel requested' });
    expect(shown().map((t) => [t.title, t.count])).toEqual([
      ['Order cancelled 3', 1],
      ['Order cancelled 2', 1],
      ['Cancel requested', 2],
    ]);
  });
});
