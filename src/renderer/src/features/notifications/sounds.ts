/**
 * Optional sounds for what a trader may not be looking at: a fill, a TP/SL trigger firing, a liquidation
 * warning, an alert firing. Each is off until turned on in Settings › Sounds (notification preferences sound_*, stored by
 * main). The tones are generated with WebAudio (a few short sine notes with a soft envelope): no audio
 * file is shipped or fetched, and the page's content policy needs nothing new.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { NotificationPrefs } from '../../../../shared/ipc';
import { qk } from '../../ipc/queries';
import { pushToast } from '../../ui/toast';

export type SoundKind = 'fill' | 'trigger' | 'risk' | 'alert';

/** Which preference switches each sound. */
export const SOUND_PREF: Record<SoundKind, keyof NotificationPrefs> = { fill: 'sound_fills', trigger: 'sound_trigger_fires', risk: 'sound_risk_warnings', alert: 'sound_alerts' };

interface Note {
  hz: number;
  /** Start, seconds after the sound starts. */
  at: number;
  /** Length in seconds. */
  len: number;
}

/** A rising chime for a fill, two level tones for a trigger, a falling two-note alarm (twice) for a risk warning, a three-note bell for an alert. */
const SOUNDS: Record<SoundKind, readonly Note[]> = {
  fill: [
    { hz: 880, at: 0, len: 0.08 },
    { hz: 1318.5, at: 0.09, len: 0.14 },
  ],
  trigger: [
    { hz: 659.3, at: 0, len: 0.12 },
    { hz: 659.3, at: 0.17, len: 0.12 },
  ],
  risk: [
    { hz: 587.3, at: 0, len: 0.16 },
    { hz: 392, at: 0.2, len: 0.22 },
    { hz: 587.3, at: 0.5, len: 0.16 },
    { hz: 392, at: 0.7, len: 0.22 },
  ],
  alert: [
    { hz: 1046.5, at: 0, len: 0.1 },
    { hz: 1318.5, at: 0.12, len: 0.1 },
    { hz: 1568, at: 0.24, len: 0.2 },
  ],
};

/** A burst (ten fills in one update) plays once, not ten times over itself. */
const MIN_GAP_MS = 400;
const lastPlayed = new Map<SoundKind, number>();
let audio: AudioContext | null = null;

/** Plays a sound now (Settings' preview buttons call this directly; events go through playIfEnabled). */
export function playSound(kind: SoundKind): void {
  const now = Date.now();
  if (now - (lastPlayed.get(kind) ?? 0) < MIN_GAP_MS) return;
  lastPlayed.set(kind, now);
  audio ??= new AudioContext();
  const ctx = audio;
  // A context created before any click starts suspended; resuming is allowed once the user has interacted.
  if (ctx.state === 'suspended') void ctx.resume();
  const start = ctx.currentTime + 0.01;
  for (const note of SOUNDS[kind]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.type = 'sine';
    osc.frequency.value = note.hz;
    // A quick attack and an exponential release: no click at either end.
    gain.gain.setValueAtTime(0.0001, start + note.at);
    gain.gain.exponentialRampToValueAtTime(0.18, start + note.at + 0.012);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + note.at + note.len);
    osc.connect(gain).connect(ctx.destination);
    osc.start(start + note.at);
    osc.stop(start + note.at + note.len + 0.02);
  }
}

/** Plays `kind` when its switch is on in the preferences the app has read (off when not read yet). */
export function playIfEnabled(client: QueryClient, kind: SoundKind): void {
  const prefs = client.getQueryData<NotificationPrefs>(qk.notifications);
  if (prefs?.[SOUND_PREF[kind]] === true) playSound(kind);
}

/**
 * The hook for liquidation-risk warnings: a warning toast, and the risk sound when it is switched on.
 * ipc/events.ts calls it for each position entering main's `riskWarning` set (features/risk).
 */
export function announceRiskWarning(client: QueryClient, warning: { market: string; message: string }): void {
  // Assertive: the one announcement that interrupts a screen reader (ui/announcer.ts).
  pushToast({ tone: 'warn', title: `Liquidation risk · ${warning.market}`, body: warning.message, announce: 'assertive' });
  playIfEnabled(client, 'risk');
}
