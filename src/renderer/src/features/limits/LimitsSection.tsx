/**
 * Settings › Limits (issue 39 item 4): the wallet's own risk limits as main keeps them. Each field shows
 * the value in force; saving sends only what changed. Tightening applies at once; loosening (a higher
 * value, an empty field, a shorter cool-down, a new reset time) waits the cool-down and is listed under
 * Pending with the time it takes effect. The room left, the lockout and the panic button are here too.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { LIMIT_LABELS, LIMIT_NAMES, type LimitName } from '../../../../shared/risk/riskLimits';
import type { LimitsView } from '../../../../shared/ipc/limits';
import { perps, unwrap } from '../../ipc/client';
import { useWallet } from '../../ipc/queries';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { Panel } from '../../ui/Panel';
import { ErrorLine, ErrorState, Loading } from '../../ui/States';
import { limitsKey, useLimits } from './limitsQueries';
import { openPanic } from './PanicHost';
import { PANIC_KEY_LABEL } from './panicKey';

type Draft = Record<LimitName, string> & { reset_time: string };

function draftOf(v: LimitsView): Draft {
  const d = { reset_time: v.reset_time } as Draft;
  for (const n of LIMIT_NAMES) d[n] = v.limits[n] === null ? '' : String(v.limits[n]);
  return d;
}

function when(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function valueText(limit: string, value: string | null): string {
  if (value === null) return 'none (removed)';
  if (limit === 'cooldown') return `${Number(value) / 3_600_000} h`;
  if (limit === 'reset_time') return `${value} UTC`;
  const base = limit.replace(/^markets\.[^.]+\./, '') as LimitName;
  const unit = LIMIT_LABELS[base]?.unit;
  return unit === '%' ? `${value}%` : unit === 'x' ? `${value}x` : `${value} ${unit ?? ''}`.trim();
}

export function LimitsSection() {
  const wallet = useWallet().data?.address ?? null;
  const limits = useLimits(wallet !== null);
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft | null>(null);
  const [cooldown, setCooldown] = useState('');
  useEffect(() => {
    if (limits.data) setDraft(draftOf(limits.data));
  }, [limits.data]);
  const save = useMutation({
    mutationFn: (req: Parameters<ReturnType<typeof perps>['risk']['setLimits']>[0]) => unwrap(perps().risk.setLimits(req)),
    onSuccess: (v) => {
      client.setQueryData(limitsKey, v);
      setCooldown('');
    },
  });
  if (wallet === null) {
    return (
      <Panel title="Limits">
        <div className="section">
          <p className="muted">Connect a wallet to set its risk limits.</p>
        </div>
      </Panel>
    );
  }
  const v = limits.data;
  const submit = () => {
    if (!v || !draft) return;
    const base = draftOf(v);
    const changed: Partial<Record<LimitName, string | null>> = {};
    for (const n of LIMIT_NAMES) if (draft[n].trim() !== base[n]) changed[n] = draft[n].trim() === '' ? null : draft[n].trim();
    save.mutate({
      ...(Object.keys(changed).length > 0 ? { limits: changed } : {}),
      ...(draft.reset_time !== base.reset_time ? { reset_time: draft.reset_time } : {}),
      ...(cooldown.trim() !== '' ? { cooldown: cooldown.trim() } : {}),
    });
  };
  return (
    <Panel title="Limits">
      <div className="section limits-section">
        <p className="muted">
          Your own rules, kept and enforced by the app for this wallet before any order is signed (the app, the command line and every algorithm). Tightening applies at once; loosening waits
          the cool-down{v?.cooldown_ms ? ` of ${v.cooldown_ms / 3_600_000} h` : ' (chosen with the first limit, 24 h by default)'}. Reduce-only orders and closes are always allowed.
        </p>
        {limits.isPending && <Loading />}
        {limits.error && <ErrorState error={limits.error} onRetry={() => void limits.refetch()} />}
        {v?.lockout && (
          <p className="limits-locked" role="status">
            <strong>Locked</strong> until {when(v.lockout.until)}: {v.lockout.reason}.
          </p>
        )}
        {v && v.room.length > 0 && (
          <ul className="limits-room" aria-label="Room left today">
            {v.room.map((r) => (
              <li key={r.limit} className={r.warning ? 'room-warning' : undefined}>
                {r.warning ? '⚠ ' : ''}
                {r.text}
                {r.warning ? ' (low)' : ''}
              </li>
            ))}
          </ul>
        )}
        {v && draft && (
          <form
            className="limits-form"
            onSubmit={(e) => {
              e.preventDefault();
              submit();
            }}
          >
            {LIMIT_NAMES.map((n) => (
              <TextField
                key={n}
                label={LIMIT_LABELS[n].label}
                suffix={LIMIT_LABELS[n].unit}
                inputMode="decimal"
                placeholder="none"
                value={draft[n]}
                onChange={(e) => setDraft({ ...draft, [n]: e.target.value })}
                hint={n === 'daily_loss' ? 'Realized and unrealized PnL since the reset' : n === 'max_drawdown' ? 'From the day’s peak equity' : undefined}
              />
            ))}
            <TextField label="Day resets at (UTC)" value={draft.reset_time} placeholder="00:00" onChange={(e) => setDraft({ ...draft, reset_time: e.target.value })} />
            <TextField label="Cool-down for loosening" value={cooldown} placeholder={v.cooldown_ms ? `${v.cooldown_ms / 3_600_000}h` : '24h'} onChange={(e) => setCooldown(e.target.value)} hint="Such as 24h or 2h30m; shortening it waits the current cool-down" />
            <div className="limits-actions">
              <Button type="submit" variant="primary" disabled={save.isPending}>
                Save limits
              </Button>
            </div>
            {save.error && <ErrorLine error={save.error} />}
          </form>
        )}
        {v && v.pending.length > 0 && (
          <>
            <h3 className="section-subtitle">Pending</h3>
            <ul className="limits-pending" aria-label="Pending loosenings">
              {v.pending.map((p) => (
                <li key={p.limit}>
                  <strong>{p.limit}</strong> → {valueText(p.limit, p.value)}, takes effect {when(p.effective_at)}
                </li>
              ))}
            </ul>
          </>
        )}
        {v?.lockout && (
          <Button variant="secondary" onClick={() => save.mutate({ end_lockout: true })} disabled={save.isPending || v.pending.some((p) => p.limit === 'lockout')}>
            End the lockout early (after the cool-down)
          </Button>
        )}
        <h3 className="section-subtitle">Panic</h3>
        <p className="muted">Stops every algorithm, cancels every order and trigger and closes every position at market. Also: hold {PANIC_KEY_LABEL}, or the tray menu.</p>
        <Button variant="danger" onClick={openPanic}>
          Panic…
        </Button>
      </div>
    </Panel>
  );
}
