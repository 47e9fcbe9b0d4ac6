/** The slice of the handler table one capability file provides. */
import type { ChannelName } from '../../../shared/ipc.js';
import type { Handlers } from '../registerHandlers.js';

export type HandlerGroup<P extends string> = Pick<Handlers, Extract<ChannelName, `${P}:${string}`>>;
