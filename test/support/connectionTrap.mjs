/**
 * The connection trap, for ES modules: the code is CommonJS (connectionTrap.cjs) so that a worker thread's
 * first line can require it synchronously, before the worker's own code runs.
 */
import trap from './connectionTrap.cjs';

export const { isLoopback, handleGuardInstalled, installConnectionTrap } = trap;
