/** The keys of a key event the palette reads (typed here, so a Node test can call it without the DOM library). */
export interface PaletteKeyEvent {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

/** The palette's key: Ctrl+K, or Cmd+K on macOS (the physical K, whatever the layout types). */
export function isPaletteKey(e: PaletteKeyEvent): boolean {
  return (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && (e.code === 'KeyK' || e.key.toLowerCase() === 'k');
}
