/**
 * The panic action in the app (issue 39 item 6): held Ctrl+Alt+P, the tray's Panic item, or the button in
 * Settings › Limits open one confirmation that says exactly what will happen; confirming runs it in main
 * (risk:panic) and shows the report: what was stopped, cancelled and closed, and what failed.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { PanicReport } from '../../../../shared/ipc/limits';
import { asIpcError, perps, unwrap } from '../../ipc/client';
import { useWallet } from '../../ipc/queries';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { pushToast } from '../../ui/toastStore';
import { PanicHold, isPanicChord } from './panicKey';

let panicOpen = false;
const listeners = new Set<() => void>();
function setPanicOpen(open: boolean): void {
  panicOpen = open;
  listeners.forEach((l) => l());
}
/** Opens the panic confirmation (Settings › Limits, the tray). */
export const openPanic = () => setPanicOpen(true);
const usePanicOpen = () =>
  useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => panicOpen,
  );

export function PanicHost() {
  const open = usePanicOpen();
  const wallet = useWallet().data?.address ?? null;
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<PanicReport | null>(null);
  const [holding, setHolding] = useState(false);
  const hold = useRef<PanicHold | null>(null);

  useEffect(() => {
    const h = new PanicHold(() => {
      setHolding(false);
      openPanic();
    });
    hold.current = h;
    const down = (e: KeyboardEvent) => {
      if (!isPanicChord(e)) return;
      e.preventDefault();
      if (!e.repeat) {
        h.down();
        setHolding(true);
      }
    };
    const up = () => {
      if (!h.holding) return;
      h.up();
      setHolding(false);
    };
    window.addEventListener('keydown', down, true);
    window.addEventListener('keyup', up, true);
    window.addEventListener('blur', up);
    const off = perps().on('panicRequest', () => openPanic());
    return () => {
      h.up();
      window.removeEventListener('keydown', down, true);
      window.removeEventListener('keyup', up, true);
      window.removeEventListener('blur', up);
      off();
    };
  }, []);

  const close = () => {
    setPanicOpen(false);
    setReport(null);
  };
  const run = async () => {
    setBusy(true);
    try {
      const r = await unwrap(perps().risk.panic({ confirm: 'panic' }));
      setReport(r);
      pushToast({ tone: r.failures.length > 0 ? 'error' : 'info', title: r.failures.length > 0 ? 'Panic finished with failures' : 'Panic finished', body: r.lines.slice(1).join(' · '), announce: 'assertive' });
      void client.invalidateQueries();
    } catch (err) {
      const e = asIpcError(err);
      pushToast({ tone: 'error', title: 'Panic failed', body: e.message, error: e, announce: 'assertive' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      {holding && (
        <div className="panic-hold" role="status">
          Hold to panic…
        </div>
      )}
      <Dialog open={open} title={report ? 'Panic: report' : 'Panic'} onClose={close} locked={busy} tone="danger" footer={
        report ? (
          <Button variant="secondary" onClick={close}>
            Close
          </Button>
        ) : (
          <>
            <Button variant="ghost" onClick={close} disabled={busy}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => void run()} disabled={busy || wallet === null}>
              {busy ? 'Closing everything…' : 'Panic now'}
            </Button>
          </>
        )
      }>
        {report ? (
          <ul className="panic-report">
            {report.lines.map((l, i) => (
              <li key={i} className={l.startsWith('FAILED') ? 'panic-failed' : undefined}>
                {l}
              </li>
            ))}
          </ul>
        ) : (
          <div className="panic-confirm">
            <p>
              For wallet <span className="mono">{wallet ?? '(none connected)'}</span>, Perps Desk will, in this order:
            </p>
            <ol>
              <li>stop every algorithm (TWAPs, trailing stops, OCO pairs);</li>
              <li>cancel every resting order and trigger, take-profits and stop-losses included;</li>
              <li>close every position at market, within each market's slippage bound.</li>
            </ol>
            <p>It runs once and finishes even if the app is closed half-way (on the next start). It works during a lockout. This cannot be undone.</p>
          </div>
        )}
      </Dialog>
    </>
  );
}
