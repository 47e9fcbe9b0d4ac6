/**
 * The work main does on its own while nobody looks at the window (a TWAP's slices, alerts, trailing stops,
 * OCO pairs, chase orders): what keeps the app in the tray when its window closes, what the tray menu
 * lists, and what the quit confirmation names. Each kind of work registers one provider that lists what
 * is active right now; nothing here knows how any of them works.
 *
 * What quitting does to each kind is said once, here (WORK_KINDS), so every front end (the tray's menu,
 * the quit dialog) says the same thing, and a trailing stop's "its last stop level stays armed at the
 * service" can never be left out of the dialog.
 */

export const BACKGROUND_WORK_KINDS = ['twap', 'alert', 'trailing_stop', 'oco', 'chase'] as const;
export type BackgroundWorkKind = (typeof BACKGROUND_WORK_KINDS)[number];

export interface WorkKindInfo {
  /** One of them, as a sentence names it ("TWAP", "trailing stop"). */
  one: string;
  many: string;
  /** What quitting does to each of them, after "Each ... " in the quit dialog. */
  onQuit: string;
}

export const WORK_KINDS: Record<BackgroundWorkKind, WorkKindInfo> = {
  twap: { one: 'TWAP', many: 'TWAPs', onQuit: 'pauses after its current slice and waits on the next start for you to resume or stop it' },
  alert: { one: 'alert', many: 'alerts', onQuit: 'is not watched until the app runs again' },
  trailing_stop: { one: 'trailing stop', many: 'trailing stops', onQuit: 'stops trailing; its last stop level stays armed at the service' },
  oco: { one: 'OCO pair', many: 'OCO pairs', onQuit: 'is no longer watched: both orders keep resting at the service, and a fill of one while the app is closed cancels the other when the app runs again' },
  chase: { one: 'chase', many: 'chases', onQuit: 'stops chasing: if it is set to cancel at its limit, its order is cancelled and the chase ends; if set to leave, its order keeps resting and the chase is taken up again when the app runs and this wallet opens' },
};

/** One piece of active work, as the tray menu lists it. */
export interface ActiveWorkItem {
  /** Stable while it runs (a TWAP's id): tells two items of one kind apart. */
  id: string;
  /** A short line: "TWAP buy 2 BTC-PERP, 3 of 10 slices". */
  label: string;
}

export interface ActiveWork extends ActiveWorkItem {
  kind: BackgroundWorkKind;
}

export interface BackgroundWorkProvider {
  kind: BackgroundWorkKind;
  /** What of this kind is active now. Called whenever the tray or a quit asks; keep it cheap and synchronous. */
  list(): readonly ActiveWorkItem[];
}

export interface WorkRegistration {
  /** Tells the listeners (the tray's menu) that this provider's list changed. */
  changed(): void;
  unregister(): void;
}

export class BackgroundWork {
  private readonly providers = new Set<BackgroundWorkProvider>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly onListError: (kind: BackgroundWorkKind, err: unknown) => void = () => undefined) {}

  register(provider: BackgroundWorkProvider): WorkRegistration {
    this.providers.add(provider);
    this.changed();
    return {
      changed: () => this.changed(),
      unregister: () => {
        if (this.providers.delete(provider)) this.changed();
      },
    };
  }

  /**
   * Everything active now, in the order of BACKGROUND_WORK_KINDS. A provider whose list throws is reported
   * and counted as one item of its kind: a broken list must not let a quit pass unasked.
   */
  active(): ActiveWork[] {
    const out: ActiveWork[] = [];
    for (const kind of BACKGROUND_WORK_KINDS) {
      for (const p of this.providers) {
        if (p.kind !== kind) continue;
        try {
          for (const item of p.list()) out.push({ kind, id: item.id, label: item.label });
        } catch (err) {
          this.onListError(kind, err);
          out.push({ kind, id: `${kind}:unreadable`, label: `${WORK_KINDS[kind].many} (their list could not be read)` });
        }
      }
    }
    return out;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}
