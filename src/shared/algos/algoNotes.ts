/**
 * The notes every algorithm keeps in its record: one line per thing that happened, each stamped with the
 * service-clock time it happened at, the oldest dropped past MAX_ALGO_NOTES so a long run never grows its
 * file without bound. One format for every kind, so a note reads the same in `--list`, the app's panel and
 * the record file. Pure (the renderer reads notes too), so it lives in src/shared.
 */
export const MAX_ALGO_NOTES = 100;

/** "2026-12-06T07:01:02.000Z text": a note as stored. */
export function stampedNote(at: number, text: string): string {
  return `${new Date(at).toISOString()} ${text}`;
}

/** The notes with `text` added at `at`, at most MAX_ALGO_NOTES. */
export function withAlgoNote(notes: readonly string[], at: number, text: string): string[] {
  return [...notes, stampedNote(at, text)].slice(-MAX_ALGO_NOTES);
}

/** A stored note without its time stamp (for display where the time is shown apart). */
export function noteText(note: string): string {
  const m = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z /.exec(note);
  return m ? note.slice(m[0].length) : note;
}
