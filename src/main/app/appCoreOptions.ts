/** What the app core is built with: its data folder, settings, host adapters, and the stand-ins tests pass. */
import type { SettingsStore } from '../settings/settingsStore.js';
import type { ServiceContextOptions } from '../services/serviceContext.js';
import type { OpenTrezorDeps } from '../signers/trezor/openTrezor.js';
import type { AppAdapters, AppLogger } from './adapters.js';
import type { PumpTimings } from './pumps/pump.js';
import type { SimLauncher } from './simulator.js';
import type { LedgerAccess } from './wallet.js';

export interface AppCoreOptions {
  /** The app's data folder (Electron's userData): settings, nonces, the simulator's state file. */
  dataDir: string;
  settings: SettingsStore;
  appInfo: { name: string; version: string; platform: string };
  adapters: AppAdapters;
  /** Starts the in-process simulator (required to run the sim profile). */
  startSimulator?: SimLauncher;
  /** Keychain service name (tests pass their own; the app uses the default). */
  keychainService?: string;
  /** The process environment (for env signers). */
  env?: NodeJS.ProcessEnv;
  logger?: AppLogger;
  /** Extra service-context options (fetch, timeouts, caches). */
  service?: Omit<ServiceContextOptions, 'settings' | 'keychainService' | 'env'>;
  pumps?: Partial<PumpTimings>;
  ledger?: LedgerAccess;
  /** Stand-ins for the Trezor's USB or Bridge (tests); the link itself is chosen by PERPS_TREZOR_TRANSPORT. */
  trezor?: OpenTrezorDeps;
  /** How long a review stays valid: orders are short (marks move), custody actions longer (a Ledger takes time). */
  reviewTtlMs?: { orders?: number; custody?: number };
  fetch?: typeof fetch;
  /** Companion services: timeouts, and how often a pending bridge order is polled. */
  companion?: { timeoutMs?: number; pollIntervalMs?: number; rpcPollingIntervalMs?: number };
  /** The Portfolio view's whole-read deadline (default the command line's, 120 s; tests shorten it). */
  portfolioDeadlineMs?: number;
}
