/**
 * Registers one handler per IPC channel. Every payload is validated with the channel's zod schema and
 * every sender frame is checked against the app's own origin before a service is called.
 */
import { IPC_CHANNELS, type IpcChannel, type IpcRequest, type IpcResponse, type IpcResult } from '../../shared/ipc.js';

/** The subset of Electron's IpcMainInvokeEvent the handlers read (kept structural for tests). */
export interface IpcEventLike {
  senderFrame: { url: string } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, payload: unknown) => Promise<unknown>): void;
}

export type Handlers = { [C in IpcChannel]: (request: IpcRequest<C>) => Promise<IpcResponse<C>> };

export function registerHandlers(ipcMain: IpcMainLike, handlers: Handlers, isTrustedFrameUrl: (url: string) => boolean): void {
  for (const channel of Object.keys(IPC_CHANNELS) as IpcChannel[]) {
    ipcMain.handle(channel, async (event, payload): Promise<IpcResult<unknown>> => {
      const url = event.senderFrame?.url ?? '';
      if (!isTrustedFrameUrl(url)) {
        return { ok: false, error: { code: 'UNTRUSTED_SENDER', message: `IPC from an untrusted frame was refused` } };
      }
      const parsed = IPC_CHANNELS[channel].request.safeParse(payload ?? {});
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return { ok: false, error: { code: 'INVALID_PAYLOAD', message: `${channel}: ${issue?.path.join('.') || '(payload)'}: ${issue?.message ?? 'invalid'}` } };
      }
      try {
        const handler = handlers[channel] as (r: unknown) => Promise<unknown>;
        return { ok: true, value: await handler(parsed.data) };
      } catch (err) {
        const e = err as { code?: unknown; message?: unknown; action?: unknown };
        console.error(`[ipc] ${channel} failed:`, e.message);
        return {
          ok: false,
          error: {
            code: typeof e.code === 'string' ? e.code : 'INTERNAL',
            message: typeof e.message === 'string' ? e.message : 'unexpected error',
            ...(typeof e.action === 'string' ? { hint: e.action } : {}),
          },
        };
      }
    });
  }
}
