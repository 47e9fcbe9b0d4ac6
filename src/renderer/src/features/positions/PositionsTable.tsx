/**
 * Open positions with PnL from the live mark, and the actions a position allows: close (cancel its armed
 * triggers, then one reduce-only market order), reverse (exit then enter; there is no atomic flip), and
 * add or remove isolated margin.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { memo, useState } from 'react';
import type { MarketView, PositionView } from '../../../../shared/ipc';
import { selectMarket } from '../../app/uiStore';
import { perps, unwrap } from '../../ipc/client';
import { qk, useMarkets, usePositions } from '../../ipc/queries';
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

type Action = { kind: 'close' | 'reverse' | 'margin'; position: PositionView } | null;

export function PositionsTable() {
  const positions = usePositions();
  const markets = useMarkets();
  const [action, setAction] = useState<Action>(null);
  if (positions.isPending) return <Loading label="Loading positions" rows={3} />;
  if (positions.error) return <ErrorState error={positions.error} title="Positions unavailable" onRetry={() => void positions.refetch()} />;
  const list = positions.data.positions;
  if (list.length === 0) return <EmptyState title="No open positions">Positions appear here once an order fills.</EmptyState>;
  const bySymbol = new Map((markets.data?.markets ?? []).map((m) => [m.symbol, m]));
  return (
    <>
      <table className="dt" aria-label="Positions">
        <thead>
          <tr>
            {/* What a trader reads first leads, so it stays in view beside the actions on a narrow window. */}
            <th>Market</th>
            <th className="r">Size</th>
            <th className="r">Unrealized PnL</th>
            <th className="r">Entry</th>
            <th className="r">Mark</th>
            <th className="r">Notional</th>
            <th className="r">Margin</th>
            <th className="r">Closeable</th>
            <th className="r dt-sticky">Actions</th>
          </tr>
        </thead>
        <tbody>
          {list.map((p) => (
            <PositionRow key={p.market} position={p} market={bySymbol.get(p.market)} onAction={setAction} />
          ))}
        </tbody>
      </table>
      {action?.kind === 'close' && <CloseDialog position={action.position} onClose={() => setAction(null)} />}
      {action?.kind === 'reverse' && <ReverseDialog position={action.position} market={bySymbol.get(action.position.market)} onClose={() => setAction(null)} />}
      {action?.kind === 'margin' && <MarginDialog position={action.position} onClose={() => setAction(null)} />}
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

const PositionRow = memo(function PositionRow({ position: p, market, onAction }: { position: PositionView; market: MarketView | undefined; onAction: (a: Action) => void }) {
  const tick = useMark(p.market);
  const { mark, pnl, roe, notional } = livePnl(p, tick?.mark);
  const places = market ? placesOfStep(market.tick_size) : undefined;
  const long = p.side === 'LONG';
  return (
    <tr aria-label={`${p.market} position`}>
      <td>
        <span className="row" style={{ gap: 6 }}>
          <button type="button" className="link-btn strong" onClick={() => selectMarket(p.market)}>
            {p.market}
          </button>
          <Badge tone={long ? 'buy' : 'sell'}>{p.side}</Badge>
        </span>
      </td>
      <td className={`r num ${long ? 'buy' : 'sell'}`}>{fmt(p.size)}</td>
      <td className={`r num ${toneOf(pnl)}`} aria-label="Unrealized PnL">
        {fmtUsd(pnl, { signed: true })} <span className="faint">({fmtPct(roe, 2, true)})</span>
      </td>
      <td className="r num">{fmt(p.entry_price, places !== undefined ? { places } : {})}</td>
      <td className="r num">{fmt(mark, places !== undefined ? { places } : {})}</td>
      <td className="r num">{fmtUsd(notional)}</td>
      <td className="r num">{fmtUsd(p.isolated_margin)}</td>
      <td className="r num">{fmt(p.closeable)}</td>
      <td className="dt-sticky">
        <RowActions
          name={`${p.market} position`}
          actions={[
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
    </tr>
  );
});

function useInvalidateTrading() {
  const client = useQueryClient();
  return () => {
    for (const k of [qk.positions, qk.openOrders, qk.triggers, qk.balance]) void client.invalidateQueries({ queryKey: k });
  };
}

function CloseDialog({ position, onClose }: { position: PositionView; onClose: () => void }) {
  const refresh = useInvalidateTrading();
  const close = useMutation({
    mutationFn: () => unwrap(perps().positions.close({ market: position.market })),
    onSuccess: (r) => {
      refresh();
      pushToast({
        tone: r.closed ? 'success' : 'warn',
        title: r.closed ? `${r.market} position closed` : `${r.market} close submitted`,
        body: `${r.cancelled_triggers} trigger${r.cancelled_triggers === 1 ? '' : 's'} cancelled first${r.order_id ? ` · order ${r.order_id}` : ''}`,
      });
      onClose();
    },
  });
  return (
    <Dialog
      open
      title={`Close ${position.market} position`}
      onClose={onClose}
      locked={close.isPending}
      tone="danger"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={close.isPending}>
            Cancel
          </Button>
          <Button variant="sell" busy={close.isPending} onClick={() => close.mutate()}>
            Close position
          </Button>
        </>
      }
    >
      <KVList>
        <KV k="Position">
          {position.side} {fmt(position.size)}
        </KV>
        <KV k="Entry">{fmt(position.entry_price)}</KV>
        <KV k="Closeable now">{fmt(position.closeable)}</KV>
      </KVList>
      <p className="muted">
        Every armed TP/SL trigger on {position.market} is cancelled first (a position with an armed reduce-only trigger cannot be closed), then
        one reduce-only market order {position.side === 'LONG' ? 'sells' : 'buys'} the whole position within the market’s slippage bound.
      </p>
      {close.error && <ErrorLine error={close.error} />}
    </Dialog>
  );
}

function ReverseDialog({ position, market, onClose }: { position: PositionView; market: MarketView | undefined; onClose: () => void }) {
  const refresh = useInvalidateTrading();
  const abs = dec(position.size)?.abs().toFixed() ?? '';
  const [size, setSize] = useState(abs);
  const reverse = useMutation({
    mutationFn: () => unwrap(perps().positions.reverse({ market: position.market, ...(size.trim() && size.trim() !== abs ? { size: size.trim() } : {}) })),
    onSuccess: (r) => {
      refresh();
      pushToast({ tone: 'success', title: `${r.market} reversed`, body: r.position_after ? `Now ${r.position_after.side} ${r.position_after.size}` : 'Exit done; entry submitted' });
      onClose();
    },
  });
  const valid = size.trim() === '' || (isDecimalText(size) && (dec(size)?.gt(0) ?? false));
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
          <Button variant={position.side === 'LONG' ? 'sell' : 'buy'} busy={reverse.isPending} disabled={!valid} onClick={() => reverse.mutate()}>
            Reverse to {position.side === 'LONG' ? 'short' : 'long'}
          </Button>
        </>
      }
    >
      <p className="muted">There is no atomic flip: the position is closed first (its armed triggers cancelled), then a market order opens the opposite side.</p>
      <TextField label={`New ${position.side === 'LONG' ? 'short' : 'long'} size`} value={size} onChange={(e) => setSize(e.target.value)} suffix={position.market} error={valid ? undefined : 'Enter a positive size'} hint={market ? `At most ${market.sz_decimals} decimals` : undefined} />
      {reverse.error && <ErrorLine error={reverse.error} />}
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
