/**
 * The preload: exposes window.perps, one typed function per channel of the IPC contract, and nothing
 * else (no ipcRenderer, no Node). Built as one CommonJS file because it runs sandboxed.
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { PerpsApi } from '../shared/ipc.js';

const api: PerpsApi = {
  app: {
    getInfo: () => ipcRenderer.invoke('app:getInfo', {}),
  },
};

contextBridge.exposeInMainWorld('perps', api);
