/**
 * Alerts in the data folder: <data folder>/alerts.json, one file for every profile's alerts (0600, folder
 * 0700), written atomically (files/atomicWrite.ts) under the file's short lock (files/recordLock.ts),
 * because the app and `perps alert` share the folder: an alert added in a terminal shows in the app, and
 * two evaluators (the app and `perps alert watch`) take the same lock to fire an alert, so a one-shot
 * fires exactly once across processes (alertEvaluator.ts).
 *
 * The file is validated as a whole on every read: a damaged file is reported (ALERT_STORE_DAMAGED, naming
 * the file), never silently dropped or rewritten; nothing is stored until it is repaired or moved aside.
 * It is read only as a regular file within a size cap (files/recordFiles.ts). Each alert is then held to
 * the rules a new one passes (shared/alerts/alertInput.ts storedAlertProblems): one that fails is listed
 * with its problems and never evaluated. A write after a lost lock (a holder that stalled past the lock's
 * stale time while another process wrote) is refused with ALERT_STORE_CONFLICT, never silent.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { storedAlertProblems } from '../../../shared/alerts/alertInput.js';
import { oneLineText } from '../../../shared/safeText.js';
import { AlertViewSchema, type AlertKind, type AlertSpec, type AlertView } from '../../../shared/alerts/alertRule.js';
import { writeFileAtomicSync } from '../../files/atomicWrite.js';
import { ensurePrivateFolder } from '../../files/privateFolder.js';
import { assertUnchangedSince, readRecordText, UnreadableRecordFile } from '../../files/recordFiles.js';
import { withFileLockSync } from '../../files/recordLock.js';
import { OperationError } from '../errors.js';

export const ALERTS_FILE = 'alerts.json';
/** More alerts than this per profile is a different tool (and a slow evaluator). */
export const MAX_ALERTS_PER_PROFILE = 200;
/** The alerts file is read only up to this size: room for 200,000 stored alerts, never /dev/zero. */
export const MAX_ALERTS_FILE_BYTES = 256 * 1024 * 1024;

/** A stored alert that fails the rules a new one passes: listed with why, never evaluated. */
export interface DamagedAlert {
  id: string;
  market: string;
  kind: AlertKind;
  problems: string[];
}

const StoredAlertSchema = AlertViewSchema.extend({
  profile: z.string().min(1),
  /**
   * When an evaluator last changed the crossing state (a firing or a re-arm), on this machine's clock; 0 or
   * absent: set by a person (a new alert, a level moved) or a file from before it. Another evaluator whose
   * own reading of the stream disagrees defers to a change this recent and adopts an older one
   * (alertEvaluator.ts).
   */
  state_at: z.number().int().nonnegative().optional(),
  /**
   * Which evaluator made that change (`host:pid`, evaluatorLiveness.ts); absent when a person did. While
   * that evaluator still runs, another whose reading is behind its state defers to it however long ago the
   * change was.
   */
  state_by: z.string().max(300).optional(),
});
export type StoredAlert = z.infer<typeof StoredAlertSchema>;
const AlertsFileSchema = z.object({ version: z.literal(1), alerts: z.array(StoredAlertSchema) });
type AlertsFile = z.infer<typeof AlertsFileSchema>;

const ID = /^[0-9a-f]{12}$/;

export function alertNotFound(id: string, profile: string): OperationError {
  return new OperationError('ALERT_NOT_FOUND', `no alert ${id.slice(0, 40)} on profile '${profile}' in this data folder`, { hint: 'See `perps alert list`.' });
}

/** The view of a stored alert (without the profile it belongs to). */
export function alertView(a: StoredAlert): AlertView {
  const { profile: _profile, state_at: _stateAt, state_by: _stateBy, ...view } = a;
  return view;
}

export class AlertStore {
  readonly file: string;

  constructor(readonly dataDir: string) {
    if (!path.isAbsolute(dataDir)) throw new Error(`the data folder must be absolute, got '${dataDir}'`);
    ensurePrivateFolder(dataDir);
    this.file = path.join(dataDir, ALERTS_FILE);
  }

  /** This profile's alerts that pass the rules of a new one (without the market check), oldest first. */
  list(profile: string): AlertView[] {
    return this.checked(profile, null).alerts;
  }

  /**
   * This profile's alerts, oldest first, split by the rules a new alert passes: those that pass, and
   * beside them those that fail, with why. `marketSymbols`: the service's markets (null: not checked).
   */
  checked(profile: string, marketSymbols: readonly string[] | null): { alerts: AlertView[]; damaged: DamagedAlert[] } {
    const alerts: AlertView[] = [];
    const damaged: DamagedAlert[] = [];
    for (const a of this.readAll().alerts) {
      if (a.profile !== profile) continue;
      const problems = storedAlertProblems(a, marketSymbols);
      if (problems.length === 0) alerts.push(alertView(a));
      // The problems may quote what the file holds (a note, a level): one clean line each, for a terminal or the page.
      else damaged.push({ id: a.id, market: a.market, kind: a.rule.kind, problems: problems.map((p) => oneLineText(p).slice(0, 2_000)) });
    }
    return { alerts, damaged };
  }

  /** A cheap signature of the file's last write (evaluators reload when it changes). */
  version(): string {
    const s = fs.lstatSync(this.file, { throwIfNoEntry: false });
    return s ? `${s.mtimeMs}:${s.size}:${s.ino}` : 'none';
  }

  /** Stores a new alert. `armed` seeds the crossing state from the mark at hand (null: none known). */
  add(profile: string, spec: AlertSpec, armed: boolean | null, now: number = Date.now()): AlertView {
    return this.transact((file) => {
      if (file.alerts.filter((a) => a.profile === profile).length >= MAX_ALERTS_PER_PROFILE) {
        throw new OperationError('TOO_MANY_ALERTS', `profile '${profile}' already has ${MAX_ALERTS_PER_PROFILE} alerts`, { hint: 'Remove some with `perps alert rm ID`.' });
      }
      const alert: StoredAlert = {
        ...spec,
        profile,
        id: randomBytes(6).toString('hex'),
        created_at: now,
        status: 'active',
        armed: spec.rule.kind === 'move' ? null : armed,
        fired_count: 0,
        last_fired_at: null,
        last_fired_value: null,
      };
      return { next: { ...file, alerts: [...file.alerts, alert] }, result: alertView(alert) };
    });
  }

  remove(profile: string, id: string): AlertView {
    return this.transact((file) => {
      const found = file.alerts.find((a) => a.id === id && a.profile === profile);
      if (!ID.test(id) || !found) throw alertNotFound(id, profile);
      return { next: { ...file, alerts: file.alerts.filter((a) => a !== found) }, result: alertView(found) };
    });
  }

  /**
   * Read-modify-write of one alert under the lock: `change` sees the alert as stored now (another process
   * may have fired or removed it since this one last read) and returns the new alert (or the same object
   * for no change) and a result.
   */
  update<T>(profile: string, id: string, change: (current: StoredAlert) => { alert: StoredAlert; result: T }): T {
    return this.transact((file) => {
      const i = file.alerts.findIndex((a) => a.id === id && a.profile === profile);
      if (i < 0) throw alertNotFound(id, profile);
      const { alert, result } = change(file.alerts[i]!);
      if (alert === file.alerts[i]) return { next: null, result };
      const alerts = [...file.alerts];
      alerts[i] = alert;
      return { next: { ...file, alerts }, result };
    });
  }

  /** Runs `work` on the file as stored, under its lock; writes `next` unless it is null. */
  transact<T>(work: (file: AlertsFile) => { next: AlertsFile | null; result: T }): T {
    return withFileLockSync(
      this.file,
      (why, cause) => new OperationError('ALERT_STORE_BUSY', `${ALERTS_FILE} ${why}`, { kind: 'transient', cause }),
      () => {
        const { file, text } = this.readWithText();
        const { next, result } = work(file);
        if (next) {
          const data = JSON.stringify(AlertsFileSchema.parse(next), null, 2) + '\n';
          // Still the file this process read? A holder that stalled past the lock's time may have lost it to
          // another process, which wrote since: that change stands, this one is refused.
          assertUnchangedSince(this.file, text, () => new OperationError('ALERT_STORE_CONFLICT', `${ALERTS_FILE} was changed by another process while this one held its lock past the lock's time (it stalled); this change was not written`, {
            kind: 'transient',
            hint: 'Nothing was lost: the other change stands. Run the command again.',
          }), MAX_ALERTS_FILE_BYTES);
          writeFileAtomicSync(this.file, data);
        }
        return result;
      },
    );
  }

  private readAll(): AlertsFile {
    return this.readWithText().file;
  }

  private readWithText(): { file: AlertsFile; text: string | undefined } {
    const damaged = (why: string) =>
      new OperationError('ALERT_STORE_DAMAGED', `${this.file} ${why} (it is only ever written atomically, so something else changed it)`, {
        hint: `Nothing was changed. Repair the file or move it aside to start with no alerts.`,
      });
    let text: string | undefined;
    try {
      text = readRecordText(this.file, MAX_ALERTS_FILE_BYTES);
    } catch (err) {
      if (err instanceof UnreadableRecordFile) throw damaged(err.why);
      throw err;
    }
    return { file: this.parse(text, damaged), text };
  }

  private parse(text: string | undefined, damaged: (why: string) => OperationError): AlertsFile {
    if (text === undefined) return { version: 1, alerts: [] };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw damaged('is not valid JSON');
    }
    const r = AlertsFileSchema.safeParse(parsed);
    if (!r.success) throw damaged(`does not hold alerts (${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message})`);
    const ids = new Set(r.data.alerts.map((a) => a.id));
    if (ids.size !== r.data.alerts.length) throw damaged('holds two alerts with the same id');
    return r.data;
  }
}
