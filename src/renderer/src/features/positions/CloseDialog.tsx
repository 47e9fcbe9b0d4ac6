/**
 * Closing a position the way traders do: at market or at a limit price, all of it or part (25/50/75/100 %,
 * any percentage on the slider, or an exact size). Every close follows lifecycle rule 4: main cancels the
 * position's armed TP/SL triggers first, then sends one reduce-only leg. The dialog says beforehand what
 * will be cancelled and what the position would be after; afterwards it shows the outcome, naming the
 * triggers that were cancelled (the part left open has no TP/SL until set again). A limit price far past
 * the mark executes at once: it needs the person's FAR_PRICE confirmation, as main requires.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { ConfirmationCode, IpcResponse, MarketView, PositionView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { useOpenOrders, useTriggers } from '../../ipc/queries';
import { dec, fmt, fmtUsd, placesOfStep } from '../../lib/decimal';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/Field';
import { KV, KVList } from '../../ui/Panel';
import { Segmented } from '../../ui/Segmented';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { useLiveMark } from '../markets/live';
import { liquidationText } from '../risk/liquidation';
import { allConfirmed, confirmedCodes, GuardConfirmations } from '../signing/GuardConfirmations';
import { guardFromError } from '../signing/guardFromError';
import { checkClose, closeableBase, closeRequest, closingSide, hasArmedTriggers, initialCloseForm, PERCENT_PRESETS, positionAfterClose, type CloseForm, type CloseKind, type SizeMode } from './closeModel';
import { useInvalidateTrading } from './useInvalidateTrading';

type CloseResult = IpcResponse<'positions:close'>;

/** A cancelled trigger as a trader names it: "TP 3,600". */
function triggerName(t: { tpsl: 'tp' | 'sl' | null; trigger_price: string | null }, places: number): string {
  const kind = t.tpsl === 'tp' ? 'TP' : t.tpsl === 'sl' ? 'SL' : 'Trigger';
  return t.trigger_price ? `${kind} ${fmt(t.trigger_price, { places })}` : kind;
}

/** The outcome's first line. */
export function closeHeadline(r: CloseResult, places: number): string {
  const what = `${fmt(r.size)} ${r.market}`;
  if (r.resting) return `Limit close resting: ${r.position_after?.side === 'SHORT' ? 'buy' : 'sell'} ${what} at ${fmt(r.limit_price, { places })} (GTC). The position closes as it fills.`;
  if (r.closed) return `Closed ${what}${r.order_type === 'LIMIT' ? ` at ${fmt(r.limit_price, { places })} limit` : ' at market'}: the position is flat.`;
  if (r.order_status === 'FILLED') return `Closed ${what}${r.order_type === 'LIMIT' ? ` at ${fmt(r.limit_price, { places })} limit` : ' at market'}.`;
  return `Close ${r.order_status ? r.order_status.toLowerCase().replace(/_/g, ' ') : 'submitted'}: ${what}.`;
}

function CloseOutcome({ r, market, places, onSetTpsl, onCloseRest }: { r: CloseResult; market: MarketView; places: number; onSetTpsl: () => void; onCloseRest: () => void }) {
  const after = r.position_after;
  const rearm = r.rearm ?? null;
  const rearmedText = rearm?.rearmed.map((t) => triggerName({ tpsl: t.kind, trigger_price: t.trigger_price }, places)).join(' and ') ?? '';
  // Unprotected now: lifted and not back (a level the mark passed, a refused re-arm), or no re-arm at all.
  const missing = rearm ? rearm.past_mark.length + rearm.failed.length > 0 : r.cancelled.length > 0;
  const cancelledText = r.cancelled.map((t) => `${triggerName(t, places)} (order ${t.order_id})`).join(', ');
  return (
    <section className="close-outcome" aria-label="Close result">
      <p className="leg-line">{closeHeadline(r, places)}</p>
      <KVList label="Close outcome">
        <KV k="Order">
          {r.order_type === 'LIMIT' ? 'Reduce-only limit' : 'Reduce-only market'} {r.order_id ?? ''} {r.order_status && <Badge>{r.order_status}</Badge>}
        </KV>
        <KV k="Triggers cancelled first">{r.cancelled.length > 0 ? cancelledText : 'none (no TP/SL was armed)'}</KV>
        {after && rearm && rearm.rearmed.length > 0 && <KV k="Re-armed">{`${rearmedText} on the remaining ${fmt(dec(after.size)?.abs() ?? after.size)} ${r.market}`}</KV>}
        <KV k="Position now">{after ? `${after.side} ${fmt(dec(after.size)?.abs() ?? after.size)} ${r.market}` : 'closed'}</KV>
        {after && <KV k="Liq. price (est.)">{liquidationText(after.size, after.liquidation_price, market)}</KV>}
      </KVList>
      {after && missing && (
        <div className="notice notice-warn row" role="alert">
          <span className="grow">
            {rearm && rearm.past_mark.length + rearm.failed.length > 0
              ? [...rearm.past_mark.map((x) => `${triggerName({ tpsl: x.kind, trigger_price: x.trigger_price }, places)} was not re-armed: the mark ${fmt(x.mark, { places })} is already past it.`), ...rearm.failed.map((x) => `${triggerName({ tpsl: x.kind, trigger_price: x.trigger_price }, places)} could not be re-armed: ${x.message}.`)].join(' ')
              : `The ${r.resting ? 'position' : 'part left open'} has no TP/SL now: they were cancelled for the close.`}
          </span>
          {rearm && rearm.past_mark.length > 0 && (
            <Button size="sm" variant="sell" onClick={onCloseRest}>
              Close the rest at market
            </Button>
          )}
          <Button size="sm" onClick={onSetTpsl}>
            {rearm && rearm.past_mark.length > 0 ? 'Set a new level' : 'Set TP/SL again'}
          </Button>
        </div>
      )}
    </section>
  );
}

/** "TP 3,600 and SL 3,300 are lifted for the close and re-armed on the remaining 0.2" (as main words it). */
function rearmLine(levels: string[], remaining: ReturnType<typeof dec>, kind: CloseKind, market: string): string {
  const are = levels.length === 1 ? 'is' : 'are';
  const them = levels.join(' and ');
  if (kind === 'LIMIT') return `${them} ${are} lifted for the close and re-armed once the limit rests`;
  if (!remaining || remaining.lte(0)) return `${them} ${are} lifted for the close; put back if it does not fill`;
  return `${them} ${are} lifted for the close and re-armed on the remaining ${fmt(remaining)} ${market}`;
}

/** What the close does, in order, in one paragraph. */
function closeExplanation(market: string, armed: boolean, kind: CloseKind, side: 'BUY' | 'SELL', whole: boolean): string {
  const leg = `one reduce-only ${kind === 'MARKET' ? 'market' : 'limit'} order ${side === 'SELL' ? 'sells' : 'buys'} ${whole ? 'the whole position' : 'that amount'}${kind === 'MARKET' ? ' within the market’s slippage bound' : ' at your price; it rests until filled or cancelled'}.`;
  if (!armed) return `${leg.charAt(0).toUpperCase()}${leg.slice(1)}`;
  // Whole-position TP/SL are re-armed on what stays open (main writes them down before the cancel).
  const left = whole && kind === 'MARKET' ? ' If the close does not fill, they are put back.' : kind === 'LIMIT' ? ' The TP/SL are re-armed once the limit rests: they cover what is left as it fills.' : ' The TP/SL are re-armed at the same levels on what stays open.';
  return `Every armed TP/SL trigger on ${market} is cancelled first (a position with an armed reduce-only trigger cannot be closed), then ${leg}${left}`;
}

export function CloseDialog({
  position,
  market,
  onClose,
  onSetTpsl,
  onCloseRest,
  initialPercent = null,
}: {
  position: PositionView;
  market: MarketView;
  onClose: () => void;
  onSetTpsl: (p: PositionView) => void;
  /** A level the mark passed while the close ran: close what is left at market (a new close). */
  onCloseRest?: (p: PositionView) => void;
  /** Opened for part of the position (the command palette's "close ETH 50%"): that percentage, not all. */
  initialPercent?: string | null;
}) {
  const refresh = useInvalidateTrading();
  const open = useOpenOrders();
  const triggers = useTriggers();
  const mark = useLiveMark(market) ?? position.mark;
  const [form, setForm] = useState<CloseForm>(initialPercent !== null ? { ...initialCloseForm, percent: initialPercent } : initialCloseForm);
  // A refusal from main (the mark moved past the bound since the dialog checked): confirm and send again.
  const [refused, setRefused] = useState<{ guard: NonNullable<ReturnType<typeof guardFromError>>; price: string } | null>(null);
  const [confirmed, setConfirmed] = useState<Set<ConfirmationCode>>(() => new Set());
  const places = placesOfStep(market.tick_size);
  const armed = hasArmedTriggers(position, triggers.data?.triggers ?? []);
  const base = closeableBase(position, armed, open.data?.orders ?? []);
  const check = checkClose(form, position, market, base, mark);
  const guard = check.guard ?? (form.kind === 'LIMIT' && refused && refused.price === form.price ? refused.guard : null);
  const guards = guard ? [guard] : [];
  const side = closingSide(position);

  const close = useMutation({
    mutationFn: () => unwrap(perps().positions.close(closeRequest(position.market, form, check, confirmedCodes(guards, confirmed)))),
    onSuccess: (r) => {
      refresh();
      pushToast({
        tone: r.closed || r.resting || r.order_status === 'FILLED' ? 'success' : 'warn',
        title: r.resting ? `${r.market} limit close resting` : r.closed ? `${r.market} position closed` : `${r.market} close ${r.order_status?.toLowerCase() ?? 'submitted'}`,
        body: `${fmt(r.size)} ${r.market}${r.cancelled.length > 0 ? ` · cancelled first: ${r.cancelled.map((t) => triggerName(t, places)).join(', ')}` : ''}`,
      });
    },
    onError: (err) => {
      const g = guardFromError(err);
      if (g) setRefused({ guard: g, price: form.price });
    },
  });

  const set = (patch: Partial<CloseForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    // A confirmation is for one price: a new price (or another kind of close) is confirmed again.
    if (patch.price !== undefined || patch.kind !== undefined) setConfirmed(new Set());
    if (close.error) close.reset();
  };

  const result = close.data;
  const after = check.size ? positionAfterClose(position, market, check.size, check.price, mark) : undefined;
  const amount = form.sizeMode === 'percent' && !check.whole ? `${form.percent}%` : form.sizeMode === 'size' && !check.whole ? `${form.size.trim()} ${position.market}` : '';
  const submitLabel = check.whole && form.kind === 'MARKET' ? 'Close position' : `Close ${amount || 'all'} ${form.kind === 'MARKET' ? 'at market' : `at ${check.price ? fmt(check.price, { places }) : 'limit'}`}`;
  const toCancel = [position.tp ? triggerName({ tpsl: 'tp', trigger_price: position.tp.trigger_price }, places) : null, position.sl ? triggerName({ tpsl: 'sl', trigger_price: position.sl.trigger_price }, places) : null].filter(Boolean);
  const guardError = guardFromError(close.error) !== null && guards.length > 0;

  const footer = result ? (
    <Button variant="primary" onClick={onClose}>
      Done
    </Button>
  ) : (
    <>
      <Button variant="ghost" onClick={onClose} disabled={close.isPending}>
        Cancel
      </Button>
      <Button variant={side === 'SELL' ? 'sell' : 'buy'} busy={close.isPending} disabled={!check.ok || !allConfirmed(guards, confirmed)} onClick={() => close.mutate()}>
        {submitLabel}
      </Button>
    </>
  );

  return (
    <Dialog open title={`Close ${position.market} position`} onClose={onClose} locked={close.isPending} tone="danger" width={520} footer={footer}>
      {result ? (
        <CloseOutcome r={result} market={market} places={places} onSetTpsl={() => onSetTpsl(position)} onCloseRest={() => onCloseRest?.(position)} />
      ) : (
        <>
          <KVList label="Position">
            <KV k="Position">
              {position.side} {fmt(dec(position.size)?.abs() ?? position.size)} {position.market}
            </KV>
            <KV k="Entry · mark">
              {fmt(position.entry_price, { places })} · {fmt(mark, { places })}
            </KV>
            <KV k="Closeable">
              {fmt(base)}
              {position.closeable_note && <span className="faint"> (now {fmt(position.closeable)}: {position.closeable_note})</span>}
            </KV>
          </KVList>
          <Segmented<CloseKind>
            label="Close at"
            value={form.kind}
            onChange={(kind) => set({ kind })}
            options={[
              { value: 'MARKET', label: 'Market' },
              { value: 'LIMIT', label: 'Limit' },
            ]}
          />
          {form.kind === 'LIMIT' && (
            <TextField
              label="Limit price"
              inputMode="decimal"
              value={form.price}
              onChange={(e) => set({ price: e.target.value })}
              suffix={
                <button type="button" className="link-btn" onClick={() => mark && set({ price: dec(mark)?.toFixed(places) ?? '' })} aria-label="Use mark price">
                  Mark
                </button>
              }
              error={form.price ? check.errors.price : undefined}
              hint={`A reduce-only ${side.toLowerCase()} limit (GTC): it rests on the book until the price is reached. Tick ${market.tick_size}.`}
            />
          )}
          <Segmented<SizeMode>
            label="Amount"
            size="sm"
            value={form.sizeMode}
            onChange={(sizeMode) => set({ sizeMode })}
            options={[
              { value: 'percent', label: 'Percent', name: 'By percent' },
              { value: 'size', label: `Size (${position.market})`, name: 'By size' },
            ]}
          />
          {form.sizeMode === 'percent' ? (
            <div className="field">
              <div className="segmented segmented-sm" role="group" aria-label="Close percentage presets">
                {PERCENT_PRESETS.map((pct) => (
                  <button key={pct} type="button" className={`segment${form.percent === pct ? ' is-on' : ''}`} aria-pressed={form.percent === pct} onClick={() => set({ percent: pct })}>
                    {pct}%
                  </button>
                ))}
              </div>
              <div className="lev">
                <input type="range" min={1} max={100} step={1} value={dec(form.percent)?.toNumber() ?? 100} onChange={(e) => set({ percent: e.target.value })} aria-label="Percent to close" aria-valuetext={`${form.percent}%`} />
                <span className="num strong close-pct">{form.percent}%</span>
              </div>
              {check.errors.percent && (
                <div className="field-msg field-msg-error" role="alert">
                  {check.errors.percent}
                </div>
              )}
            </div>
          ) : (
            <TextField
              label={`Size to close (${position.market})`}
              inputMode="decimal"
              value={form.size}
              onChange={(e) => set({ size: e.target.value })}
              suffix={position.market}
              error={form.size ? check.errors.size : undefined}
              hint={`At most ${fmt(base)}; rounded down to ${market.sz_decimals} decimals`}
            />
          )}
          <KVList label="Close estimate">
            <KV k="Closes">
              {check.size ? `${fmt(check.size)} ${position.market}` : '—'}
              {check.size && form.kind === 'MARKET' && mark ? <span className="faint"> ≈ {fmtUsd(check.size.mul(mark))}</span> : null}
            </KV>
            <KV k="Cancels first">{armed ? (toCancel.length > 0 ? toCancel.join(' · ') : 'the armed triggers') : 'nothing (no TP/SL armed)'}</KV>
            {toCancel.length > 0 && check.size && (
              <KV k="TP/SL">
                {/* A sentence, wrapped between words (the list's values break anywhere, for long ids). */}
                <span style={{ wordBreak: 'normal', overflowWrap: 'normal' }}>{rearmLine(toCancel as string[], dec(position.size)?.abs().minus(check.size) ?? null, form.kind, position.market)}</span>
              </KV>
            )}
            {after !== undefined && (
              <KV k="Position after (est.)">
                {after === null ? 'flat' : `${after.size.isNegative() ? 'SHORT' : 'LONG'} ${fmt(after.size.abs())} · liq. ${liquidationText(after.size.toFixed(), after.liquidation_price?.toFixed() ?? null, market)}`}
              </KV>
            )}
          </KVList>
          <p className="muted close-explain">{closeExplanation(position.market, armed, form.kind, side, check.whole)}</p>
          <GuardConfirmations confirmations={guards} confirmed={confirmed} onChange={setConfirmed} disabled={close.isPending} />
          {close.error && !guardError && <ErrorLine error={close.error} />}
        </>
      )}
    </Dialog>
  );
}
