/**
 * The assistant: answers questions about the user's own positions, orders and fills. Each question goes to
 * the inference API with a compact summary of the account (accountContext.ts) and an instruction to answer
 * from it alone. The assistant is off until an inference API key is set in the keychain: asking without one
 * is AssistantOffError, before anything is read or sent.
 *
 * The model is a setting (`assistant.model`) or an option: model ids are the inference service's live
 * catalogue (GET /v1/models), never built in. Inference failures come out as OperationError
 * `INFERENCE_<KIND>` with the spec's suggested action as the hint and the typed error as the cause; 429 and
 * 502/503 were already retried with backoff by the client.
 */
import type { InferenceClient } from '../../api/companion/inferenceClient.js';
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
    const completion = await withCompanionFailures(() =>
      this.options.inference.chat(apiKey, {
        model,
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: `Account summary (JSON): ${context.text}\n\nQuestion: ${question}` },
        ],
        ...(this.options.maxTokens !== undefined ? { max_tokens: this.options.maxTokens } : {}),
      }),
    );
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
