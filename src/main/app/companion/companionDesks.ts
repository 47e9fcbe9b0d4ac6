/**
 * The companion screens' use cases for one profile, one desk per domain: settings (service and per-chain
 * JSON-RPC URLs, the partner code, the receiver allowlist), bridge (with token look-ups and the transfer
 * list), swap, points and the assistant. Like AppCore they call services, never HTTP, and hold no key:
 * source transactions are signed by the wallet session's transaction signer, the inference key stays in
 * the OS keychain. Each IPC handler group takes its own desk (src/main/ipc/handlers/companion.ts).
 */
import type { AccountReads } from '../../services/assistant/accountContext.js';
import type { InferenceKeyStore } from '../../services/assistant/apiKeyStore.js';
import type { CompanionContext } from '../../services/companion/companionContext.js';
import type { AppLogger, DialogAdapter } from '../adapters.js';
import type { WalletSession } from '../wallet.js';
import { AssistantDesk } from './assistantDesk.js';
import { BridgeDesk } from './bridgeDesk.js';
import { CompanionSettingsDesk } from './companionSettingsDesk.js';
import { PointsDesk } from './pointsDesk.js';
import { SwapDesk } from './swapDesk.js';
import type { TransferTracker } from './transferTracker.js';
import { TransferRuns } from './transferRuns.js';

export interface CompanionDeskOptions {
  companion: CompanionContext;
  wallet: WalletSession;
  tracker: TransferTracker;
  inferenceKeys: InferenceKeyStore;
  reads: AccountReads;
  logger: AppLogger;
  /** Main's own confirmation (a native dialog in the app): adding a receiver asks it too. */
  confirm: DialogAdapter['confirm'];
  fetch?: typeof fetch;
}

export interface CompanionDesks {
  readonly settings: CompanionSettingsDesk;
  readonly bridge: BridgeDesk;
  readonly swap: SwapDesk;
  readonly points: PointsDesk;
  readonly assistant: AssistantDesk;
  /**
   * Stops following orders and saving. A send still under way (a Ledger waiting for a confirmation, a
   * receipt not in yet) is not waited for: the next session finds it under way in the saved list and
   * follows its source transaction, or marks it interrupted when none was known yet.
   */
  close(): void;
  /** Bridge and swap sends still running (tests wait on them). */
  settled(): Promise<void>;
}

export function openCompanionDesks(options: CompanionDeskOptions): CompanionDesks {
  const { companion, wallet, tracker, inferenceKeys, reads, logger } = options;
  // One set of background sends for bridge and swap, so settled() waits for both.
  const runs = new TransferRuns(tracker);
  return {
    settings: new CompanionSettingsDesk({ companion, wallet, logger, confirm: options.confirm, ...(options.fetch ? { fetch: options.fetch } : {}) }),
    bridge: new BridgeDesk({ companion, wallet, tracker, logger }, runs),
    swap: new SwapDesk({ companion, wallet, tracker, logger }, runs),
    points: new PointsDesk({ companion, wallet }),
    assistant: new AssistantDesk({ companion, wallet, inferenceKeys, reads, logger }),
    close: () => tracker.close(),
    settled: () => runs.settled(),
  };
}
