/**
 * Chat-completion request validation, token counting and the deterministic reply.
 *
 * Sim choices: tokens are counted as ceil(characters / 4) per text part plus 4 per message and 3 per
 * request (the usual rule of thumb), 85 per image; the reply is derived from a hash of the messages so the
 * same request always gets the same content; streaming is not offered (400 invalid_request).
 */
import { createHash } from 'node:crypto';
import type { InferenceModelConfig } from '../config.js';
import { fail } from './errors.js';

export interface ChatRequest {
  model: InferenceModelConfig;
  promptTokens: number;
  /** The max_tokens used for the balance reservation (the request's, else the model's default). */
  maxTokens: number;
  /** Deterministic reply before truncation to maxTokens. */
  reply: string;
}

const ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool']);
const IMAGE_TOKENS = 85;

export function tokensOf(text: string): number {
  return Math.ceil(text.length / 4);
}

function positiveInt(v: unknown, name: string, max: number): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) fail(400, 'invalid_request', `${name} must be a positive integer`);
  if (v > max) fail(400, 'invalid_request', `${name} must be at most ${max} for this model`);
  return v;
}

function numberIn(v: unknown, name: string, lo: number, hi: number): void {
  if (v === undefined || v === null) return;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) fail(400, 'invalid_request', `${name} must be a number between ${lo} and ${hi}`);
}

/** Validates the body (already known to be a JSON object with a known model) and measures the prompt. */
export function parseChat(body: Record<string, unknown>, model: InferenceModelConfig, maxMessages: number): ChatRequest {
  if (model.kind !== 'chat') fail(400, 'invalid_request', `model ${model.id} does not support chat completions`);
  const messages = body.messages;
  if (messages === undefined) fail(400, 'invalid_request', 'missing required parameter: messages');
  if (!Array.isArray(messages) || messages.length === 0) fail(400, 'invalid_request', 'messages must be a non-empty array');
  if (messages.length > maxMessages) fail(400, 'invalid_request', `too many messages: at most ${maxMessages}`);
  let promptTokens = 3;
  let lastUser = '';
  messages.forEach((m: unknown, i) => {
    if (typeof m !== 'object' || m === null || Array.isArray(m)) fail(400, 'invalid_request', `messages[${i}] must be an object`);
    const msg = m as Record<string, unknown>;
    if (typeof msg.role !== 'string' || !ROLES.has(msg.role)) fail(400, 'invalid_request', `messages[${i}].role must be one of ${[...ROLES].join(', ')}`);
    promptTokens += 4;
    const text = contentText(msg.content, i, model);
    promptTokens += text.tokens;
    if (msg.role === 'user') lastUser = text.text;
  });
  if (body.stream === true) fail(400, 'invalid_request', 'stream is not supported by this endpoint of the simulator; send stream: false');
  if (body.n !== undefined && body.n !== 1) fail(400, 'invalid_request', 'n: only 1 choice per request is supported');
  numberIn(body.temperature, 'temperature', 0, 2);
  numberIn(body.top_p, 'top_p', 0, 1);
  const rawMax = body.max_tokens ?? body.max_completion_tokens;
  const maxTokens = rawMax === undefined || rawMax === null ? model.defaultMaxTokens : positiveInt(rawMax, body.max_tokens !== undefined ? 'max_tokens' : 'max_completion_tokens', model.maxOutputTokens);
  // The model itself refuses a prompt that cannot fit with its completion in the context window.
  if (promptTokens + maxTokens > model.contextTokens) fail(400, 'invalid_request', `the prompt (${promptTokens} tokens) plus max_tokens (${maxTokens}) exceeds the context of ${model.id} (${model.contextTokens} tokens)`);
  const digest = createHash('sha256').update(JSON.stringify(messages)).digest('hex').slice(0, 12);
  const quoted = lastUser.length > 160 ? `${lastUser.slice(0, 160)}...` : lastUser;
  const reply = `Simulated reply ${digest} from ${model.id}. You said: "${quoted}". This text is generated deterministically by the Perps Desk simulator.`;
  return { model, promptTokens, maxTokens, reply };
}

function contentText(content: unknown, i: number, model: InferenceModelConfig): { text: string; tokens: number } {
  if (typeof content === 'string') return { text: content, tokens: tokensOf(content) };
  if (!Array.isArray(content)) fail(400, 'invalid_request', `messages[${i}].content must be a string or an array of content parts`);
  let text = '';
  let tokens = 0;
  content.forEach((part: unknown, j) => {
    if (typeof part !== 'object' || part === null) fail(400, 'invalid_request', `messages[${i}].content[${j}] must be an object`);
    const p = part as Record<string, unknown>;
    if (p.type === 'text') {
      if (typeof p.text !== 'string') fail(400, 'invalid_request', `messages[${i}].content[${j}].text must be a string`);
      text += p.text;
      tokens += tokensOf(p.text);
    } else if (p.type === 'image_url') {
      if (!model.vision) fail(400, 'invalid_request', `model ${model.id} does not support image input`);
      const url = (p.image_url as Record<string, unknown> | undefined)?.url;
      if (typeof url !== 'string' || url === '') fail(400, 'invalid_request', `messages[${i}].content[${j}].image_url.url must be a string`);
      tokens += IMAGE_TOKENS;
    } else {
      fail(400, 'invalid_request', `unsupported content type: ${String(p.type)}`);
    }
  });
  return { text, tokens };
}
