/**
 * The review of a TWAP before it starts (twap:preview): the schedule (slices, interval, randomization),
 * the arrival mark the average will be measured against, what slice 1's order is as it would be signed
 * now (each slice is prepared at its own time from the mark then), the fat-finger confirmations, and
 * Start, which sends exactly this review to main (twap:start).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ConfirmationCode, TwapPreview } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { fmt, fmtUsd } from '../../lib/decimal';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { Dialog } from '../../ui/Dialog';
import { KV, KVList } from '../../ui/Panel';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { allConfirmed, confirmedCodes, GuardConfirmations } from '../signing/GuardConfirmations';
import { putTwaps } from './twapQueries';

function seconds(ms: number): string {
  const s = ms / 1000;
  return s >= 120 ? `${(s / 60).toFixed(s % 60 === 0 ? 0 : 1)} min` : `${s} s`;
}

export function TwapReviewDialog({ preview, onClose, onStarted }: { preview: TwapPreview | null; onClose: () => void; onStarted: () => void }) {
  const client = useQueryClient();
  const [confirmed, setConfirmed] = useState<Set<ConfirmationCode>>(() => new Set());
  const start = useMutation({
    mutationFn: (p: TwapPreview) => unwrap(perps().twap.start({ preview_id: p.preview_id, ...(p.confirmations.length > 0 ? { confirm: confirmedCodes(p.confirmations, confirmed) } : {}) })),
    onSuccess: (v) => {
      putTwaps(client, [v]);
      pushToast({ tone: 'success', title: `TWAP started · ${v.market}`, body: `${v.side === 'BUY' ? 'Buy' : 'Sell'} ${fmt(v.total_size)} ${v.market} in ${v.slices_total} slices over ${seconds(v.duration_ms)}` });
      onStarted();
      onClose();
    },
  });
  if (!preview) return null;
  const first = preview.first_slice.legs[0];
  const ready = allConfirmed(preview.confirmations, confirmed);
  const footer = (
    <>
      <span className="grow muted" style={{ fontSize: 'var(--fs-sm)' }}>
        Preview valid for <Countdown at={preview.valid_until} warnWithinMs={10_000} />
      </span>
      <Button variant="ghost" onClick={onClose} disabled={start.isPending}>
        Cancel
      </Button>
      <Button variant={preview.side === 'SELL' ? 'sell' : 'buy'} busy={start.isPending} disabled={!ready} onClick={() => start.mutate(preview)}>
        Start TWAP
      </Button>
    </>
  );
  return (
    <Dialog open title={`Review TWAP · ${preview.market}`} onClose={onClose} width={600} locked={start.isPending} footer={footer}>
      <GuardConfirmations confirmations={preview.confirmations} confirmed={confirmed} onChange={setConfirmed} disabled={start.isPending} />
      <section className="leg-card" aria-label="TWAP schedule">
        <h3>
          TWAP
          <Badge tone={preview.side === 'BUY' ? 'buy' : 'sell'}>{preview.side}</Badge>
          <Badge>MARKET IOC slices</Badge>
          {preview.reduce_only && <Badge tone="info">Reduce-only</Badge>}
        </h3>
        <p className="leg-line">
          {preview.side === 'BUY' ? 'Buy' : 'Sell'} {fmt(preview.total_size)} {preview.market} in {preview.slices} slices, one every {seconds(preview.interval_ms)}, over {seconds(preview.duration_ms)}.
        </p>
        {first && <p className="leg-costs">Slice 1 as it would be signed now: {first.description}</p>}
      </section>
      <KVList label="TWAP totals">
        <KV k="Arrival mark">{fmt(preview.arrival_mark)}</KV>
        <KV k="Notional (at the arrival mark)">{fmtUsd(preview.notional_estimate)}</KV>
        <KV k="Slippage bound per slice">{preview.slippage_bps} bps from the mark at that moment</KV>
        <KV k="Randomization">{preview.randomize_time_pct === 0 && preview.randomize_size_pct === 0 ? 'none' : `time ±${preview.randomize_time_pct}% of the interval · size ±${preview.randomize_size_pct}%`}</KV>
        {preview.leverage !== null && <KV k="Leverage">{preview.leverage}x</KV>}
        <KV k="Stops early">at the target, on cancel, or when a slice is rejected for a reason that will not change</KV>
      </KVList>
      {preview.warnings.map((w) => (
        <p key={w} className="notice notice-warn" role="status">
          {w}
        </p>
      ))}
      {start.error && <ErrorLine error={start.error} />}
    </Dialog>
  );
}
