/**
 * Deposits, driven by POST /sim/deposit (the sim has no chain to watch): a transfer at or above the
 * rail's min_amount is DETECTED and CONFIRMED (credited to the free balance) deposit_confirm_ms later;
 * under it, it is BELOW_MIN and never credited. The sender's wallet decides the credited account.
 */
import { toChecksumAddress } from '../../shared/identity/index.js';
import { d, str } from '../core/numbers.js';
import type { SimContext } from '../context.js';
import type { DepositRecord } from '../state/model.js';

export interface DepositInput {
  wallet: string;
  amount: string;
  rail: string;
  source?: DepositRecord['source'];
}

export class DepositInputError extends Error {}

const DEFAULT_SOURCE: Record<string, DepositRecord['source']> = { hypercore: 'spotTransfer', arbitrum: 'send' };

export function simulateDeposit(ctx: SimContext, input: DepositInput): DepositRecord {
  const wallet = toChecksumAddress(input.wallet, 'wallet').toLowerCase();
  const rail = ctx.config.funding_config.deposit[input.rail];
  if (!rail) throw new DepositInputError(`rail: unknown rail ${JSON.stringify(input.rail)} (configured: ${Object.keys(ctx.config.funding_config.deposit).join(', ')})`);
  const amount = d(input.amount);
  if (amount.lte(0)) throw new DepositInputError('amount: must be positive');
  if (amount.decimalPlaces() > 6) throw new DepositInputError('amount: USDC has 6 decimals');
  const now = ctx.clock.now();
  const below = amount.lt(rail.min_amount);
  const dep: DepositRecord = {
    id: ctx.store.nextDepositId(),
    wallet,
    tx_hash: '0x' + ctx.random.hex(32),
    amount: str(amount),
    source: input.source ?? DEFAULT_SOURCE[input.rail] ?? 'send',
    rail: input.rail,
    status: below ? 'BELOW_MIN' : 'DETECTED',
    detected_at: now,
    credited_at: null,
  };
  ctx.store.addDeposit(dep);
  if (!below) ctx.jobs.add('deposit.confirm', ctx.timings.deposit_confirm_ms, { id: dep.id });
  return dep;
}

export function depositView(dep: DepositRecord): Record<string, unknown> {
  return {
    tx_hash: dep.tx_hash,
    amount: dep.amount,
    source: dep.source,
    status: dep.status,
    detected_at: dep.detected_at,
    credited_at: dep.credited_at,
    rail: dep.rail,
    wallet: toChecksumAddress(dep.wallet),
  };
}

export function registerDepositJobs(ctx: SimContext): void {
  ctx.jobs.on('deposit.confirm', ({ id }) => {
    const dep = ctx.store.deposits.get(id);
    if (!dep) throw new Error(`deposit.confirm: unknown deposit ${id}`);
    if (dep.status !== 'DETECTED') return;
    dep.status = 'CONFIRMED';
    dep.credited_at = ctx.clock.now();
    ctx.store.addFree(dep.wallet, d(dep.amount));
  });
}
