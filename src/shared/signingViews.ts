/**
 * How typed data is shown to a person before it is signed: every member as signed (uint256 values as
 * decimal strings, bools as booleans), with its domain and types. Used by every review (orders, keys,
 * withdrawals) on both front ends.
 */
import { z } from 'zod';
import type { TypedData } from './eip712/index.js';

export const TypedDataViewSchema = z.object({
  domain: z.object({ name: z.string(), version: z.string(), chainId: z.number().int() }),
  primaryType: z.string(),
  types: z.record(z.string(), z.array(z.object({ name: z.string(), type: z.string() }))),
  /** Every member as signed: uint256 values as decimal strings, bools as booleans. */
  message: z.record(z.string(), z.union([z.string(), z.boolean()])),
});
export type TypedDataView = z.infer<typeof TypedDataViewSchema>;

export function typedDataView(data: TypedData): TypedDataView {
  const message: Record<string, string | boolean> = {};
  for (const [k, v] of Object.entries(data.message as Record<string, unknown>)) {
    message[k] = typeof v === 'boolean' ? v : String(v);
  }
  const types: Record<string, { name: string; type: string }[]> = {};
  for (const [k, fields] of Object.entries(data.types as Record<string, readonly { name: string; type: string }[]>)) {
    types[k] = fields.map((f) => ({ name: f.name, type: f.type }));
  }
  return { domain: { name: data.domain.name, version: data.domain.version, chainId: data.domain.chainId }, primaryType: data.primaryType, types, message };
}
