/**
 * The quote side of the Bridge and Swap forms. Both have an amount and the two optional USD values (for the
 * points estimate); both ask main for a quote and keep it with what it was asked for, so the review shows
 * exactly that and a form changed since marks it stale; and both start over once a transfer is sent from
 * it, showing that transfer. Each view adds only its own fields and request.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';

/** What a quote was asked for, kept beside it. */
export interface QuoteContext<R> {
  request: R;
  /** The token sent and the token received, as the form knew them (null while unknown). */
  sentSymbol: string | null;
  receivedSymbol: string | null;
  /** Amounts received are shown in the received token's units once its decimals are known. */
  receivedDecimals: number | null;
  srcUsd: string;
  dstUsd: string;
}

/** Both USD values, when the user gave both: what the points of a transfer are estimated from. */
export function pointsUsdOf(ctx: { srcUsd: string; dstUsd: string }): { src: string; dst: string } | null {
  return ctx.srcUsd && ctx.dstUsd ? { src: ctx.srcUsd, dst: ctx.dstUsd } : null;
}

export function useTransferQuote<R, Q>(fetchQuote: (request: R) => Promise<Q>) {
  const [amount, setAmount] = useState('');
  const [srcUsd, setSrcUsd] = useState('');
  const [dstUsd, setDstUsd] = useState('');
  const [quoted, setQuoted] = useState<{ quote: Q; ctx: QuoteContext<R> } | null>(null);
  /** The transfer the progress panel shows (null: the latest of the view's kind). */
  const [selected, setSelected] = useState<string | null>(null);
  const asking = useMutation({
    mutationFn: (ctx: QuoteContext<R>) => fetchQuote(ctx.request),
    onSuccess: (quote, ctx) => setQuoted({ quote, ctx }),
  });
  return {
    amount,
    setAmount,
    srcUsd,
    setSrcUsd,
    dstUsd,
    setDstUsd,
    selected,
    setSelected,
    quoted,
    /** Main's refusal of the last request for a quote. */
    error: asking.error,
    isAsking: asking.isPending,
    ask: (request: R, tokens: Pick<QuoteContext<R>, 'sentSymbol' | 'receivedSymbol' | 'receivedDecimals'>) =>
      asking.mutate({ request, ...tokens, srcUsd: srcUsd.trim(), dstUsd: dstUsd.trim() }),
    /** Asks again for what the quote shown was asked for. */
    refresh: () => {
      if (quoted) asking.mutate(quoted.ctx);
    },
    /** The form no longer asks what the quote answered (the USD values included: the review estimates points with them). */
    isStale: (request: R | null) => quoted !== null && JSON.stringify([quoted.ctx.request, quoted.ctx.srcUsd, quoted.ctx.dstUsd]) !== JSON.stringify([request, srcUsd.trim(), dstUsd.trim()]),
    /** A transfer was sent from the quote: the form starts over, and that transfer is the one shown. */
    sent: (transferId: string) => {
      setQuoted(null);
      asking.reset();
      setAmount('');
      setSrcUsd('');
      setDstUsd('');
      setSelected(transferId);
    },
  };
}
