/**
 * The IPC shapes of alerts (issue 27, item 2): alerts:* channels, the `alerts` stream (the profile's
 * alerts, whole, whenever they change: an add in a terminal, a firing, a dragged line) and the
 * `alertFired` stream (one event per firing, for the toast, the sound and the live region; never
 * coalesced away: keyed by alert and time). index.ts attaches them to the channel and event tables.
 * Requests carry text as typed: main parses it with the same parser as `perps alert add`
 * (alerts/alertInput.ts), so the panel, a dragged line and the command line refuse the same input.
 */
import { z } from 'zod';
import { ALERT_KINDS, AlertFiringSchema, AlertViewSchema, MAX_ALERT_NOTE_LENGTH } from '../alerts/alertRule.js';
import { MAX_DECIMAL_INPUT_LENGTH, marketSymbol } from '../fieldSchemas.js';

export type { AlertFiring, AlertView, AlertKind, AlertRule } from '../alerts/alertRule.js';

export const AlertIdSchema = z.string().regex(/^[0-9a-f]{12}$/, 'expected an alert id (12 hex characters)');

export const AlertAddRequestSchema = z.strictObject({
  market: marketSymbol,
  kind: z.enum(ALERT_KINDS),
  /** The level or percentage as typed (checked by the shared parser: no exponent, nothing rounded). */
  value: z.string().max(MAX_DECIMAL_INPUT_LENGTH + 8),
  window: z.string().max(32).optional(),
  repeat: z.boolean().optional(),
  note: z.string().max(MAX_ALERT_NOTE_LENGTH + 8).optional(),
});
export type AlertAddRequest = z.infer<typeof AlertAddRequestSchema>;

export const AlertIdRequestSchema = z.strictObject({ id: AlertIdSchema });
/** A new level for an alert (a line dragged on the chart). */
export const AlertSetLevelRequestSchema = z.strictObject({ id: AlertIdSchema, level: z.string().max(MAX_DECIMAL_INPUT_LENGTH + 8) });

/**
 * A stored alert that fails the rules a new one passes (a hand-edited file, an older version's record, a
 * market the service no longer lists): listed apart with why, never evaluated, removable. Main cleans
 * every text of it (shared/safeText.ts) before it leaves the store.
 */
export const DamagedAlertViewSchema = z.object({
  id: AlertIdSchema,
  market: marketSymbol,
  kind: z.enum(ALERT_KINDS),
  /** What is wrong, one line each. */
  problems: z.array(z.string().max(2_000)).min(1),
});
export type DamagedAlertView = z.infer<typeof DamagedAlertViewSchema>;

export const AlertListSchema = z.object({
  alerts: z.array(AlertViewSchema),
  /** Stored alerts that fail the rules of a new one: shown apart, never evaluated. */
  damaged: z.array(DamagedAlertViewSchema),
  /** The latest firings of the alerts log, newest first. */
  recent: z.array(AlertFiringSchema),
});
export type AlertList = z.infer<typeof AlertListSchema>;

export const AlertsEventSchema = z.object({ alerts: z.array(AlertViewSchema), damaged: z.array(DamagedAlertViewSchema) });
export const AlertFiredEventSchema = z.object({ firings: z.array(AlertFiringSchema) });
