/**
 * The panic hotkey (issue 39 item 6): Ctrl+Alt+P (⌘⌥P on macOS) held for a full second opens the panic
 * confirmation. Letting go earlier does nothing, so a stray press never gets near it. Pure state, so the
 * hold rule is tested without a page.
 */
export const PANIC_HOLD_MS = 1_000;
export const PANIC_KEY_LABEL = 'Ctrl+Alt+P (hold 1 s)';

/** The parts of a keyboard event the chord reads (so main-side tests compile without the DOM's types). */
export interface ChordKeys {
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

export function isPanicChord(e: ChordKeys): boolean {
  return e.code === 'KeyP' && e.altKey && (e.ctrlKey || e.metaKey) && !e.shiftKey;
}

/** Tracks one hold: started at keydown (repeats ignored), fires once when held PANIC_HOLD_MS, cancelled by any keyup. */
export class PanicHold {
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly onHeld: () => void,
    // Wrapped: a browser's setTimeout called as a method of this object throws "Illegal invocation".
    private readonly setTimer: (fn: () => void, ms: number) => ReturnType<typeof setTimeout> = (fn, ms) => setTimeout(fn, ms),
    private readonly clearTimer: (t: ReturnType<typeof setTimeout>) => void = (t) => clearTimeout(t),
  ) {}

  get holding(): boolean {
    return this.timer !== null;
  }

  down(): void {
    if (this.timer !== null) return;
    this.timer = this.setTimer(() => {
      this.timer = null;
      this.onHeld();
    }, PANIC_HOLD_MS);
  }

  up(): void {
    if (this.timer === null) return;
    this.clearTimer(this.timer);
    this.timer = null;
  }
}
