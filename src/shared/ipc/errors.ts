/** Errors and results as they cross IPC: typed values inside IpcResult, never thrown Errors (Electron rewrites their text). */
import { z } from 'zod';
import { ERROR_KINDS, type ErrorKind } from '../errorKinds.js';

/** An error as it crosses IPC: a stable code, a message for people, and an optional hint (what to do). */
export interface IpcError {
  code: string;
  /** What kind of failure (src/shared/errorKinds.ts): whether fixing the input or trying again can help. */
  kind?: ErrorKind;
  message: string;
  hint?: string;
  /** The input field that was refused, when one was. */
  field?: string;
  /** For code VALIDATION: the specific rule that refused the input (UNKNOWN_MARKET, INSUFFICIENT_BALANCE, ...). */
  reason?: string;
  /** HTTP status, when the service answered with one. */
  status?: number;
}

export const IpcErrorSchema = z.object({
  code: z.string(),
  kind: z.enum(ERROR_KINDS).optional(),
  message: z.string(),
  hint: z.string().optional(),
  field: z.string().optional(),
  reason: z.string().optional(),
  status: z.number().int().optional(),
});

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError };

/**
 * Error codes the boundary itself produces (services add their own: VALIDATION, the service's codes such
 * as FORBIDDEN or INVALID_SIGNATURE, keychain codes such as KEYCHAIN_LOCKED, Ledger codes such as
 * DEVICE_LOCKED, ...).
 */
export const BOUNDARY_ERROR_CODES = {
  /** The request did not match the channel's schema; nothing ran. */
  INVALID_PAYLOAD: 'INVALID_PAYLOAD',
  /** The request came from a frame that is not the app. */
  UNTRUSTED_SENDER: 'UNTRUSTED_SENDER',
  /** No main wallet is chosen yet (onboarding not done). */
  NO_WALLET: 'NO_WALLET',
  /** The main wallet is known but its signer is not connected this session (custody actions need it). */
  SIGNER_NOT_CONNECTED: 'SIGNER_NOT_CONNECTED',
  /** The review/preview id is unknown or expired: preview again. */
  REVIEW_EXPIRED: 'REVIEW_EXPIRED',
  /** What the service asked to sign differs from what was reviewed; nothing was signed. */
  REVIEW_MISMATCH: 'REVIEW_MISMATCH',
  /** A sim-only action (the faucet) on another profile. */
  NOT_SIM_PROFILE: 'NOT_SIM_PROFILE',
  /** The app core is switching profiles or shutting down. */
  NOT_READY: 'NOT_READY',
  /** Anything unexpected; the message is generic and the detail is in main's log. */
  INTERNAL: 'INTERNAL',
} as const;
