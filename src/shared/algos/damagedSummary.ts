/**
 * What can still be read of a damaged trailing-stop or OCO record to tell which it was: each field only
 * if it passes its own schema, else null. Never used to act on anything.
 */
import { z } from 'zod';
import { addressSchema, marketSymbol } from '../fieldSchemas.js';

export interface DamagedAlgoSummary {
  profile: string | null;
  wallet: string | null;
  market: string | null;
}

function pick<T>(schema: z.ZodType<T>, v: unknown): T | null {
  const p = schema.safeParse(v);
  return p.success ? p.data : null;
}

export function damagedAlgoSummary(raw: unknown): DamagedAlgoSummary {
  const o = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return { profile: pick(z.string().min(1).max(100), o['profile']), wallet: pick(addressSchema, o['wallet']), market: pick(marketSymbol, o['market']) };
}
