/**
 * TP/SL on a position as data: the two level fields start at the armed levels; what positions:previewTpsl
 * is asked follows from how each field differs from its armed level (a new or changed price sets or moves
 * it, an emptied field removes it, an untouched one is left out). The wrong-side check (lifecycle rule 6:
 * a long's TP above the mark and SL below, a short's the other way) is the one main makes; here it only
 * warns while typing, since main refuses such a level with its own reason and nothing changes.
 */
import type { IpcRequest, PositionView } from '../../../../shared/ipc';
import { dec } from '../../lib/decimal';

export type TpslKind = 'tp' | 'sl';

export interface TpslFields {
  tp: string;
  sl: string;
}

export const KIND_NAME: Record<TpslKind, string> = { tp: 'take-profit', sl: 'stop-loss' };

/** The fields as the dialog opens: the armed levels, or empty. */
export function initialTpslFields(p: Pick<PositionView, 'tp' | 'sl'>): TpslFields {
  return { tp: p.tp?.trigger_price ?? '', sl: p.sl?.trigger_price ?? '' };
}

/** One level's change: a price (set or move), null (remove) or undefined (leave it). */
function levelChange(field: string, armed: string | null): string | null | undefined {
  const text = field.trim();
  if (text === '') return armed === null ? undefined : null;
  const d = dec(text);
  // Text that is not a price is sent as typed: main refuses it naming the field, and nothing changes.
  if (d && armed !== null && dec(armed)?.eq(d)) return undefined;
  return text;
}

/** The previewTpsl request for these fields, or null when nothing would change. */
export function tpslRequest(p: Pick<PositionView, 'market' | 'tp' | 'sl'>, fields: TpslFields): IpcRequest<'positions:previewTpsl'> | null {
  const tp = levelChange(fields.tp, p.tp?.trigger_price ?? null);
  const sl = levelChange(fields.sl, p.sl?.trigger_price ?? null);
  if (tp === undefined && sl === undefined) return null;
  return { market: p.market, ...(tp !== undefined ? { tp } : {}), ...(sl !== undefined ? { sl } : {}) };
}

/** A warning when a level is on the wrong side of the mark (it would fire at once; main refuses it). */
export function wrongSideWarning(kind: TpslKind, field: string, mark: string | null, side: PositionView['side']): string | undefined {
  const level = dec(field);
  const m = dec(mark);
  if (!level || !m || level.lte(0)) return undefined;
  const long = side === 'LONG';
  const above = (kind === 'tp') === long;
  if (above ? level.gt(m) : level.lt(m)) return undefined;
  return `A ${long ? 'long' : 'short'}’s ${KIND_NAME[kind]} must be ${above ? 'above' : 'below'} the mark (${m.toFixed()}): this one would fire at once.`;
}
