/**
 * The assistant: answers questions about the user's own positions, orders and fills. Each question goes to
 * the inference API with a compact summary of the account (accountContext.ts) and an instruction to answer
 * from it alone. The assistant is off until an inference API key is set in the keychain: asking without one
 * is AssistantOffError, before anything is read or sent.
 *
 * The model is a setting (`assistant.model`) or an option: model ids are the inference service's live
 * catalogue (GET /v1/models), never built in, and only its chat models are offered (chatModelIds). Every
 * question asks for at most `maxTokens` of answer (DEFAULT_ASSISTANT_MAX_TOKENS). Inference failures come
 * out as OperationError `INFERENCE_<KIND>` with the spec's suggested action as the hint and the typed error
 * as the cause (a 402's hint is the assistant's own: its user cannot change max_tokens); 429 and 502/503
 * were already retried with backoff by the client.
 */
import type { InferenceClient } from '../../api/companion/inferenceClient.js';
import { InferenceInsufficientBalanceError } from '../../api/companion/inferenceErrors.js';
import type { ModelList } from '../../api/companion/schemas.js';
import type { SettingsStore } from '../../settings/settingsStore.js';
import { withCompanionFailures } from '../companion/companionFailures.js';
import { OperationError, ValidationError } from '../errors.js';
import { buildAccountContext, DEFAULT_CONTEXT_LIMITS, type AccountReads, type ContextLimits } from './accountContext.js';
import type { InferenceKeyStore } from './apiKeyStore.js';

/** The assistant is off: no inference API key is set. Nothing was read or sent. */
export class AssistantOffError extends OperationError {
  constructor() {
    super('ASSISTANT_OFF', 'the assistant is off: no inference API key is set', {
      hint: 'Set an inference API key first (it is kept in the OS keychain only).',
    });
    this.name = 'AssistantOffError';
  }
}

export const ASSISTANT_MODEL_SETTING = 'assistant.model';
export const MAX_QUESTION_CHARS = 2_000;

/**
 * The longest answer the assistant asks for, in tokens (about 750 words), sent as max_tokens on every
 * question. The service reserves prompt plus max_tokens against the balance before it runs (a 402 when it
 * cannot), and one that is given no max_tokens reserves a default of its own, which can be far larger:
 * stating it keeps each question's worst-case cost known and small. An answer about an account summary
 * fits well within it; a longer one ends with finish_reason `length`.
 */
export const DEFAULT_ASSISTANT_MAX_TOKENS = 1_024;

/**
 * The ids of the chat models of a GET /v1/models answer, in its order. The spec gives no shape for a model
 * beyond its id, but a catalogue may serve other kinds (the simulator lists a video model, with `kind`
 * 'video', that refuses chat requests with a 400). A model that states a `kind` is kept only when it is
 * 'chat'; one that states none is kept, since a chat-completions catalogue lists chat models by default and
 * the service would name an unfit one in its own 400.
 */
export function chatModelIds(list: ModelList): string[] {
  return list.data.filter((m) => m['kind'] === undefined || m['kind'] === 'chat').map((m) => m.id);
}

const SYSTEM_PROMPT = [
  'You are the assistant of Perps Desk, a trading terminal for perpetual futures.',
  "Answer the user's question about their own account using only the JSON account summary provided.",
  'Amounts are decimal strings in USDC unless stated; sizes are signed (negative = short).',
  'If the summary does not contain the answer, say so. Do not give investment advice or invent data.',
].join(' ');

export function assistantModel(settings: SettingsStore): string | null {
  const v = settings.get(ASSISTANT_MODEL_SETTING);
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

export function setAssistantModel(settings: SettingsStore, model: string): void {
  const m = model.trim();
  if (m === '' || /\s/.test(m)) throw new ValidationError(`'${model}' is not a model id`, { field: 'model' });
  settings.set(ASSISTANT_MODEL_SETTING, m);
}

export interface AssistantOptions {
  inference: InferenceClient;
  keys: InferenceKeyStore;
  reads: AccountReads;
  /** The model id; else the `assistant.model` setting. */
  model?: string;
  settings?: SettingsStore;
  /** Longest answer asked for, in tokens; default DEFAULT_ASSISTANT_MAX_TOKENS. */
  maxTokens?: number;
  limits?: ContextLimits;
  now?: () => number;
}

export interface AssistantAnswer {
  answer: string;
  model: string;
  /** Why generation stopped (`length` means the answer was cut at max_tokens). */
  finishReason: string | null;
  usage: { promptTokens: number; completionTokens: number } | null;
  context: { positions: number; openOrders: number; fills: number };
}

export class Assistant {
  constructor(private readonly options: AssistantOptions) {}

  /** On when an inference API key is set. */
  isOn(): Promise<boolean> {
    return this.options.keys.has();
  }

  async ask(input: { wallet: string; question: string }): Promise<AssistantAnswer> {
    const question = input.question.trim();
    if (question === '') throw new ValidationError('is empty', { field: 'question' });
    if (question.length > MAX_QUESTION_CHARS) throw new ValidationError(`is longer than ${MAX_QUESTION_CHARS} characters`, { field: 'question' });
    const model = this.options.model ?? (this.options.settings ? assistantModel(this.options.settings) : null);
    if (model === null) {
      throw new ValidationError('no assistant model is chosen', { field: 'model', hint: `Choose one of the inference service's models (GET /v1/models) and store it as ${ASSISTANT_MODEL_SETTING}.` });
    }
    const apiKey = await this.options.keys.read();
    if (apiKey === null) throw new AssistantOffError();
    const context = await buildAccountContext(this.options.reads, input.wallet, this.options.limits ?? DEFAULT_CONTEXT_LIMITS, (this.options.now ?? Date.now)());
    const maxTokens = this.options.maxTokens ?? DEFAULT_ASSISTANT_MAX_TOKENS;
    const completion = await withCompanionFailures(() =>
      this.options.inference.chat(apiKey, {
        model,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: `Account summary (JSON): ${context.text}\n\nQuestion: ${question}` },
        ],
        max_tokens: maxTokens,
      }),
    ).catch((err: unknown) => {
      throw withBalanceHint(err, maxTokens);
    });
    const choice = completion.choices[0];
    return {
      answer: choice?.message.content ?? '',
      model: completion.model,
      finishReason: choice?.finish_reason ?? null,
      usage: completion.usage ? { promptTokens: completion.usage.prompt_tokens, completionTokens: completion.usage.completion_tokens } : null,
      context: { positions: context.counts.positions, openOrders: context.counts.openOrders, fills: context.counts.fills },
    };
  }
}

/**
 * A 402 with a hint the assistant's user can act on. The spec's action is "deposit or lower max_tokens",
 * but max_tokens is the assistant's (not a field of the app), so the hint says what a question reserves and
 * leaves the deposit as the action. Anything else passes through unchanged.
 */
function withBalanceHint(err: unknown, maxTokens: number): unknown {
  if (!(err instanceof OperationError) || !(err.cause instanceof InferenceInsufficientBalanceError)) return err;
  return new OperationError(err.code, err.message, {
    cause: err.cause,
    ...(err.status !== undefined ? { status: err.status } : {}),
    ...(err.details !== undefined ? { details: err.details } : {}),
    hint:
      `Deposit to your inference account: each question reserves the cost of its prompt (your question and the account summary) ` +
      `plus the assistant's longest answer, ${maxTokens} tokens, before it runs.`,
  });
}
