/**
 * The IPC shapes of trailing stops (trail:start, trail:off): set from the TP/SL dialog, run by main (the
 * app's trail desk), shown on the position row through the position view's `trailing`.
 */
import { z } from 'zod';
import { decimalIn, marketSymbol } from '../fieldSchemas.js';
import { TrailingViewSchema } from './risk.js';

export const TrailStartRequestSchema = z.strictObject({
  market: marketSymbol,
  /** "1.5%" or a price distance; parsed and checked in main (src/shared/algos/trailing.ts). */
  distance: z.string().min(1).max(40),
  activate: decimalIn.optional(),
});

export const TrailOffRequestSchema = z.strictObject({ market: marketSymbol });

/** The position's trailing stop after the change (null: none trails it). */
export const TrailResultSchema = z.strictObject({ market: z.string(), trailing: TrailingViewSchema.nullable() });
export type TrailResult = z.infer<typeof TrailResultSchema>;
