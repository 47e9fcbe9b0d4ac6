/**
 * The two doors to panic that are not the command line: the hotkey must be held a full second (a stray
 * press or an early release does nothing), and the tray menu carries the lockout's line and a Panic item
 * that only opens the window on the confirmation.
 */
import { describe, expect, it, vi } from 'vitest';
import { PANIC_HOLD_MS, PanicHold, isPanicChord, type ChordKeys } from '../../../src/renderer/src/features/limits/panicKey.js';
import { trayMenu } from '../../../src/main/shell/trayMode.js';

describe('the panic hotkey', () => {
  it('fires once after a full second held; an early release or a repeat does nothing', () => {
    vi.useFakeTimers();
    try {
      const fired = vi.fn();
      const h = new PanicHold(fired);
      h.down();
      vi.advanceTimersByTime(PANIC_HOLD_MS - 1);
      h.up();
      vi.advanceTimersByTime(5_000);
      expect(fired).not.toHaveBeenCalled();
      h.down();
      h.down(); // key repeat
      vi.advanceTimersByTime(PANIC_HOLD_MS);
      expect(fired).toHaveBeenCalledTimes(1);
      h.up();
      vi.advanceTimersByTime(5_000);
      expect(fired).toHaveBeenCalledTimes(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('is Ctrl+Alt+P (or ⌘⌥P), not with Shift, not P alone', () => {
    const k = (o: Partial<ChordKeys>): ChordKeys => ({ code: 'KeyP', ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...o });
    expect(isPanicChord(k({ ctrlKey: true, altKey: true }))).toBe(true);
    expect(isPanicChord(k({ metaKey: true, altKey: true }))).toBe(true);
    expect(isPanicChord(k({ ctrlKey: true, altKey: true, shiftKey: true }))).toBe(false);
    expect(isPanicChord(k({ ctrlKey: true }))).toBe(false);
    expect(isPanicChord(k({}))).toBe(false);
  });
});

describe('the tray menu and the risk limits', () => {
  it('shows the lockout line on top and Panic beside Quit (never the first item) when the app offers them', () => {
    const labels = trayMenu([], { line: 'Locked until 00:00 UTC (risk limit)', panic: true }).map((i) => (i.type === 'separator' ? '---' : i.label));
    expect(labels).toEqual(['Locked until 00:00 UTC (risk limit)', '---', 'Open Perps Desk', '---', 'Nothing running', '---', 'Panic: close everything…', 'Quit Perps Desk']);
    expect(trayMenu([], {}).some((i) => i.type === 'action' && i.action === 'panic')).toBe(false);
  });
});
