/**
 * Registers one handler per IPC channel of the contract. For every call: the sender frame is checked
 * against the app's own origin, the payload is validated with the channel's zod schema (strict: unknown
 * keys are refused), the handler runs, and its answer is parsed with the channel's response schema
 * (which also strips any field the contract does not name, so an internal field can never reach the
 * page by accident). Every failure comes back as a typed IpcError value; nothing throws across IPC.
 */
import { CHANNEL_NAMES, IPC_CHANNELS, type IpcChannel, type IpcError, type IpcRequest, type IpcResponse, type IpcResult } from '../../shared/ipc.js';
import { toIpcError, type ErrorLogger } from './errorMapping.js';
import { OperationError } from '../services/errors.js';

/** The subset of Electron's IpcMainInvokeEvent the handlers read (kept structural for tests). */
export interface IpcEventLike {
  senderFrame: { url: string } | null;
}

export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, payload: unknown) => Promise<unknown>): void;
}

/** Handlers receive the parsed request (schema output). */
export type Handlers = { [C in IpcChannel]: (request: IpcParsedRequest<C>) => Promise<IpcResponse<C>> };
export type IpcParsedRequest<C extends IpcChannel> = import('zod').infer<(typeof IPC_CHANNELS)[C]['request']>;

export interface RegisterOptions {
  logger?: ErrorLogger;
  /** Observes every exchange (tests record traffic for the key-leak check). */
  onExchange?: (exchange: { channel: string; payload: unknown; result: IpcResult<unknown> }) => void;
}

function issueText(channel: string, issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  return `${channel}: ${issue?.path.map(String).join('.') || '(payload)'}: ${issue?.message ?? 'invalid'}`;
}

/** Runs one call of `channel` through the checks above. Exported for tests that call without an ipcMain. */
export async function dispatch(
  channel: IpcChannel,
  handlers: Handlers,
  payload: unknown,
  logger: ErrorLogger = console,
): Promise<IpcResult<unknown>> {
  const def = IPC_CHANNELS[channel];
  const parsed = def.request.safeParse(payload ?? {});
  if (!parsed.success) {
    const error: IpcError = { code: 'INVALID_PAYLOAD', kind: 'validation', message: issueText(channel, parsed.error.issues) };
    const field = parsed.error.issues[0]?.path.map(String).join('.');
    if (field) error.field = field;
    return { ok: false, error };
  }
  let value: unknown;
  try {
    const handler = handlers[channel] as (r: unknown) => Promise<unknown>;
    value = await handler(parsed.data);
  } catch (err) {
    return { ok: false, error: toIpcError(err, channel, logger) };
  }
  const checked = def.response.safeParse(value);
  if (!checked.success) {
    // A handler answering outside the contract is a bug in main; the page must not get a shape it does
    // not expect. The issue paths (not the values) go to the log.
    logger.error(`[ipc] ${channel} answered outside the contract: ${checked.error.issues.slice(0, 3).map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ')}`);
    return { ok: false, error: { code: 'INTERNAL', kind: 'internal', message: `${channel} produced an invalid answer; see the app log` } };
  }
  return { ok: true, value: checked.data };
}

export function registerHandlers(ipcMain: IpcMainLike, handlers: Handlers, isTrustedFrameUrl: (url: string) => boolean, options: RegisterOptions = {}): void {
  const logger = options.logger ?? console;
  for (const channel of CHANNEL_NAMES) {
    if (typeof handlers[channel] !== 'function') throw new Error(`no handler for IPC channel ${channel}`);
    ipcMain.handle(channel, async (event, payload): Promise<IpcResult<unknown>> => {
      const url = event?.senderFrame?.url ?? '';
      let result: IpcResult<unknown>;
      if (!isTrustedFrameUrl(url)) {
        result = { ok: false, error: { code: 'UNTRUSTED_SENDER', kind: 'rejected', message: 'IPC from an untrusted frame was refused' } };
      } else {
        result = await dispatch(channel, handlers, payload, logger);
      }
      options.onExchange?.({ channel, payload, result });
      return result;
    });
  }
}

/**
 * A complete handler table where only the given channels work and every other answers NOT_IMPLEMENTED.
 * For tests that exercise a few channels (the e2e app frame); the app itself always passes a full table.
 */
export function stubHandlers(partial: Partial<Handlers>): Handlers {
  const out = {} as Record<IpcChannel, (r: unknown) => Promise<unknown>>;
  for (const channel of CHANNEL_NAMES) {
    const given = partial[channel] as ((r: unknown) => Promise<unknown>) | undefined;
    out[channel] =
      given ??
      (async () => {
        throw new OperationError('NOT_IMPLEMENTED', `${channel} is not implemented in this test`);
      });
  }
  return out as unknown as Handlers;
}

export type { IpcRequest };
