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
import type { TwapView } from '../../../../shared/ipc';
import { useTwapAction, useTwaps, useTwapsAtMount } from './twapQueries';

/**
 * A TWAP as it is now: the shared list's view once it is newer than main's answer at mount (resumed or
 * stopped since, here or by `perps twap`). On a tie main's answer wins: interrupted is derived from the
 * run lock, not written, so the quitting core's last event (`running`) carries the same updated_at.
 */
function latest(asked: TwapView, now: readonly TwapView[] | undefined): TwapView {
  const current = now?.find((t) => t.id === asked.id);
  return current && current.updated_at > asked.updated_at ? current : asked;
}

export function TwapRestartPrompt() {
  const atMount = useTwapsAtMount();
  const twaps = useTwaps();
  const act = useTwapAction();
  // The ids asked about: those main listed as interrupted when the prompt mounted, not later changes. A
  // damaged TWAP is never among them: main lists it apart (`damaged`), and it is never resumed.
  const [asked, setAsked] = useState<Set<string> | null>(null);
  useEffect(() => {
    if (asked === null && atMount.data) setAsked(new Set(atMount.data.twaps.filter((t) => t.status === 'interrupted').map((t) => t.id)));
  }, [asked, atMount.data]);
  const pending = (atMount.data?.twaps ?? []).filter((t) => asked?.has(t.id)).map((t) => latest(t, twaps.data?.twaps)).filter((t) => t.status === 'interrupted');
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
