import type { PerpsApi } from '../../shared/ipc';

declare global {
  interface Window {
    /** The only bridge to the main process (see src/preload). */
    perps: PerpsApi;
  }
}
