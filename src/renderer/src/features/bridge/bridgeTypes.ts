/** The bridge screen's shared types (BridgeView builds the quote context, BridgeReview reads it): types only. */
import type { BridgeQuoteRequest } from '../../../../shared/ipc';
import type { QuoteContext } from '../transfers/useTransferQuote';

export type BridgeQuoteContext = QuoteContext<BridgeQuoteRequest>;
