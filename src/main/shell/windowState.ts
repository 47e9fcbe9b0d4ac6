/**
 * Window size and position, remembered across launches in the settings store. Restored bounds are
 * checked against the displays present now, so a window saved on a monitor that is gone comes back
 * on screen instead of invisibly off it.
 */
import type { SettingsStore } from '../settings/settingsStore.js';

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SavedWindowState {
  bounds: Bounds;
  maximized: boolean;
}

const KEY = 'window.main';
export const DEFAULT_SIZE = { width: 1440, height: 900 };
export const MIN_SIZE = { width: 1024, height: 680 };

function isBounds(v: unknown): v is Bounds {
  const b = v as Bounds;
  return !!b && [b.x, b.y, b.width, b.height].every((n) => Number.isFinite(n));
}

export function loadWindowState(store: SettingsStore, workAreas: readonly Bounds[]): SavedWindowState | null {
  const raw = store.get(KEY) as SavedWindowState | undefined;
  if (!raw || !isBounds(raw.bounds)) return null;
  const b = raw.bounds;
  if (b.width < MIN_SIZE.width || b.height < MIN_SIZE.height) return null;
  // Visible when at least a 100x100 corner of the title-bar area is on some display.
  const visible = workAreas.some(
    (a) => b.x + 100 <= a.x + a.width && b.x + b.width - 100 >= a.x && b.y >= a.y - 10 && b.y + 100 <= a.y + a.height,
  );
  return visible ? { bounds: b, maximized: raw.maximized === true } : null;
}

export function saveWindowState(store: SettingsStore, state: SavedWindowState): void {
  store.set(KEY, state);
}
