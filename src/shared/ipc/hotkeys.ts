/** The IPC shapes of trade hotkeys (settings:getHotkeys / settings:setHotkeys); the rules are in tradeHotkeys.ts. */
import { z } from 'zod';
import { HOTKEY_PATTERN, TRADE_HOTKEY_ACTIONS, isCanonicalHotkey, type TradeHotkeyAction } from '../tradeHotkeys.js';

export const HotkeySchema = z
  .string()
  .max(32)
  .regex(HOTKEY_PATTERN, 'expected a key such as "Alt+B" (modifiers Ctrl, Alt, Shift, Meta in that order, then a letter, a digit or F1-F12)')
  .refine((k) => isCanonicalHotkey(k), 'modifiers go in the order Ctrl, Alt, Shift, Meta, each once');

export const TradeHotkeysSchema = z.object({
  enabled: z.boolean(),
  /** null: that action has no key. */
  bindings: z.object(Object.fromEntries(TRADE_HOTKEY_ACTIONS.map((a) => [a, HotkeySchema.nullable()])) as Record<TradeHotkeyAction, z.ZodNullable<typeof HotkeySchema>>),
});
export const TradeHotkeysPatchSchema = z.strictObject({
  enabled: z.boolean().optional(),
  bindings: z.strictObject(Object.fromEntries(TRADE_HOTKEY_ACTIONS.map((a) => [a, HotkeySchema.nullable().optional()])) as Record<TradeHotkeyAction, z.ZodOptional<z.ZodNullable<typeof HotkeySchema>>>).optional(),
});

