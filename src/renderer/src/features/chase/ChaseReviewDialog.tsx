/**
 * The review of a chase before it starts (chase:preview): where its first order rests now (from the live
 * book as main read it), post-only, the size and leverage, and what stops it (a fill, the max distance,
 * the timeout, the trader); Start sends exactly this review to main (chase:start), which runs it.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChasePreview } from '../../../../shared/ipc';
import { formatDuration } from '../../../../shared/duration/duration';
import { perps, unwrap } from '../../ipc/client';
import { dec, fmt, fmtUsd } from '../../lib/decimal';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { Dialog } from '../../ui/Dialog';
import { KV, KVList } from '../../ui/Panel';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { putChases } from './chaseQueries';

export function ChaseReviewDialog({ preview, onClose, onStarted }: { preview: ChasePreview | null; onClose: () => void; onStarted: () => void }) {
  const client = useQueryClient();
  const start = useMutation({
    mutationFn: (p: ChasePreview) => unwrap(perps().chase.start({ preview_id: p.preview_id })),
    onSuccess: (v) => {
      putChases(client, [v]);
      pushToast({ tone: 'success', title: `Chase started · ${v.market}`, body: `${v.side === 'BUY' ? 'Buy' : 'Sell'} ${fmt(v.size)} post-only, following the best ${v.side === 'BUY' ? 'bid' : 'ask'}` });
      onStarted();
      onClose();
    },
  });
  if (!preview) return null;
  const buy = preview.side === 'BUY';
  const value = dec(preview.size) && dec(preview.price) ? dec(preview.size)!.mul(dec(preview.price)!) : null;
  const footer = (
    <>
      <span className="grow muted" style={{ fontSize: 'var(--fs-sm)' }}>
        Preview valid for <Countdown at={preview.valid_until} warnWithinMs={10_000} />
      </span>
      <Button variant="ghost" onClick={onClose} disabled={start.isPending}>
        Cancel
      </Button>
      <Button variant={buy ? 'buy' : 'sell'} busy={start.isPending} onClick={() => start.mutate(preview)}>
        Start chase
      </Button>
    </>
  );
  return (
    <Dialog open title={`Review chase · ${preview.market}`} onClose={onClose} width={600} locked={start.isPending} footer={footer}>
      <section className="leg-card" aria-label="First order">
        <h3>
          First order
          <Badge tone={buy ? 'buy' : 'sell'}>{preview.side}</Badge>
          <Badge>LIMIT post-only (ALO)</Badge>
        </h3>
        <KVList label="First order">
          <KV k="Side">{buy ? 'Buy / Long' : 'Sell / Short'}</KV>
          <KV k="Rests at now">{fmt(preview.price)}</KV>
          <KV k="Best bid / ask now">
            {fmt(preview.best_bid)} / {fmt(preview.best_ask)}
          </KV>
          <KV k="Offset">{preview.offset_ticks === 0 ? `At the best ${buy ? 'bid' : 'ask'}` : `${preview.offset_ticks} ticks inside (tick ${preview.tick_size})`}</KV>
          <KV k="Size">
            {fmt(preview.size)} {preview.market}
          </KV>
          <KV k="Leverage">{preview.leverage}x</KV>
          <KV k="Value">{fmtUsd(value)}</KV>
        </KVList>
      </section>
      <KVList label="What stops it">
        <KV k="Filled">Ends when {fmt(preview.size)} has filled (a partial fill keeps chasing the rest)</KV>
        <KV k="Max distance">{preview.max_distance ?? 'None'}</KV>
        <KV k="Timeout">{preview.timeout_ms !== null ? formatDuration(preview.timeout_ms) : 'None'}</KV>
        <KV k="At a limit">{preview.on_limit === 'cancel' ? 'Cancel the order' : 'Leave the order resting'}</KV>
        <KV k="Cross after">{preview.taker_after_ms !== null ? formatDuration(preview.taker_after_ms) : 'Never'}</KV>
        <KV k="You">Stop from the Chase tab: leave the order or cancel it</KV>
      </KVList>
      <ul className="review-summary" aria-label="What happens">
        {preview.summary.map((s) => (
          <li key={s}>{s}</li>
        ))}
        <li>
          In the app main chases it, with the window closed into the tray too. Quitting {preview.on_limit === 'cancel' ? 'cancels the order and ends the chase' : 'leaves the order resting; the chase is taken up again when the app runs and this wallet opens'}.
        </li>
      </ul>
      {start.error && <ErrorLine error={start.error} />}
    </Dialog>
  );
}
