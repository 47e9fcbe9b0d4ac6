/** Types of connectionTrap.mjs (plain JavaScript so that plain-Node scenario scripts share it). */
export interface ConnectionRecord {
  api: string;
  host?: string;
  port?: number;
  path?: string;
  refused?: boolean;
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
