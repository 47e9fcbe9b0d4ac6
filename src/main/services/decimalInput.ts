/**
 * Decimal text a service was given for `field`, read with the one shared grammar: anything else is a
 * ValidationError naming the field (the services' one error type, so a caller and the command line see the
 * same refusal whether it came from the grammar or from a rule after it). Nothing is trimmed or rounded.
 */
import { Decimal, decimalTextProblem, type DecimalTextOptions } from '../../shared/decimal/index.js';
import { ValidationError } from './errors.js';

export function decimalInput(value: unknown, field: string, options: DecimalTextOptions = {}): Decimal {
  const problem = decimalTextProblem(value, options);
  if (problem !== null) throw new ValidationError(problem, { field });
  return new Decimal(value as string);
}
