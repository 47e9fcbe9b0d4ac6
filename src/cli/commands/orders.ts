/**
 * `perps orders [open]|triggers --wallet ADDR [--market SYM] [--csv]` (`perps orders` alone is `orders open`): the wallet's open orders (resting,
 * armed triggers and bracket legs awaiting their entry) and its armed TP/SL triggers. Every page is read.
 * --csv writes RFC 4180 CSV with the service's values as they are. Order history is `perps orders history`
 * (the same command as `perps history orders`).
 */
import type { Command } from 'commander';
import type { ListedOrder } from '../../shared/protocol/index.js';
import { ORDER_CSV_COLUMNS, readOpenOrders, readTriggers, toCsv, type MarketFilter } from '../../main/services/reads/index.js';
import type { ServiceContext } from '../../main/services/serviceContext.js';
import { contextOf, globalsOf } from '../globals.js';
import { formatTable, runAction } from '../output.js';
import { LISTED_ORDER_COLUMNS } from '../orders/reports.js';
import { checkFormats } from '../parse.js';
import { historySubcommand } from './history.js';
import { noteForgottenPaperWallet } from '../paperRestartNote.js';

interface ListOpts {
  wallet: string;
  market?: string;
  csv?: boolean;
}

function listCommand(
  parent: Command,
  name: string,
  description: string,
  read: (ctx: ServiceContext, wallet: string, filter: MarketFilter) => Promise<ListedOrder[]>,
  empty: string,
  isDefault = false,
): void {
  parent
    .command(name, { isDefault })
    .description(description)
    .requiredOption('--wallet <address>', 'main wallet')
    .option('--market <symbol>', 'only this market')
    .option('--csv', 'print CSV instead of a table')
    .action(async (opts: ListOpts, cmd: Command) => {
      const g = globalsOf(cmd);
      await runAction({ json: g.json === true }, async (out) => {
        checkFormats(g.json, opts.csv);
        const ctx = contextOf(g);
        const rows = await read(ctx, opts.wallet, opts.market ? { market: opts.market } : {});
        if (rows.length === 0) await noteForgottenPaperWallet(ctx, opts.wallet);
        out.result({ orders: rows, total: rows.length }, () => (opts.csv === true ? toCsv(rows, ORDER_CSV_COLUMNS) : formatTable(rows, LISTED_ORDER_COLUMNS, empty)));
      });
    });
}

export function registerOrdersCommands(program: Command): void {
  const orders = program.command('orders').description("the wallet's open orders, armed triggers and order history (`orders history`, also `perps history orders`)");
  // `perps orders` alone is `perps orders open`: what a trader means by "my orders".
  listCommand(orders, 'open', 'open orders: resting limits, armed triggers, bracket legs awaiting their entry (the default: `perps orders`)', readOpenOrders, 'no open orders', true);
  listCommand(orders, 'triggers', 'armed reduce-only TP/SL triggers', readTriggers, 'no armed triggers');
  historySubcommand(orders, 'history', 'orders', 'order history, newest first, one row per order (`perps history orders`; --events for the raw rows)');
}
