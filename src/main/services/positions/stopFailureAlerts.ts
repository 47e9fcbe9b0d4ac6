/**
 * Saying that a stop failed (issue 35, item 1): a TP/SL that fired and was cancelled unfilled leaves the
 * position open without the protection the trader set. Every running watcher (the app, each `perps alert
 * watch`) finds it in the order history within seconds and says it; the alerts log holds it once, written
 * by whichever process claims it first (a claim file in the data folder, under its lock), so two watchers
 * beside each other do not log it twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { AlertFiring } from '../../../shared/alerts/alertRule.js';
import type { PositionView } from '../../../shared/ipc.js';
import { writeFileAtomicSync } from '../../files/atomicWrite.js';
import { withFileLockSync } from '../../files/recordLock.js';
import { appendAlertLog } from '../alerts/alertLog.js';
import { OperationError } from '../errors.js';
import { pollEvery } from '../reads/pollEvery.js';
import { readPositionViews } from '../reads/positionRisk.js';
import { groupDigits } from './positionTpsl.js';

const CLAIMS_FILE = 'stop-failures.json';
/** Claims kept (oldest dropped): far more failures than any account sees in a day. */
const MAX_CLAIMS = 500;

/** A failed TP/SL of a position view as the firing the alerts log and the page's toast take. */
export function failureFirings(profile: string, view: PositionView, at: number): AlertFiring[] {
  const out: AlertFiring[] = [];
  for (const kind of ['sl', 'tp'] as const) {
    const f = view[`${kind}_failure`];
    if (!f) continue;
    const name = kind === 'sl' ? 'Stop' : 'Take-profit';
    const reason = view[`${kind}_reason`] ?? f.reason_code;
    const size = view.size.replace('-', '');
    out.push({
      at,
      profile,
      id: f.order_id,
      market: view.market,
      kind: 'stop_failed',
      value: f.trigger_price ?? f.limit_price,
      title: `${view.market} ${name.toLowerCase()} failed`,
      message: `${name} failed: ${reason}. ${kind.toUpperCase()} ${groupDigits(f.trigger_price ?? '?')} fired and was cancelled unfilled; the ${view.side.toLowerCase()} of ${size} ${view.market} is open${kind === 'sl' ? ' without a stop' : ''}. Close it at market or re-arm.`,
      note: '',
      done: true,
    });
  }
  return out;
}

/** Appends the firing to the alerts log unless another process already did; true when this one did. */
export function logFailureOnce(dataDir: string, firing: AlertFiring): boolean {
  const file = path.join(dataDir, CLAIMS_FILE);
  return withFileLockSync(
    file,
    (why, cause) => new OperationError('STOP_FAILURE_LOG_BUSY', `${CLAIMS_FILE} ${why}`, { kind: 'transient', cause }),
    () => {
      let claims: string[] = [];
      try {
        const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
        // A claim file that is not a list of ids is replaced: at worst a failure is logged once more.
        if (Array.isArray(parsed) && parsed.every((x) => typeof x === 'string')) claims = parsed;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' && !(err instanceof SyntaxError)) throw err;
      }
      const key = `${firing.profile}:${firing.id}`;
      if (claims.includes(key)) return false;
      appendAlertLog(dataDir, firing);
      writeFileAtomicSync(file, JSON.stringify([...claims, key].slice(-MAX_CLAIMS)) + '\n');
      return true;
    },
  );
}

/** Remembers which failures this process has said already, so each is said once per watcher. */
export class FailureMemory {
  private readonly said = new Set<string>();

  /** The firings among `views` not said yet by this process. */
  fresh(profile: string, views: readonly PositionView[], at: number): AlertFiring[] {
    const out: AlertFiring[] = [];
    for (const v of views) {
      for (const f of failureFirings(profile, v, at)) {
        if (this.said.has(f.id)) continue;
        this.said.add(f.id);
        out.push(f);
      }
    }
    return out;
  }
}

/**
 * A watcher outside the app (`perps alert watch`): reads each wallet's positions every `everyMs` and
 * reports each failed TP/SL once (and logs it once across processes).
 */
export function startStopFailurePoll(o: {
  ctx: Parameters<typeof readPositionViews>[0] & { profile: { name: string; dataDir: string } };
  wallets: () => readonly string[];
  everyMs: number;
  onFailure: (firing: AlertFiring) => void;
  onError: (err: Error) => void;
}): { stop(): void } {
  const memory = new FailureMemory();
  const poll = async (): Promise<void> => {
    for (const wallet of o.wallets()) {
      const { positions } = await readPositionViews(o.ctx, wallet);
      for (const firing of memory.fresh(o.ctx.profile.name, positions, Date.now())) {
        o.onFailure(firing);
        logFailureOnce(o.ctx.profile.dataDir, firing);
      }
    }
  };
  return pollEvery(poll, o.everyMs, o.onError);
}
