/** Funding and balance: channels funding:* and account:balance. */
import { z } from 'zod';
import { decimalIn } from '../fieldSchemas.js';
import { address, dec } from './fields.js';

export const DepositInfoSchema = z.object({
  /** Destination of a venue spot transfer, from GET /config (never hardcoded). */
  address,
  rails: z.array(z.object({ rail: z.string(), min_amount: dec, address: address.nullable() })),
  note: z.string(),
  /** The sim profile offers a faucet instead of a real transfer. */
  faucet_available: z.boolean(),
});
export type DepositInfo = z.infer<typeof DepositInfoSchema>;

export const FaucetRequestSchema = z.strictObject({ amount: decimalIn });
export const FaucetResultSchema = z.object({ wallet: address, amount: dec });

export const BalanceViewSchema = z.object({ wallet: address, account_id: z.string(), free_balance: dec });
export type BalanceView = z.infer<typeof BalanceViewSchema>;
