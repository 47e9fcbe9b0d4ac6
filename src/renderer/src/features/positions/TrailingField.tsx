/**
 * The TP/SL dialog's trailing option: trail the position's stop-loss behind new highs (a long) or lows (a
 * short) by a distance in percent or price, optionally from an activation price (trail:start, run by main;
 * checked there: the distance, the tick, the position). When the stop trails already, it says how, and
 * "Stop trailing" (trail:off) leaves the last level armed.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { PositionView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { fieldError } from '../../lib/fieldErrors';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { useInvalidateTrading } from './useInvalidateTrading';

export function TrailingField({ position, disabled }: { position: PositionView; disabled: boolean }) {
  const refresh = useInvalidateTrading();
  const [distance, setDistance] = useState('');
  const [activate, setActivate] = useState('');
  const long = position.side === 'LONG';
  const start = useMutation({
    mutationFn: () => unwrap(perps().trail.start({ market: position.market, distance: distance.trim(), ...(activate.trim() !== '' ? { activate: activate.trim() } : {}) })),
    onSuccess: (r) => {
      refresh();
      pushToast({ tone: 'success', title: `Trailing stop · ${r.market}`, body: r.trailing?.summary ?? 'armed' });
    },
  });
  const off = useMutation({
    mutationFn: () => unwrap(perps().trail.off({ market: position.market })),
    onSuccess: (r) => {
      refresh();
      pushToast({ tone: 'success', title: `Trailing stopped · ${r.market}`, body: 'The last stop-loss level stays armed.' });
    },
  });
  // What main answered last wins over the row's snapshot, which catches up on the next positions event.
  const trailing = off.isSuccess ? null : (start.data?.trailing ?? position.trailing ?? null);
  if (trailing) {
    return (
      <div className="trailing-field" data-testid="trailing-field">
        <p>
          <strong>{trailing.summary}</strong>
          {trailing.running ? '' : ' — not trailing now (the last level stays armed)'}
        </p>
        <Button variant="ghost" busy={off.isPending} disabled={disabled} onClick={() => off.mutate()}>
          Stop trailing
        </Button>
        {off.error && <ErrorLine error={off.error} />}
      </div>
    );
  }
  return (
    <div className="trailing-field" data-testid="trailing-field">
      <TextField
        label="Trailing stop distance"
        value={distance}
        placeholder="1.5% or a price distance such as 25"
        onChange={(e) => {
          setDistance(e.target.value);
          if (start.error) start.reset();
        }}
        error={fieldError(start.error, ['distance'])}
        hint={`The stop-loss follows new ${long ? 'highs' : 'lows'} of the mark at this distance, only in your favour, by whole ticks, at most once a second. When the app is closed, the last level stays armed.`}
      />
      <TextField label="Activation price (optional)" inputMode="decimal" value={activate} placeholder={`trail once the mark ${long ? 'rises' : 'falls'} to`} onChange={(e) => setActivate(e.target.value)} error={fieldError(start.error, ['activate'])} />
      <Button variant="ghost" busy={start.isPending} disabled={disabled || distance.trim() === ''} onClick={() => start.mutate()}>
        Trail the stop
      </Button>
      {start.error && !fieldError(start.error, ['distance']) && !fieldError(start.error, ['activate']) && <ErrorLine error={start.error} />}
    </div>
  );
}
