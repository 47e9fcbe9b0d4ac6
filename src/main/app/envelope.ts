/** Reads the simulator control API's envelope ({success, data} or {success: false, error}). */
import { OperationError } from '../services/errors.js';

export function parseEnvelope(status: number, text: string, what: string): unknown {
  let json: { success?: unknown; data?: unknown; error?: { code?: unknown; message?: unknown } };
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    throw new OperationError('BAD_RESPONSE', `${what}: HTTP ${status}: the answer is not JSON`);
  }
  if (status !== 200 || json.success !== true) {
    const code = typeof json.error?.code === 'string' ? json.error.code : `HTTP_${status}`;
    const message = typeof json.error?.message === 'string' ? json.error.message : 'refused';
    throw new OperationError(code, `${what}: ${message}`, { status });
  }
  return json.data;
}
