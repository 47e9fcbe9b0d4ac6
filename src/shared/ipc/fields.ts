/** Field schemas the IPC contract files share (decimal strings, addresses, ids, Unix ms). Not re-exported from the index. */
import { z } from 'zod';
import { addressSchema, decimalOut } from '../fieldSchemas.js';

export const dec = decimalOut;
export const address = addressSchema;
export const hex32 = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'expected 32 bytes of hex');
export const unixMs = z.number().int().nonnegative();
export const id = z.string().min(1).max(128);
export const opaqueId = z.string().min(1).max(64);
export const empty = z.strictObject({});
