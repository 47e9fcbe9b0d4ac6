/**
 * The order ticket: market, limit and trigger orders, scale ladders (ScaleSection), TWAPs (TwapSection), OCO pairs (OcoSection) and chases (ChaseSection); GTC, IOC and post-only; reduce-only; leverage; a
 * bracket TP/SL; a live notional, fee and margin preview from the market's own rates; every check run
 * before anything is signed; then the exact signing preview from main before the user confirms.
 */
import { stopToleranceBpsFor } from '../../../../shared/orders/stopTolerance';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { ChasePreview, MarketView, OcoPreview, OrderPreview, PlaceOrdersResult, TwapPreview } from '../../../../shared/ipc';
import { setUi, useUi } from '../../app/uiStore';
import { perps, unwrap } from '../../ipc/client';
import { useBalance, usePositions, useSettings } from '../../ipc/queries';
import { dec, fmt, fmtUsd, placesOfStep } from '../../lib/decimal';
import { Button } from '../../ui/Button';
import { Checkbox, TextField } from '../../ui/Field';
import { Segmented } from '../../ui/Segmented';
import { ErrorLine, Loading } from '../../ui/States';
import { fieldError, isShownAtField } from '../../lib/fieldErrors';
import { useLiveMark } from '../markets/live';
import { loaderOf, useAfterFirstPaint } from '../../lib/afterFirstPaint';
import { usePlaceOrder } from './placeOrder';
import { useStickyTicketHead } from './stickyHead';
import { checkTwap, initialTwap, twapRequest, type TwapFields } from '../twap/twapTicket';
import { checkScale, initialScale, scaleIntent, type ScaleFields } from './scaleTicket';
import { TicketEstimate } from './TicketEstimate';
import { checkOcoLegs } from '../../../../shared/algos/ocoLegs';
import { initialOco, OCO_FIELDS, ocoFieldError, ocoRequest, type OcoFields } from '../oco/ocoTicket';
import { CHASE_FIELDS, chaseRequest, checkChase, initialChase, type ChaseFields } from '../chase/chaseTicket';
import { chaseFieldError } from '../chase/chaseRefusals';
import { afterPlaced, checkTicket, initialTicket, maxSize, toIntent, withLimitPrice, type OrderType, type Side, type Tif, type TicketState, type Tpsl } from './ticketModel';

/** `prev` with `patch` applied; `prev` itself when the patch changes nothing, so React skips the render. */
function patched<T extends object>(prev: T, patch: Partial<T>): T {
  return (Object.keys(patch) as (keyof T)[]).every((k) => Object.is(prev[k], patch[k])) ? prev : { ...prev, ...patch };
}

/**
 * The names main may give a refused ticket field (lib/fieldErrors.ts compares them without case or
 * separators): its message is shown at that field, tied to it (aria-invalid, aria-describedby), not below.
 */
const SIZE_FIELD = ['size', 'sz'];
const PRICE_FIELD = ['price', 'limit_price', 'limit_px'];
const TRIGGER_FIELD = ['trigger_price', 'trigger_px'];
/** The id of the ticket's form-wide error, which the submit button is described by. */
const FORM_ERROR_ID = 'ticket-form-error';

/** The review dialogs and the scale and TWAP fields: not on the ticket's first frame, loaded right after it. */
const ticketExtras = loaderOf(() => import('./ticketExtras'));

export function OrderTicket({ market }: { market: MarketView }) {
  const extras = useAfterFirstPaint(ticketExtras);
  const settings = useSettings();
  const balance = useBalance();
  const positions = usePositions();
  const mark = useLiveMark(market);
  const defaultLeverage = Math.min(settings.data?.default_leverage ?? 1, market.max_leverage);
  const [t, setT] = useState<TicketState>(() => initialTicket(defaultLeverage));
  const [preview, setPreview] = useState<OrderPreview | null>(null);
  const [scale, setScale] = useState<ScaleFields>(initialScale);
  const [twap, setTwap] = useState<TwapFields>(initialTwap);
  const [twapPreview, setTwapPreview] = useState<TwapPreview | null>(null);
  const [oco, setOco] = useState<OcoFields>(initialOco);
  const [ocoPreview, setOcoPreview] = useState<OcoPreview | null>(null);
  const [chase, setChase] = useState<ChaseFields>(initialChase);
  const [chasePreview, setChasePreview] = useState<ChasePreview | null>(null);
  const sizeRef = useRef<HTMLInputElement>(null);
  const headRef = useRef<HTMLDivElement>(null);
  useStickyTicketHead(headRef);
  const focus = useUi((s) => s.ticketFocus);
  const picked = useUi((s) => s.pickedPrice);
  const places = placesOfStep(market.tick_size);

  const set = (patch: Partial<TicketState>) => setT((prev) => ({ ...prev, ...patch }));
  // The picked-price effect reads the type without re-running when only the type changes.
  const typeSeen = useRef(t.type);
  typeSeen.current = t.type;

  // A new market: prices of the old one make no sense; leverage must fit the new maximum. (On mounting
  // nothing changes, and an unchanged state renders nothing again.)
  useEffect(() => {
    setT((prev) => patched(prev, { price: '', triggerPrice: '', tp: '', sl: '', size: '', leverage: Math.min(prev.leverage, market.max_leverage) }));
    setScale((prev) => patched(prev, { from: '', to: '', total: '' }));
    setOco((prev) => patched(prev, { buy: '', sell: '' }));
  }, [market.symbol, market.max_leverage]);
  useEffect(() => {
    if (settings.data) setT((prev) => patched(prev, { leverage: Math.min(settings.data.default_leverage, market.max_leverage) }));
  }, [settings.data, market.max_leverage]);
  // The trade hotkeys buy and sell at market with this size and leverage.
  useEffect(() => {
    setUi({ ticketDraft: { market: market.symbol, size: t.size, leverage: t.leverage } });
  }, [market.symbol, t.size, t.leverage]);
  useEffect(() => () => setUi({ ticketDraft: null }), []);
  // B / S shortcuts.
  useEffect(() => {
    if (focus.seq === 0) return;
    set({ side: focus.side });
    sizeRef.current?.focus();
  }, [focus]);
  // A price picked on the chart: the trigger price of a trigger order, otherwise a limit price. A level
  // picked in the order book is always a limit price (the ticket switches to Limit).
  useEffect(() => {
    if (!picked) return;
    // A ladder takes a picked price as its first end, then its last.
    if (typeSeen.current === 'SCALE') {
      setScale((prev) => (prev.from === '' || prev.to !== '' ? { ...prev, from: picked.price, to: '' } : { ...prev, to: picked.price }));
      return;
    }
    setT((prev) => (prev.type === 'TRIGGER' && !picked.limit ? { ...prev, triggerPrice: picked.price } : withLimitPrice(prev, picked.price)));
  }, [picked]);

  const slippage = settings.data?.default_slippage_bps ?? null;
  const positionList = positions.data?.positions;
  const cap = settings.data?.max_order_notional ?? null;
  const stopTolerance = settings.data ? stopToleranceBpsFor(settings.data, market.symbol) : undefined;
  const check = useMemo(
    () => checkTicket(t, market, mark, { positions: positionList ?? [], slippageBps: slippage, maxOrderNotional: cap, ...(stopTolerance !== undefined ? { stopToleranceBps: stopTolerance } : {}) }),
    [t, market, mark, positionList, slippage, cap, stopTolerance],
  );
  const isScale = t.type === 'SCALE';
  // A ladder's and a TWAP's checks run only while that kind is picked (not on every keystroke of another kind).
  const scaleCheck = useMemo(
    () => (isScale ? checkScale(scale, market, { side: t.side, leverage: t.leverage, reduceOnly: t.reduceOnly, postOnly: t.tif === 'ALO', mark, positions: positionList ?? [] }) : null),
    [isScale, scale, market, t.side, t.leverage, t.reduceOnly, t.tif, mark, positionList],
  );
  const isTwap = t.type === 'TWAP';
  const twapCheck = useMemo(() => (isTwap ? checkTwap(twap, t.size, market, mark) : null), [isTwap, twap, t.size, market, mark]);
  const isOco = t.type === 'OCO';
  const ocoCheck = useMemo(() => (isOco ? checkOcoLegs({ ...oco, size: t.size }, market, mark) : null), [isOco, oco, t.size, market, mark]);
  const isChase = t.type === 'CHASE';
  const chaseCheck = useMemo(() => (isChase ? checkChase(chase, t.size, market, mark) : null), [isChase, chase, t.size, market, mark]);
  const confirm = settings.data?.confirm_orders ?? true;
  // Placed in full: clear what would repeat the order (size, TP/SL) so a second click cannot duplicate it.
  const onPlaced = (r: PlaceOrdersResult) => {
    if (!r.success) return;
    setT(afterPlaced);
    setScale((prev) => ({ ...prev, total: '' }));
  };
  const direct = usePlaceOrder(onPlaced);

  const previewMutation = useMutation({
    mutationFn: () =>
      unwrap(perps().orders.preview({ intent: isScale ? scaleIntent(scale, market, { side: t.side, leverage: t.leverage, reduceOnly: t.reduceOnly, postOnly: t.tif === 'ALO' }) : toIntent(t, market, slippage) })),
    onSuccess: (p) => {
      // Without the review setting the order goes straight out, unless it trips the fat-finger guard: then
      // the review opens anyway, because the person has to confirm what is unusual before it is signed.
      if (confirm || p.confirmations.length > 0) setPreview(p);
      else direct.mutate({ preview: p, confirm: [] });
    },
  });

  const twapPreviewMutation = useMutation({
    mutationFn: () => unwrap(perps().twap.preview(twapRequest(twap, { market, side: t.side, size: t.size, leverage: t.leverage, reduceOnly: t.reduceOnly, slippageBps: slippage }))),
    // A TWAP always opens its review: it keeps sending orders for minutes or hours after this click.
    onSuccess: (p) => setTwapPreview(p),
  });
  // An OCO pair always opens its review: it is watched, and acts, long after this click.
  const ocoPreviewMutation = useMutation({ mutationFn: () => unwrap(perps().oco.preview(ocoRequest(oco, { market, size: t.size, leverage: t.leverage }))), onSuccess: (p) => setOcoPreview(p) });
  const ocoRefused = ocoPreviewMutation.error;
  // A chase always opens its review: it keeps re-pricing long after this click.
  const chasePreviewMutation = useMutation({ mutationFn: () => unwrap(perps().chase.preview(chaseRequest(chase, { market, side: t.side, size: t.size, leverage: t.leverage }))), onSuccess: (p) => setChasePreview(p) });
  const chaseRefused = chasePreviewMutation.error;

  const refPrice = check.reference ?? dec(mark);
  const max = maxSize(balance.data?.free_balance, t.leverage, refPrice, market);
  const isTrigger = t.type === 'TRIGGER';
  const buy = t.side === 'BUY';
  const showBracket = !isTrigger && !isScale && !isTwap && !isOco && !isChase && !t.reduceOnly;
  const submitLabel = isOco ? `Review OCO ${market.symbol}` : `${isTwap ? 'TWAP ' : isChase ? 'Chase ' : ''}${buy ? 'Buy / Long' : 'Sell / Short'} ${market.symbol}${scaleCheck?.rungs ? ` · ${scaleCheck.rungs.length} legs` : ''}`;
  const ready = scaleCheck ? scaleCheck.ok : twapCheck ? twapCheck.ok : ocoCheck ? ocoCheck.ok : chaseCheck ? chaseCheck.ok : check.ok;
  // Main's refusal of the preview, at the field it names when the ticket shows that field.
  const refused = previewMutation.error;
  const formError = !isScale && !isTwap && !isOco && !isChase ? check.errors.form : undefined;
  const shownFields = [...(!(isTrigger && t.closeWhole) && !isScale ? [SIZE_FIELD] : []), ...(t.type === 'LIMIT' || isTrigger ? [PRICE_FIELD] : []), ...(isTrigger ? [TRIGGER_FIELD] : [])];

  return (
    <form
      className="ticket"
      aria-label="Order ticket"
      onSubmit={(e) => {
        e.preventDefault();
        if (!ready) return;
        if (isTwap) twapPreviewMutation.mutate();
        else if (isOco) ocoPreviewMutation.mutate();
        else if (isChase) chasePreviewMutation.mutate();
        else previewMutation.mutate();
      }}
    >
      {/* The side and the order type stay in view while the column scrolls down the ticket (stickyHead.ts). */}
      <div className="ticket-head" ref={headRef}>
        {/* An OCO pair has both sides: a buy below the mark and a sell above it. */}
        {!isOco && (
          <Segmented<Side>
            label="Side"
            value={t.side}
            onChange={(side) => set({ side })}
            options={[
              { value: 'BUY', label: 'Buy / Long', tone: 'buy', name: 'Buy' },
              { value: 'SELL', label: 'Sell / Short', tone: 'sell', name: 'Sell' },
            ]}
          />
        )}
        <Segmented<OrderType>
          label="Order type"
          size="sm"
          value={t.type}
          onChange={(type) =>
            set({ type, ...(type === 'TRIGGER' ? { reduceOnly: true, bracket: false } : { closeWhole: false }), ...(type !== 'LIMIT' && type !== 'SCALE' && t.tif === 'ALO' ? { tif: 'GTC' as Tif } : {}), ...(t.type === 'TRIGGER' && type !== 'TRIGGER' ? { reduceOnly: false } : {}) })
          }
          options={[
            { value: 'MARKET', label: 'Market' },
            { value: 'LIMIT', label: 'Limit' },
            { value: 'TRIGGER', label: 'TP/SL', name: 'Trigger' },
            { value: 'SCALE', label: 'Scale' },
            { value: 'TWAP', label: 'TWAP' },
            { value: 'OCO', label: 'OCO', name: 'OCO (one cancels the other)' },
            { value: 'CHASE', label: 'Chase', name: 'Chase (post-only, follows the best bid or ask)' },
          ]}
        />
      </div>

      {isTrigger && (
        <>
          <Segmented<Tpsl>
            label="Trigger kind"
            size="sm"
            value={t.tpsl}
            onChange={(tpsl) => set({ tpsl })}
            options={[
              { value: 'TP', label: 'Take profit' },
              { value: 'SL', label: 'Stop loss' },
            ]}
          />
          <TextField
            label="Trigger price"
            inputMode="decimal"
            value={t.triggerPrice}
            onChange={(e) => set({ triggerPrice: e.target.value })}
            suffix="USD"
            error={(t.triggerPrice ? check.errors.triggerPrice : undefined) ?? fieldError(refused, TRIGGER_FIELD)}
            warning={check.warnings.triggerPrice}
            hint={`Mark ${fmt(mark, { places })} · fires on the mark price`}
          />
          <TextField
            label="Fire price (optional)"
            inputMode="decimal"
            value={t.price}
            onChange={(e) => set({ price: e.target.value })}
            suffix="USD"
            error={check.errors.price ?? fieldError(refused, PRICE_FIELD)}
            hint={`Default: the trigger price ± ${slippage ?? market.slippage_bps} bps`}
          />
        </>
      )}

      {t.type === 'LIMIT' && (
        <TextField
          label="Limit price"
          inputMode="decimal"
          value={t.price}
          onChange={(e) => set({ price: e.target.value })}
          suffix={
            <button type="button" className="link-btn" onClick={() => mark && set({ price: dec(mark)?.toFixed(places) ?? '' })} aria-label="Use mark price">
              Mark
            </button>
          }
          error={(t.price ? check.errors.price : undefined) ?? fieldError(refused, PRICE_FIELD)}
          warning={check.warnings.price}
          hint={`Tick ${market.tick_size}`}
        />
      )}
      {ocoCheck &&
        (extras ? <extras.OcoSection market={market} mark={mark} fields={oco} check={ocoCheck} refused={{ buy: ocoFieldError(ocoRefused, OCO_FIELDS.buy), sell: ocoFieldError(ocoRefused, OCO_FIELDS.sell) }} onChange={(patch) => setOco((prev) => ({ ...prev, ...patch }))} /> : <Loading label="OCO fields" />)}
      {chaseCheck &&
        (extras ? (
          <extras.ChaseSection
            market={market}
            side={t.side}
            fields={chase}
            check={chaseCheck}
            refused={{ offsetTicks: chaseFieldError(chaseRefused, CHASE_FIELDS.offsetTicks), maxDistance: chaseFieldError(chaseRefused, CHASE_FIELDS.maxDistance), timeout: chaseFieldError(chaseRefused, CHASE_FIELDS.timeout), takerAfter: chaseFieldError(chaseRefused, CHASE_FIELDS.takerAfter) }}
            onChange={(patch) => setChase((prev) => ({ ...prev, ...patch }))}
          />
        ) : (
          <Loading label="Chase fields" />
        ))}
      {twapCheck &&
        (extras ? <extras.TwapSection market={market} fields={twap} check={twapCheck} onChange={(patch) => setTwap((prev) => ({ ...prev, ...patch }))} /> : <Loading label="TWAP fields" />)}
      {t.type === 'MARKET' && (
        <p className="ticket-note">
          Fills now near the mark <span className="num strong">{fmt(mark, { places })}</span>, at worst{' '}
          <span className="num strong">{fmt(check.sentPrice, { places })}</span> ({slippage ?? market.slippage_bps} bps from it, IOC).
        </p>
      )}

      {scaleCheck &&
        (extras ? (
          <extras.ScaleSection market={market} fields={scale} check={scaleCheck} onChange={(patch) => setScale((prev) => ({ ...prev, ...patch }))} mark={mark} />
        ) : (
          <Loading label="Scale fields" />
        ))}

      {isTrigger && (
        <Checkbox label="Close the whole position when it fires (size 0)" checked={t.closeWhole} onChange={(e) => set({ closeWhole: e.target.checked })} />
      )}
      {!(isTrigger && t.closeWhole) && !isScale && (
        <TextField
          ref={sizeRef}
          label={isTwap ? `Total size (${market.symbol})` : isChase ? `Size to fill (${market.symbol})` : isOco ? `Size of each leg (${market.symbol})` : `Size (${market.symbol})`}
          inputMode="decimal"
          value={t.size}
          onChange={(e) => set({ size: e.target.value })}
          suffix={market.symbol}
          error={(t.size ? (twapCheck ? twapCheck.errors.size : ocoCheck ? ocoCheck.errors.size : chaseCheck ? chaseCheck.errors.size : check.errors.size) : undefined) ?? fieldError(isOco ? ocoRefused : isChase ? chaseRefused : refused, SIZE_FIELD)}
          hint={check.notional ? `≈ ${fmtUsd(check.notional)}` : `Step ${market.sz_decimals === 0 ? '1' : '0.' + '0'.repeat(market.sz_decimals - 1) + '1'}`}
        />
      )}
      {/* Right after the size: one Tab from it, and in view in the smallest window without scrolling the ticket. */}
      {!isTrigger && (
        <div className="field">
          <label className="field-label" htmlFor="ticket-leverage">
            Leverage
          </label>
          <div className="lev">
            <input
              id="ticket-leverage"
              type="range"
              min={1}
              max={market.max_leverage}
              step={1}
              value={t.leverage}
              onChange={(e) => set({ leverage: Number(e.target.value) })}
              aria-valuetext={`${t.leverage}x`}
            />
            <span className="strong lev-value">{t.leverage}x</span>
          </div>
        </div>
      )}

      {!isTrigger && !isScale && max && max.gt(0) && (
        <div className="segmented segmented-sm" role="group" aria-label="Size presets">
          {[25, 50, 75, 100].map((pct) => (
            <button
              key={pct}
              type="button"
              className="segment"
              onClick={() => set({ size: max.mul(pct).div(100).toDecimalPlaces(market.sz_decimals, 1).toFixed() })}
            >
              {pct}%
            </button>
          ))}
        </div>
      )}

      {isScale && <Checkbox label="Post-only (ALO): every leg rests or is rejected" checked={t.tif === 'ALO'} onChange={(e) => set({ tif: e.target.checked ? 'ALO' : 'GTC' })} />}
      {t.type === 'LIMIT' && (
        <Segmented<Tif>
          label="Time in force"
          size="sm"
          value={t.tif}
          onChange={(tif) => set({ tif })}
          options={[
            { value: 'GTC', label: 'GTC' },
            { value: 'IOC', label: 'IOC' },
            { value: 'ALO', label: 'Post-only', name: 'Post-only (ALO)' },
          ]}
        />
      )}

      {!isTrigger && !isOco && !isChase && (
        <Checkbox label="Reduce-only" checked={t.reduceOnly} onChange={(e) => set({ reduceOnly: e.target.checked, ...(e.target.checked ? { bracket: false } : {}) })} />
      )}
      {showBracket && <Checkbox label="Attach take-profit / stop-loss" checked={t.bracket} onChange={(e) => set({ bracket: e.target.checked })} />}
      {showBracket && t.bracket && (
        <div className="ticket-bracket" role="group" aria-label="Bracket">
          <p className="faint" style={{ fontSize: 'var(--fs-xs)' }}>
            Whole-position legs. They wait for the entry (PENDING_PARENT) and arm once it fills. Judged against the {check.referenceLabel}
            {check.reference ? ` ${check.reference.toFixed()}` : ''}.
          </p>
          <TextField label="Take-profit trigger" inputMode="decimal" value={t.tp} onChange={(e) => set({ tp: e.target.value })} error={check.errors.tp} warning={check.warnings.tp} suffix="USD" />
          <TextField label="Stop-loss trigger" inputMode="decimal" value={t.sl} onChange={(e) => set({ sl: e.target.value })} error={check.errors.sl} warning={check.warnings.sl} suffix="USD" />
        </div>
      )}

      <TicketEstimate t={t} market={market} mark={mark} freeBalance={balance.data?.free_balance} check={check} scaleCheck={scaleCheck} twapCheck={twapCheck} twapSlices={twap.slices} ocoCheck={ocoCheck} chaseCheck={chaseCheck} />
      {!isScale && !isTwap && !isOco && !isChase && check.guards.map((g) => (
        <p key={g.code} className="notice notice-warn ticket-guard" role="status">
          <code className="err-code">{g.code}</code> {g.message}
        </p>
      ))}
      {/* Sticks to the bottom of the trading column: the submit button is in view however small the window. */}
      <div className="ticket-submit">
        {formError && (
          <p className="error-line" id={FORM_ERROR_ID}>
            {formError}
          </p>
        )}
        {refused && !isShownAtField(refused, shownFields) && <ErrorLine error={refused} />}
        {isTwap && twapPreviewMutation.error && <ErrorLine error={twapPreviewMutation.error} />}
        {isOco && ocoRefused && !isShownAtField(ocoRefused, [OCO_FIELDS.buy, OCO_FIELDS.sell, SIZE_FIELD]) && <ErrorLine error={ocoRefused} />}
        {isChase && chaseRefused && !isShownAtField(chaseRefused, [...Object.values(CHASE_FIELDS), SIZE_FIELD]) && <ErrorLine error={chaseRefused} />}
        {direct.error && <ErrorLine error={direct.error} />}
        {!market.is_active && <p className="notice notice-warn">This market is not active.</p>}
        <Button type="submit" variant={isOco ? 'primary' : buy ? 'buy' : 'sell'} size="lg" className="btn-block" aria-describedby={formError ? FORM_ERROR_ID : undefined} disabled={!ready || !market.is_active} busy={previewMutation.isPending || direct.isPending || twapPreviewMutation.isPending || ocoPreviewMutation.isPending || chasePreviewMutation.isPending}>
          {submitLabel}
        </Button>
      </div>
      {/* Keyed by preview: each preview starts with a fresh placement state. A review asked for in the
          moment before the dialogs' chunk is in opens as soon as it is. */}
      {extras && <extras.TwapReviewDialog key={twapPreview?.preview_id ?? 'no-twap'} preview={twapPreview} onClose={() => setTwapPreview(null)} onStarted={() => set({ size: '' })} />}
      {extras && <extras.OcoReviewDialog key={ocoPreview?.preview_id ?? 'no-oco'} preview={ocoPreview} onClose={() => setOcoPreview(null)} onStarted={() => setOco(initialOco)} />}
      {extras && <extras.ChaseReviewDialog key={chasePreview?.preview_id ?? 'no-chase'} preview={chasePreview} onClose={() => setChasePreview(null)} onStarted={() => set({ size: '' })} />}
      {extras && <extras.OrderPreviewDialog key={preview?.preview_id ?? 'none'} preview={preview} onClose={() => setPreview(null)} onPlaced={onPlaced} />}
    </form>
  );
}
