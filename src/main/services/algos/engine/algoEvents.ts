/**
 * What a running algorithm tells the front ends, typed: the app's notifications, toasts and panel, and the
 * command line's lines, are decided from `type` (and `kind`), never by reading the text. The text is what
 * the person reads; it is already written to the algorithm's notes when the event is emitted.
 *
 *  - started:   the runner holds the algorithm and runs it (a start, a resume, a restart);
 *  - acted:     it sent something that changed the order book (a slice, a stop moved, a leg cancelled, a chase re-priced);
 *  - paused:    it stopped for now and waits for the person (a pause, a risk limit);
 *  - stopped:   it ended, or this process let go of it; what rests at the service stays as the text says;
 *  - failed:    it ended because something was refused or went wrong;
 *  - attention: it goes on (or ended) but the person should know now (time away caught up, a failed stop,
 *               a record that disagrees with the service).
 */
export const ALGO_KINDS = ['twap', 'trailing', 'oco', 'chase'] as const;
export type AlgoKind = (typeof ALGO_KINDS)[number];

export const ALGO_EVENT_TYPES = ['started', 'acted', 'paused', 'stopped', 'failed', 'attention'] as const;
export type AlgoEventType = (typeof ALGO_EVENT_TYPES)[number];

export interface AlgoEvent {
  kind: AlgoKind;
  /** The algorithm's id (12 hex characters). */
  id: string;
  type: AlgoEventType;
  /** One line for a person, as written to the notes. */
  text: string;
  /** The service-clock time of the event (Unix ms). */
  at: number;
  /** The market it trades, where the runner knows it. */
  market?: string;
  /**
   * Why, as a stable code a front end may branch on (never the text): the record's stop or end reason
   * (`target_reached`, `position_closed`, `stop_failed`, ...) or what paused it (`risk_limit`, `requested`).
   */
  reason?: string;
}

export type AlgoEventListener = (event: AlgoEvent) => void;
