/**
 * Request validation: zod failures become 400 INVALID_REQUEST whose message names the field
 * ("orders[0].client_order_id: is required").
 */
import type { z } from 'zod';
import { formatPath } from '../../shared/protocol/envelope.js';
import type { SimRequest } from '../runtime/http.js';
import { invalidRequest } from './response.js';

type Issue = z.core.$ZodIssue;

function describe(issue: Issue): string {
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return 'is required';
  return issue.message;
}

/** The first issue, as "path: message". */
export function issueMessage(error: z.ZodError, prefix: readonly PropertyKey[] = []): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid request';
  return `${formatPath([...prefix, ...issue.path])}: ${describe(issue)}`;
}

export function parseOr400<S extends z.ZodType>(schema: S, value: unknown, prefix: readonly PropertyKey[] = []): z.infer<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw invalidRequest(issueMessage(r.error, prefix));
  return r.data;
}

/** The JSON body of a write, which must be an object. */
export function jsonBody(req: SimRequest): Record<string, unknown> {
  if (req.bodyError) throw invalidRequest(`body: ${req.bodyError}`);
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) throw invalidRequest('body: expected a JSON object');
  return req.body as Record<string, unknown>;
}
