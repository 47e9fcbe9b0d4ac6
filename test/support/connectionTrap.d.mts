/** Types of connectionTrap.mjs (plain JavaScript so that plain-Node scenario scripts share it). */
export interface ConnectionRecord {
  api: string;
  host?: string;
  port?: number;
  path?: string;
  refused?: boolean;
  /** The name a refused address was resolved from (a lookup pointing localhost elsewhere). */
  via?: string;
  /** Reported by a worker thread's trap. */
  worker?: boolean;
}
export interface ConnectionTrap {
  readonly records: ConnectionRecord[];
  destinations(): string[];
  refused(): ConnectionRecord[];
  clear(): void;
  uninstall(): void;
}
export function isLoopback(host: string): boolean;
export function installConnectionTrap(): ConnectionTrap;
export function handleGuardInstalled(): boolean;
