/**
 * `perps positions --wallet ADDR [--csv]`: every open position of the account as a trader reads it: mark,
 * unrealized PnL, return on margin, the ESTIMATED liquidation price (the service publishes none: computed
 * from size, entry, isolated margin and the market's maintenance_margin_ratio) and its distance from the
 * mark in %, the armed TP/SL and what
 * can be closed now. The table rounds prices and sizes to the market's px_decimals / sz_decimals (the
 * liquidation estimate toward the mark, so it never promises more room) and money to cents; --json and
 * --csv carry full precision.
 */
import type { Command } from 'commander';
import { POSITION_VIEW_CSV_COLUMNS, readPositionViews } from '../../main/services/reads/positionRisk.js';
import { toCsv } from '../../main/services/reads/csv.js';
import type { PositionView } from '../../shared/ipc.js';
import { liquidationForDisplay, type Market } from '../../shared/protocol/index.js';
import { Decimal } from '../../shared/decimal/index.js';
import { contextOf, globalsOf } from '../globals.js';
import { cents, fixedPlaces, percent } from '../numbers.js';
import { formatTable, runAction, type Column } from '../output.js';
import { checkFormats } from '../parse.js';

interface Row {
  view: PositionView;
  market: Market | undefined;
}

/** Prices to the market's decimals; the service's text as it is when the market is no longer listed. */
const px = (r: Row, v: string | null | undefined): string => (v === null || v === undefined ? '-' : r.market ? fixedPlaces(v, r.market.px_decimals) : v);
const sz = (r: Row, v: string): string => (r.market ? fixedPlaces(v, r.market.sz_decimals) : v);

function liquidationText(r: Row): string {
  const liq = r.view.liquidation_price;
  if (liq === null) return r.market ? 'none' : '-';
  return r.market ? liquidationForDisplay(r.view.size, liq, r.market.px_decimals).toFixed(r.market.px_decimals) : liq;
}

/**
 * How far the mark may move against the position before the estimated liquidation, in % of the mark,
 * rounded toward danger (floor) so it never promises more room; --json carries the fraction in full
 * (liquidation_distance).
 */
function liquidationDistanceText(r: Row): string {
  const d = r.view.liquidation_distance;
  if (d === null) return r.view.liquidation_price === null && r.market ? 'none' : '-';
  return `${new Decimal(d).mul(100).toFixed(1, Decimal.ROUND_FLOOR)}%`;
}

function closeableText(r: Row): string {
  const text = sz(r, r.view.closeable);
  // Armed TP/SL hold the whole position (lifecycle rule 3): `perps position close` cancels them first.
  return r.view.closeable_note !== null ? `${text} (TP/SL armed)` : text;
}

/** A TP/SL cell: its level when armed, FAILED when it fired and ended unfilled, none otherwise (never blank). */
function levelText(r: Row, kind: 'tp' | 'sl'): string {
  const state = r.view[`${kind}_state`];
  if (state === 'failed') return 'FAILED';
  const armed = r.view[kind];
  if (armed) return px(r, armed.trigger_price);
  return state === 'armed' ? 'armed' : 'none';
}

/** One line per failed stop or take-profit, with what to do: the table's FAILED cell says no more. */
function failureLines(rows: readonly Row[], wallet: string): string[] {
  const lines: string[] = [];
  for (const r of rows) {
    for (const kind of ['sl', 'tp'] as const) {
      const f = r.view[`${kind}_failure`];
      if (!f) continue;
      const name = kind === 'sl' ? 'Stop' : 'Take-profit';
      lines.push(
        `${r.view.market} ${name} failed: ${r.view[`${kind}_reason`] ?? f.reason_code}. ${kind.toUpperCase()} ${px(r, f.trigger_price)} fired and was cancelled unfilled (order ${f.order_id}, worst price ${px(r, f.limit_price)}); the ${r.view.side.toLowerCase()} is open${kind === 'sl' ? ' without a stop' : ''}.`,
        `  close it at market: perps position close --wallet ${wallet} --market ${r.view.market}`,
        `  or re-arm:          perps position tpsl --wallet ${wallet} --market ${r.view.market} --${kind} PRICE`,
      );
    }
  }
  return lines;
}

const COLUMNS: Column<Row>[] = [
  { header: 'MARKET', value: (r) => r.view.market },
  { header: 'SIDE', value: (r) => r.view.side.toLowerCase() },
  { header: 'SIZE', value: (r) => sz(r, r.view.size), align: 'right' },
  { header: 'ENTRY', value: (r) => px(r, r.view.entry_price), align: 'right' },
  { header: 'MARK', value: (r) => px(r, r.view.mark), align: 'right' },
  { header: 'PNL', value: (r) => cents(r.view.unrealized_pnl), align: 'right' },
  { header: 'ROE', value: (r) => percent(r.view.return_on_margin, 2, true), align: 'right' },
  { header: 'LIQ (est.)', value: liquidationText, align: 'right' },
  { header: 'LIQ DIST', value: liquidationDistanceText, align: 'right' },
  { header: 'MARGIN', value: (r) => cents(r.view.isolated_margin), align: 'right' },
  { header: 'TP', value: (r) => levelText(r, 'tp'), align: 'right' },
  { header: 'SL', value: (r) => levelText(r, 'sl'), align: 'right' },
  { header: 'CLOSEABLE', value: closeableText, align: 'right' },
];

export function registerPositionsCommands(program: Command): void {
  program
    .command('positions')
    .description('open positions of the wallet (they appear shortly after a fill: /positions lags)')
    .requiredOption('--wallet <address>', 'main wallet')
    .option('--csv', 'print CSV instead of a table')
    .action(async (opts: { wallet: string; csv?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        checkFormats(g.json, opts.csv);
        const { positions, markets } = await readPositionViews(contextOf(g), opts.wallet);
        const rows = positions.map((view) => ({ view, market: markets.get(view.market) }));
        out.result({ positions, at: Date.now() }, () => {
          if (opts.csv === true) return toCsv(positions, POSITION_VIEW_CSV_COLUMNS);
          const table = formatTable(rows, COLUMNS, 'no open positions');
          const failed = failureLines(rows, opts.wallet);
          return rows.length === 0
            ? table
            : `${table}\n\nLIQ (est.) is an estimate from size, entry, isolated margin and the market's maintenance margin ratio; funding and margin changes move it. LIQ DIST is how far the mark can move against the position before it, in % of the mark.${failed.length > 0 ? `\n\n${failed.join('\n')}` : ''}`;
        });
      });
    });
}
