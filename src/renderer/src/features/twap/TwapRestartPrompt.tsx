/**
 * After a restart (or a crash), TWAPs that were running when their process ended wait for a decision:
 * this dialog lists them once per session — what was filled, how many slices were missed meanwhile —
 * and offers Resume or Stop for each. Slices whose time passed are reported missed by the scheduler,
 * never fired in a burst. "Decide later" leaves them waiting in the TWAP tab.
 */
import { useEffect, useState } from 'react';
import { fmt } from '../../lib/decimal';
import { fmtDateTime } from '../../lib/time';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { ErrorLine } from '../../ui/States';
import { useTwapAction, useTwaps } from './twapQueries';

export function TwapRestartPrompt() {
  const twaps = useTwaps({ fromMain: true });
  const act = useTwapAction();
  // The ids shown when the prompt opened: it lists what was interrupted at start, not later changes.
  // Decided from main's own list, never from progress events merged into the cache before it answered
  // (the last one of a TWAP let go at quit says `running`, and would have kept the prompt from opening).
  const [asked, setAsked] = useState<Set<string> | null>(null);
  const interrupted = twaps.data?.twaps.filter((t) => t.status === 'interrupted') ?? [];
  const listed = twaps.isFetchedAfterMount && twaps.status === 'success' ? twaps.data : undefined;
  useEffect(() => {
    if (asked === null && listed) setAsked(new Set(listed.twaps.filter((t) => t.status === 'interrupted').map((t) => t.id)));
  }, [asked, listed]);
  const pending = interrupted.filter((t) => asked?.has(t.id));
  if (pending.length === 0) return null;
  const close = () => setAsked(new Set());
  return (
    <Dialog open title="Interrupted TWAPs" onClose={close} width={560} footer={<Button variant="ghost" onClick={close}>Decide later</Button>}>
      <p className="muted">These TWAPs were running when the app last stopped. Nothing is sent until you decide: resume goes on from the next slice due (slices whose time passed are reported missed, not sent late); stop ends it.</p>
      {pending.map((t) => (
        <section key={t.id} className="leg-card" aria-label={`Interrupted ${t.market} TWAP ${t.id}`}>
          <h3>
            {t.side === 'BUY' ? 'Buy' : 'Sell'} {fmt(t.total_size)} {t.market}
          </h3>
          <p className="leg-line">
            Filled {fmt(t.filled_size)} of {fmt(t.total_size)} · {t.slices_sent} of {t.slices_total} slices sent · started {fmtDateTime(t.created_at)}
          </p>
          <div className="row" style={{ gap: 6, justifyContent: 'flex-end' }}>
            <Button size="sm" variant="danger" busy={act.isPending && act.variables?.id === t.id && act.variables.action === 'stop'} onClick={() => act.mutate({ id: t.id, action: 'stop' })}>
              Stop
            </Button>
            <Button size="sm" variant="primary" busy={act.isPending && act.variables?.id === t.id && act.variables.action === 'resume'} onClick={() => act.mutate({ id: t.id, action: 'resume' })}>
              Resume
            </Button>
          </div>
        </section>
      ))}
      {act.error && <ErrorLine error={act.error} />}
    </Dialog>
  );
}
