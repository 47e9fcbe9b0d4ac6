/**
 * The amount grammar of a withdrawal: whole USDC as a plain decimal, at most 6 places (never rounded), at
 * most the IPC's decimal length, and small enough for the signed uint256 of base units.
 */
import { USDC_DECIMALS, canonical, parseDecimalText, usdcToBaseUnits, type DecimalError, type Decimal } from '../../../../shared/decimal/index.js';
import { MAX_DECIMAL_INPUT_LENGTH } from '../../../../shared/fieldSchemas.js';
import { ValidationError } from '../../errors.js';

/** The largest amount Withdraw can sign: its amount is a uint256 of base units. */
const UINT256_MAX = (1n << 256n) - 1n;
const AMOUNT_HINT = 'Give the amount in whole USDC as a plain decimal, e.g. 25 or 25.5.';

/**
 * Canonical whole-USDC amount of user input; refuses (never rounds) more than 6 places, and refuses as
 * bad input (INVALID_AMOUNT, nothing signed) text longer than any amount (the IPC bound) and an amount
 * whose base units would not fit the signed uint256. The length bound alone keeps base units under
 * 10^70 today; the uint256 check keeps holding if that shared bound ever grows.
 */
export function parseWithdrawAmount(input: string): string {
  if (typeof input === 'string' && input.length > MAX_DECIMAL_INPUT_LENGTH) {
    throw new ValidationError(`at most ${MAX_DECIMAL_INPUT_LENGTH} characters (got ${input.length})`, { field: 'amount', code: 'INVALID_AMOUNT', hint: AMOUNT_HINT });
  }
  let d: Decimal;
  try {
    d = parseDecimalText(input, 'amount');
  } catch (err) {
    throw new ValidationError((err as DecimalError).message, { code: 'INVALID_AMOUNT', hint: AMOUNT_HINT });
  }
  if (d.lte(0)) throw new ValidationError(`must be positive, got '${input}'`, { field: 'amount', code: 'INVALID_AMOUNT' });
  if (d.decimalPlaces() > USDC_DECIMALS) {
    throw new ValidationError(`USDC has ${USDC_DECIMALS} decimals; '${input}' has ${d.decimalPlaces()} (it is not rounded for you)`, { field: 'amount', code: 'INVALID_AMOUNT' });
  }
  const amount = canonical(d);
  if (usdcToBaseUnits(amount) > UINT256_MAX) {
    throw new ValidationError('is larger than a withdrawal can sign (a uint256 of USDC base units)', { field: 'amount', code: 'INVALID_AMOUNT', hint: AMOUNT_HINT });
  }
  return amount;
}
