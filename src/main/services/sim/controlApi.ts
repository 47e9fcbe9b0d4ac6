/**
 * The simulator's control API (/sim) as the app and the command line reach it: only on the simulator
 * profile, with JSON writes and no Origin, which is what its local-only guard (src/sim/control/
 * localOnly.ts) lets through. It is the simulator's own door (never part of the service), so it sits
 * apart from the trading API client; its answers use the same envelope.
 */
import type { FetchFn } from '../../api/http.js';
import { SIM_PATHS, type Profile } from '../../profiles/profiles.js';
import { OperationError, ValidationError } from '../errors.js';

/** Where the control API is and how to reach it (the app knows its simulator's URL; the CLI derives it). */
export interface SimControlTransport {
  /** Root of the control API (…/sim); default: the profile's origin + /sim. */
  controlUrl?: string | undefined;
  /** Default: the global fetch. */
  fetch?: FetchFn | undefined;
}

const CONTROL_TIMEOUT_MS = 10_000;

/** Refuses, before anything is created or sent, an action that exists only on the simulator. */
export function requireSimProfile(profile: Pick<Profile, 'name'>, what: string): void {
  if (profile.name !== 'sim') {
    throw new ValidationError(`${what} exists only on the simulator profile, not on '${profile.name}'; nothing was created or sent`, {
      field: 'profile',
      code: 'NOT_SIM_PROFILE',
      hint: 'Run it with --profile sim (the default). On mainnet, fund the account by a venue spot transfer to the deposit address (`perps config`).',
    });
  }
}

/** The control API root of a simulator profile: its trading API's origin + /sim. */
export function simControlUrl(profile: Pick<Profile, 'baseUrl'>): string {
  return new URL(profile.baseUrl).origin + SIM_PATHS.control;
}

/** POSTs a JSON body to a control route and returns the envelope's data; a refusal is an OperationError. */
export async function postSimControl(transport: Required<SimControlTransport>, route: string, body: unknown): Promise<unknown> {
  const url = `${transport.controlUrl.replace(/\/+$/, '')}${route}`;
  const what = `POST /sim${route}`;
  let status: number;
  let text: string;
  try {
    const res = await transport.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CONTROL_TIMEOUT_MS),
    });
    status = res.status;
    text = await res.text();
  } catch (err) {
    throw new OperationError('SIM_UNREACHABLE', `${what}: the simulator's control API at ${transport.controlUrl} did not answer (${(err as Error).message})`, {
      kind: 'transient',
      cause: err,
      hint: 'Start the simulator with `perps sim` (or point --base-url at a running one).',
    });
  }
  return parseEnvelope(status, text, what);
}

/** Reads the control API's envelope ({success, data} or {success: false, error}). */
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
