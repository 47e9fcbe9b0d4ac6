/** The ticket's OCO type as data: the two leg prices (the size and leverage are the ticket's), and the oco:preview request they make. */
import type { IpcRequest, MarketView } from '../../../../shared/ipc';
import { IpcQueryError } from '../../ipc/client';
import { fieldError } from '../../lib/fieldErrors';

export interface OcoFields {
  buy: string;
  sell: string;
}

export const initialOco: OcoFields = { buy: '', sell: '' };

/** Main's names of the OCO fields (its refusals are shown at them). */
export const OCO_FIELDS = { buy: ['buy'], sell: ['sell'] } as const;

export function ocoRequest(f: OcoFields, o: { market: MarketView; size: string; leverage: number }): IpcRequest<'oco:preview'> {
  return { market: o.market.symbol, buy: f.buy.trim(), sell: f.sell.trim(), size: o.size.trim(), leverage: o.leverage };
}

/** Main's refusal at an OCO field, led by the rule it broke (OCO_LEG_WOULD_FILL) when it names one. */
export function ocoFieldError(error: unknown, names: readonly string[]): string | undefined {
  const text = fieldError(error, names);
  if (text === undefined || !(error instanceof IpcQueryError) || !error.reason) return text;
  return `${error.reason}: ${text}`;
}
