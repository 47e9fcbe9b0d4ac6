/**
 * The review of an OCO pair before it is sent (oco:preview): both legs as they will be signed (side,
 * price, size, leverage), the mark they rest around, and what happens when one fills; Start sends exactly
 * this review to main (oco:start), which runs the pair.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { OcoPreview } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { fmt, fmtUsd, dec } from '../../lib/decimal';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Countdown } from '../../ui/Countdown';
import { Dialog } from '../../ui/Dialog';
import { KV, KVList } from '../../ui/Panel';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { putOcos } from './ocoQueries';

export function OcoReviewDialog({ preview, onClose, onStarted }: { preview: OcoPreview | null; onClose: () => void; onStarted: () => void }) {
  const client = useQueryClient();
  const start = useMutation({
    mutationFn: (p: OcoPreview) => unwrap(perps().oco.start({ preview_id: p.preview_id })),
    onSuccess: (v) => {
      putOcos(client, [v]);
      pushToast({ tone: 'success', title: `OCO pair sent · ${v.market}`, body: `Buy ${fmt(v.legs[0].size)} at ${fmt(v.legs[0].price)} or sell at ${fmt(v.legs[1].price)}; the first fill cancels the other` });
      onStarted();
      onClose();
    },
  });
  if (!preview) return null;
  const footer = (
    <>
      <span className="grow muted" style={{ fontSize: 'var(--fs-sm)' }}>
        Preview valid for <Countdown at={preview.valid_until} warnWithinMs={10_000} />
      </span>
      <Button variant="ghost" onClick={onClose} disabled={start.isPending}>
        Cancel
      </Button>
      <Button variant="primary" busy={start.isPending} onClick={() => start.mutate(preview)}>
        Send OCO pair
      </Button>
    </>
  );
  return (
    <Dialog open title={`Review OCO · ${preview.market}`} onClose={onClose} width={600} locked={start.isPending} footer={footer}>
      {preview.legs.map((l, i) => {
        const value = dec(l.size) && dec(l.price) ? dec(l.size)!.mul(dec(l.price)!) : null;
        return (
          <section key={l.side} className="leg-card" aria-label={`Leg ${i + 1}: ${l.side === 'BUY' ? 'buy' : 'sell'}`}>
            <h3>
              Leg {i + 1}
              <Badge tone={l.side === 'BUY' ? 'buy' : 'sell'}>{l.side}</Badge>
              <Badge>LIMIT GTC</Badge>
            </h3>
            <KVList label={`Leg ${i + 1}`}>
              <KV k="Side">{l.side === 'BUY' ? 'Buy / Long' : 'Sell / Short'}</KV>
              <KV k="Limit price">{fmt(l.price)}</KV>
              <KV k="Size">
                {fmt(l.size)} {preview.market}
              </KV>
              <KV k="Leverage">{l.leverage}x</KV>
              <KV k="Value">{fmtUsd(value)}</KV>
            </KVList>
          </section>
        );
      })}
      <KVList label="OCO pair">
        <KV k="Mark now">{fmt(preview.mark)}</KV>
      </KVList>
      <ul className="review-summary" aria-label="What happens">
        {preview.summary.map((s) => (
          <li key={s}>{s}</li>
        ))}
        <li>In the app the pair is watched by main, with the window closed into the tray too; quitting leaves both legs resting, and the pair is taken up again when the app runs and this wallet opens.</li>
      </ul>
      {start.error && <ErrorLine error={start.error} />}
    </Dialog>
  );
}
