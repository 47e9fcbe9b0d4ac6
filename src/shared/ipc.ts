/**
 * The IPC contract: every channel between the renderer and the main process, with its request and
 * response types, in one place (as Ledger Live's bridge contract does). There is no generic invoke: the
 * preload exposes one function per channel listed here, and main registers one validated handler per
 * channel. Errors cross as typed values, never as thrown Error objects whose text Electron rewrites.
 */
import { z } from 'zod';

/** An error as it crosses IPC: a stable code, a message for people, and an optional hint. */
export interface IpcError {
  code: string;
  message: string;
  hint?: string;
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  profile: z.string(),
  platform: z.string(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

/** Request schemas double as the main process's payload validation. */
export const IPC_CHANNELS = {
  'app:getInfo': { request: z.object({}).strict(), response: AppInfoSchema },
} as const;

export type IpcChannel = keyof typeof IPC_CHANNELS;
export type IpcRequest<C extends IpcChannel> = z.infer<(typeof IPC_CHANNELS)[C]['request']>;
export type IpcResponse<C extends IpcChannel> = z.infer<(typeof IPC_CHANNELS)[C]['response']>;

/** What the preload exposes as window.perps. */
export interface PerpsApi {
  app: {
    getInfo(): Promise<IpcResult<AppInfo>>;
  };
}
