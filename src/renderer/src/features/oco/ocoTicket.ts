/** The ticket's OCO type as data: the two leg prices (the size and leverage are the ticket's), and the oco:preview request they make. */
import type { IpcRequest, MarketView } from '../../../../shared/ipc';

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
