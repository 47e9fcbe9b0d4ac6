/**
 * Open positions with PnL from the live mark, the estimated liquidation price and its distance, the armed
 * TP/SL, and the actions a position allows: close (all or part, at market or at a limit: its armed
 * triggers are cancelled first; CloseDialog.tsx), TP/SL (set, move or remove; TpslDialog.tsx), reverse
 * (exit then enter; there is no atomic flip), and add or remove isolated margin.
 */
import { useMutation } from '@tanstack/react-query';
import { memo, useMemo, useState } from 'react';
import type { ConfirmationCode, MarketView, PositionView, ReviewConfirmation } from '../../../../shared/ipc';
import { selectMarket } from '../../app/uiStore';
import { perps, unwrap } from '../../ipc/client';
import { useMarkets, usePositions, useSettings } from '../../ipc/queries';
import { dec, fmt, fmtPct, fmtUsd, isDecimalText, placesOfStep, toneOf } from '../../lib/decimal';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { RowActions } from '../../ui/RowActions';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/Field';
import { KV, KVList } from '../../ui/Panel';
import { Segmented } from '../../ui/Segmented';
import { EmptyState, ErrorLine, ErrorState, Loading } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { useMark } from '../markets/markStore';
import { DEFAULT_WARNING_PCT, distanceText, isNearLiquidation, liquidationText, liveLiquidationDistance } from '../risk/liquidation';
import { allConfirmed, confirmedCodes, GuardConfirmations } from '../signing/GuardConfirmations';
import { guardFromError, withGuard } from '../signing/guardFromError';
import { CloseDialog } from './CloseDialog';
import { TpslDialog } from './TpslDialog';
import { useInvalidateTrading } from './useInvalidateTrading';

/** `nonce`: a new close started from a close's outcome (a level the mark passed) opens a fresh dialog. */
type Action = { kind: 'close' | 'reverse' | 'margin' | 'tpsl'; position: PositionView; nonce?: number } | null;

/**
 * The columns, in order. What a trader reads first leads, so it stays in view beside the actions; the
 * pos-* classes place each cell in the two-line row of a narrow panel (styles/components.css).
 */
const COLUMNS: { label: string; className: string; title?: string }[] = [
  { label: 'Market', className: 'pos-market' },
  { label: 'Size', className: 'r pos-size' },
  { label: 'PnL (ROE)', className: 'r pos-pnl', title: "Unrealized PnL at the live mark, and the return on the position's margin" },
  { label: 'Entry', className: 'r pos-entry' },
  { label: 'Mark', className: 'r pos-mark' },
  { label: 'Liq. (est.)', className: 'r pos-liq', title: "Estimated from size, entry, isolated margin and the market's maintenance margin ratio; the service publishes none" },
  { label: 'TP / SL', className: 'pos-tpsl' },
  { label: 'Notional', className: 'r pos-notional' },
  { label: 'Margin', className: 'r pos-margin' },
  { label: 'Actions', className: 'r dt-sticky pos-actions' },
];

export function PositionsTable() {
  const positions = usePositions();
  const markets = useMarkets();
  const settings = useSettings();
  const [action, setAction] = useState<Action>(null);
  const warningPct = settings.data?.liquidation_warning_pct ?? DEFAULT_WARNING_PCT;
  if (positions.isPending) return <Loading label="Loading positions" rows={3} />;
  if (positions.error) return <ErrorState error={positions.error} title="Positions unavailable" onRetry={() => void positions.refetch()} />;
  const list = positions.data.positions;
  const bySymbol = new Map((markets.data?.markets ?? []).map((m) => [m.symbol, m]));
  // A dialog shows the position as it is now (its TP/SL, closeable), not as it was when it opened; a
  // close's dialog stays open with its outcome after the position is gone.
  const current = action ? (list.find((p) => p.market === action.position.market) ?? action.position) : null;
  const dialogs = (
    <>
      {action?.kind === 'close' && current && bySymbol.get(current.market) && (
        <CloseDialog
          key={action.nonce ?? 0}
          position={current}
          market={bySymbol.get(current.market)!}
          onClose={() => setAction(null)}
          onSetTpsl={(p) => setAction({ kind: 'tpsl', position: p })}
          onCloseRest={(p) => setAction({ kind: 'close', position: p, nonce: Date.now() })}
        />
      )}
      {action?.kind === 'tpsl' && current && <TpslDialog position={current} market={bySymbol.get(current.market)} onClose={() => setAction(null)} />}
      {action?.kind === 'reverse' && current && <ReverseDialog position={current} market={bySymbol.get(current.market)} onClose={() => setAction(null)} />}
      {action?.kind === 'margin' && current && <MarginDialog position={current} onClose={() => setAction(null)} />}
    </>
  );
  if (list.length === 0) {
    return (
      <>
        <EmptyState title="No open positions">Positions appear here once an order fills.</EmptyState>
        {dialogs}
      </>
    );
  }
  return (
    <>
      {/* Explicit table roles: below 1000 px of panel the rows are drawn as two-line grids (styles/components.css),
          and a changed display must not cost a screen reader the table's rows, cells and headers. */}
      <table className="dt dt-compact dt-positions" role="table" aria-label="Positions">
        <thead role="rowgroup">
          <tr role="row">
            {COLUMNS.map((c) => (
              <th key={c.className} scope="col" role="columnheader" className={c.className} title={c.title}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup">
          {list.map((p) => (
            <PositionRow key={p.market} position={p} market={bySymbol.get(p.market)} warningPct={warningPct} onAction={setAction} />
          ))}
        </tbody>
      </table>
      {dialogs}
    </>
  );
}

/** PnL from the live mark when one arrived after the snapshot; otherwise main's own figures. */
function livePnl(p: PositionView, liveMark: string | undefined) {
  const mark = liveMark ?? p.mark;
  const m = dec(mark);
  const size = dec(p.size);
  const entry = dec(p.entry_price);
  if (!m || !size || !entry) return { mark, pnl: dec(p.unrealized_pnl), roe: dec(p.return_on_margin), notional: dec(p.notional) };
  const pnl = size.mul(m.minus(entry));
  const margin = dec(p.isolated_margin);
  return { mark, pnl, roe: margin && margin.gt(0) ? pnl.div(margin) : null, notional: size.abs().mul(m) };
}

/** Whether the whole position can be closed now (then the Size cell says nothing more). */
function closeableIsWhole(p: PositionView): boolean {
  const closeable = dec(p.closeable);
  const size = dec(p.size);
  return !p.closeable_note && closeable !== null && size !== null && closeable.eq(size.abs());
}

/** The armed TP and SL levels; a click opens the TP/SL dialog. */
function TpslCell({ p, market, onEdit }: { p: PositionView; market: MarketView | undefined; onEdit: () => void }) {
  const places = market ? { places: placesOfStep(market.tick_size) } : {};
  const trailing = p.trailing ?? null;
  // A trailing stop is said in words ("Trailing 1.5% · SL 3,120.5 · high 3,168"), never by colour alone.
  // The worst fill price rides with the stop: how far past its level a gap may take it (the stop tolerance).
  const slText = trailing ? `${trailing.summary}${trailing.running ? '' : ' (paused: last level armed)'}` : p.sl ? `SL ${fmt(p.sl.trigger_price, places)} · worst ${fmt(p.sl.limit_price, places)}` : null;
  const levels = [p.tp ? `TP ${fmt(p.tp.trigger_price, places)}` : null, slText].filter(Boolean).join(' · ');
  return (
    <button type="button" className="link-btn tpsl-cell" onClick={onEdit} aria-label={`${p.market} TP/SL: ${levels || 'none armed · Add'}`} title={trailing?.away ?? 'Set, move or remove the take-profit and stop-loss'}>
      {/* One level a line: side by side, the two pushed Notional and Margin under the actions. */}
      {/* Its name holds what it shows ("+ Add", the levels), spaced as the name spaces them. */}
      {p.tp && <span className="buy">TP {fmt(p.tp.trigger_price, places)}</span>}{' '}
      {trailing ? (
        // Two lines, so the narrow column never cuts the high-water mark off: "Trailing 1% · SL 3,415.5" / "high 3,450".
        <span className="sell" data-testid="trailing-stop">
          {trailing.summary.split(' · ').slice(0, 2).join(' · ')}
          <br />
          {[...trailing.summary.split(' · ').slice(2), ...(trailing.running ? [] : ['paused: last level armed'])].join(' · ')}
        </span>
      ) : (
        slText && <span className="sell">{slText}</span>
      )}
      {!p.tp && !slText && <span className="faint">{p.sl_state === 'failed' ? 'none armed' : '+ Add'}</span>}
    </button>
  );
}

/**
 * A stop (or take-profit) that fired and was cancelled unfilled: the position is open and unprotected.
 * Said in words and as an alert (never by colour alone), with the two ways out.
 */
function TriggerFailedCell({ p, market, onClose, onRearm }: { p: PositionView; market: MarketView | undefined; onClose: () => void; onRearm: () => void }) {
  const places = market ? { places: placesOfStep(market.tick_size) } : {};
  const failures = (['sl', 'tp'] as const).filter((k) => p[`${k}_state`] === 'failed');
  if (failures.length === 0) return null;
  return (
    <div className="trigger-failed" data-testid="trigger-failed">
      {failures.map((k) => {
        const f = p[`${k}_failure`];
        return (
          <p key={k} className="trigger-failed-text" title={f ? `${k.toUpperCase()} ${fmt(f.trigger_price, places)} fired and was cancelled unfilled (order ${f.order_id}, worst price ${fmt(f.limit_price, places)})` : undefined}>
            <span aria-hidden="true">⚠ </span>
            {k === 'sl' ? 'Stop' : 'Take-profit'} failed: {p[`${k}_reason`] ?? 'cancelled unfilled'}
          </p>
        );
      })}
      <span className="row trigger-failed-actions">
        <Button size="sm" variant="danger" onClick={onClose} aria-label={`Close at market, ${p.market}`}>
          Close at market
        </Button>
        <Button size="sm" onClick={onRearm} aria-label={`Re-arm, ${p.market} stop`}>
          Re-arm
        </Button>
      </span>
    </div>
  );
}

const PositionRow = memo(function PositionRow({ position: p, market, warningPct, onAction }: { position: PositionView; market: MarketView | undefined; warningPct: number; onAction: (a: Action) => void }) {
  const tick = useMark(p.market);
  const { mark, pnl, roe, notional } = livePnl(p, tick?.mark);
  const places = market ? placesOfStep(market.tick_size) : undefined;
  const distance = liveLiquidationDistance(p.size, mark, p.liquidation_price);
  const near = isNearLiquidation(distance, warningPct);
  // The cells that do not follow the mark, built once per position: a frame of marks (ten a second in a
  // storm) re-renders only the live cells, not the row's buttons, menus and badges (issue 29).
  const fixed = useMemo(() => {
    const long = p.side === 'LONG';
    return {
      head: (
        <>
          <td role="cell" className="pos-market">
            <span className="row" style={{ gap: 6 }}>
              <button type="button" className="link-btn strong" onClick={() => selectMarket(p.market)}>
                {p.market}
              </button>
              <Badge tone={long ? 'buy' : 'sell'}>{p.side}</Badge>
            </span>
          </td>
          <td role="cell" className="r num pos-size">
            <span className={long ? 'buy' : 'sell'}>{fmt(p.size)}</span>
            {/* Only when it differs from the size (armed triggers hold it, say): a column of its own would
                repeat the size on every other row, and push Margin under the actions at 1440 px. */}
            {!closeableIsWhole(p) && (
              <span className={`cell-sub${p.closeable_note ? ' closeable-held' : ''}`} aria-label="Closeable" title={p.closeable_note ? `Closeable ${fmt(p.closeable)}: ${p.closeable_note}` : undefined}>
                closeable {fmt(p.closeable)}
                {/* The why in full is the title (and the close dialog says it): a long line here widens the column. */}
                {p.closeable_note && <span className="visually-hidden"> · {p.closeable_note}</span>}
              </span>
            )}
          </td>
        </>
      ),
      entry: (
        <td role="cell" className="r num pos-entry">
          {fmt(p.entry_price, places !== undefined ? { places } : {})}
        </td>
      ),
      tpsl: (
        <td role="cell" className="pos-tpsl">
          <TpslCell p={p} market={market} onEdit={() => onAction({ kind: 'tpsl', position: p })} />
        </td>
      ),
      tail: (
        <>
          <td role="cell" className="r num pos-margin">
            {fmtUsd(p.isolated_margin)}
          </td>
          <td role="cell" className="dt-sticky pos-actions">
            <RowActions
              name={`${p.market} position`}
              collapse="wide"
              actions={[
                { label: 'TP/SL', name: `Set TP/SL on ${p.market} position`, onSelect: () => onAction({ kind: 'tpsl', position: p }) },
                { label: 'Margin', name: `Adjust ${p.market} margin`, onSelect: () => onAction({ kind: 'margin', position: p }) },
                { label: 'Reverse', name: `Reverse ${p.market} position`, onSelect: () => onAction({ kind: 'reverse', position: p }) },
              ]}
              primary={
                <Button size="sm" variant="danger" onClick={() => onAction({ kind: 'close', position: p })} aria-label={`Close ${p.market} position`}>
                  Close
                </Button>
              }
            />
          </td>
        </>
      ),
    };
  }, [p, market, places, onAction]);
  return (
    <>
    <tr role="row" aria-label={`${p.market} position`}>
      {fixed.head}
      <td role="cell" className={`r num pos-pnl ${toneOf(pnl)}`} aria-label="Unrealized PnL">
        {fmtUsd(pnl, { signed: true })} <span className="faint">({fmtPct(roe, 2, true)})</span>
      </td>
      {fixed.entry}
      <td role="cell" className="r num pos-mark">
        {fmt(mark, places !== undefined ? { places } : {})}
      </td>
      <td role="cell" className={`r num pos-liq${near ? ' liq-near' : ''}`} aria-label={`Liquidation price (estimate) ${liquidationText(p.size, p.liquidation_price, market)}${distance ? `, ${distanceText(distance)} away from the mark` : ''}`} title={near ? `Within your warning distance of ${warningPct}% of the mark` : 'How far the mark is from the estimated liquidation price'}>
        <span className="liq">{liquidationText(p.size, p.liquidation_price, market)}</span>
        {/* The distance says what it is: a bare "(19.20%)" beside a price read as a change or a ROE. */}
        {distance && <span className="faint liq-distance"> {distanceText(distance)} away</span>}
      </td>
      {fixed.tpsl}
      <td role="cell" className="r num pos-notional">
        {fmtUsd(notional)}
      </td>
      {fixed.tail}
    </tr>
    {/* A failed stop gets a line of its own under the row, across every column, at any width. */}
    {(p.sl_state === 'failed' || p.tp_state === 'failed') && (
      <tr role="row" aria-label={`${p.market} ${p.sl_state === 'failed' ? 'stop' : 'take-profit'} failed`} className="pos-failure-row">
        <td role="cell" colSpan={COLUMNS.length} className="pos-failure">
          <TriggerFailedCell p={p} market={market} onClose={() => onAction({ kind: 'close', position: p })} onRearm={() => onAction({ kind: 'tpsl', position: p })} />
        </td>
      </tr>
    )}
    </>
  );
});

export function ReverseDialog({ position, market, onClose }: { position: PositionView; market: MarketView | undefined; onClose: () => void }) {
  const refresh = useInvalidateTrading();
  const abs = dec(position.size)?.abs().toFixed() ?? '';
  const [size, setSize] = useState(abs);
  // The new entry may be above the user's order-size cap: main refuses it (LARGE_ORDER) until confirmed.
  const [guards, setGuards] = useState<ReviewConfirmation[]>([]);
  const [confirmed, setConfirmed] = useState<Set<ConfirmationCode>>(() => new Set());
  const reverse = useMutation({
    mutationFn: () => {
      const confirm = confirmedCodes(guards, confirmed);
      return unwrap(perps().positions.reverse({ market: position.market, ...(size.trim() && size.trim() !== abs ? { size: size.trim() } : {}), ...(confirm.length > 0 ? { confirm } : {}) }));
    },
    onSuccess: (r) => {
      refresh();
      pushToast({ tone: 'success', title: `${r.market} reversed`, body: r.position_after ? `Now ${r.position_after.side} ${r.position_after.size}` : 'Exit done; entry submitted' });
      onClose();
    },
    onError: (err) => {
      const guard = guardFromError(err);
      if (guard) setGuards((g) => withGuard(g, guard));
    },
  });
  const valid = size.trim() === '' || (isDecimalText(size) && (dec(size)?.gt(0) ?? false));
  const guardError = guardFromError(reverse.error) !== null;
  return (
    <Dialog
      open
      title={`Reverse ${position.market} position`}
      onClose={onClose}
      locked={reverse.isPending}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={reverse.isPending}>
            Cancel
          </Button>
          <Button variant={position.side === 'LONG' ? 'sell' : 'buy'} busy={reverse.isPending} disabled={!valid || !allConfirmed(guards, confirmed)} onClick={() => reverse.mutate()}>
            Reverse to {position.side === 'LONG' ? 'short' : 'long'}
          </Button>
        </>
      }
    >
      <p className="muted">There is no atomic flip: the position is closed first (its armed triggers cancelled), then a market order opens the opposite side.</p>
      <TextField label={`New ${position.side === 'LONG' ? 'short' : 'long'} size`} value={size} onChange={(e) => setSize(e.target.value)} suffix={position.market} error={valid ? undefined : 'Enter a positive size'} hint={market ? `At most ${market.sz_decimals} decimals` : undefined} />
      <GuardConfirmations confirmations={guards} confirmed={confirmed} onChange={setConfirmed} disabled={reverse.isPending} />
      {reverse.error && !guardError && <ErrorLine error={reverse.error} />}
    </Dialog>
  );
}

function MarginDialog({ position, onClose }: { position: PositionView; onClose: () => void }) {
  const refresh = useInvalidateTrading();
  const [dir, setDir] = useState<'add' | 'remove'>('add');
  const [amount, setAmount] = useState('');
  const d = dec(amount);
  const valid = isDecimalText(amount) && d !== null && d.gt(0);
  const adjust = useMutation({
    mutationFn: () => unwrap(perps().positions.adjustMargin({ market: position.market, amount: dir === 'add' ? amount.trim() : `-${amount.trim()}` })),
    onSuccess: (r) => {
      refresh();
      if (r.status !== 'REJECTED') {
        pushToast({ tone: 'success', title: `Margin ${dir === 'add' ? 'added' : 'removed'} · ${r.market}`, body: `${r.amount} USDC · ${r.status}` });
        onClose();
      }
    },
  });
  const r = adjust.data;
  return (
    <Dialog
      open
      title={`Adjust margin · ${position.market}`}
      onClose={onClose}
      locked={adjust.isPending}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={adjust.isPending}>
            Cancel
          </Button>
          <Button variant="primary" busy={adjust.isPending} disabled={!valid} onClick={() => adjust.mutate()}>
            {dir === 'add' ? 'Add margin' : 'Remove margin'}
          </Button>
        </>
      }
    >
      <Segmented<'add' | 'remove'>
        label="Direction"
        value={dir}
        onChange={setDir}
        options={[
          { value: 'add', label: 'Add' },
          { value: 'remove', label: 'Remove' },
        ]}
      />
      <KVList>
        <KV k="Current isolated margin">{fmtUsd(position.isolated_margin)}</KV>
      </KVList>
      <TextField label="Amount" value={amount} onChange={(e) => setAmount(e.target.value)} suffix="USDC" inputMode="decimal" error={amount && !valid ? 'Enter a positive amount' : undefined} />
      {r && r.status === 'REJECTED' && (
        <p className="error-line" role="alert">
          Rejected: <code className="err-code">{r.reason}</code> {r.explanation}
        </p>
      )}
      {adjust.error && <ErrorLine error={adjust.error} />}
    </Dialog>
  );
}
