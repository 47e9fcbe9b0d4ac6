/**
 * The assistant:* channels of one profile: the inference key (kept in the OS keychain, checked with the
 * service before it is stored, never returned or logged), the chat model, and questions about the
 * user's own account, answered from the account reads.
 */
import type { AssistantAnswerView, AssistantStatus } from '../../../shared/ipc.js';
import type { InferenceKeyStore } from '../../services/assistant/apiKeyStore.js';
import type { AccountReads } from '../../services/assistant/accountContext.js';
import { Assistant, AssistantOffError, assistantModel, chatModelIds, setAssistantModel } from '../../services/assistant/assistant.js';
import type { CompanionContext } from '../../services/companion/companionContext.js';
import { withCompanionFailures } from '../../services/companion/companionFailures.js';
import { describeCompanionUrl } from '../../services/companion/companionSettings.js';
import { ValidationError } from '../../services/errors.js';
import type { AppLogger } from '../adapters.js';
import type { WalletSession } from '../wallet.js';

export interface AssistantDeskOptions {
  companion: CompanionContext;
  wallet: WalletSession;
  inferenceKeys: InferenceKeyStore;
  reads: AccountReads;
  logger: AppLogger;
}

export class AssistantDesk {
  constructor(private readonly o: AssistantDeskOptions) {}

  private get c(): CompanionContext {
    return this.o.companion;
  }

  async status(): Promise<AssistantStatus> {
    return {
      enabled: await this.o.inferenceKeys.has(),
      model: assistantModel(this.c.settings),
      inference_url: describeCompanionUrl(this.c.resolveInput, 'inference').url,
    };
  }

  /** Checks the key with the service (GET /v1/models) before storing it: a refused key changes nothing. */
  async setKey(req: { api_key: string }): Promise<AssistantStatus> {
    const key = req.api_key.trim();
    if (key === '' || /\s/.test(key)) throw new ValidationError('an inference API key is one word with no spaces', { field: 'api_key' });
    const models = chatModelIds(await withCompanionFailures(() => this.c.inference.models(key)));
    await this.o.inferenceKeys.set(key);
    this.o.logger.info('[assistant] inference key stored in the OS keychain');
    // The first chat model becomes the model when none was chosen, or when the chosen one is not a chat model
    // of this service (a video model, another service's model), so the panel works right away.
    const current = assistantModel(this.c.settings);
    const first = models[0];
    if (first !== undefined && (current === null || !models.includes(current))) {
      setAssistantModel(this.c.settings, first);
      if (current !== null) this.o.logger.info(`[assistant] model ${current} is not a chat model of the inference service; using ${first}`);
    }
    return this.status();
  }

  async clearKey(): Promise<AssistantStatus> {
    await this.o.inferenceKeys.clear();
    this.o.logger.info('[assistant] inference key removed from the OS keychain');
    return this.status();
  }

  async models(): Promise<{ models: string[] }> {
    const key = await this.o.inferenceKeys.read();
    if (key === null) throw new AssistantOffError();
    const list = await withCompanionFailures(() => this.c.inference.models(key));
    // Chat models only: the assistant asks chat completions, which any other kind refuses.
    return { models: chatModelIds(list) };
  }

  /**
   * With a key set, only a chat model the service lists is accepted: anything else would fail every question.
   * Without a key nothing can be listed, so the id is stored as given; setKey replaces it by the first chat
   * model if the service does not list it as one.
   */
  async setModel(req: { model: string }): Promise<AssistantStatus> {
    const key = await this.o.inferenceKeys.read();
    if (key !== null) {
      const models = chatModelIds(await withCompanionFailures(() => this.c.inference.models(key)));
      if (!models.includes(req.model.trim())) {
        throw new ValidationError('is not a chat model of the inference service', { field: 'model', hint: 'Choose one of the models the assistant lists (its chat models, from GET /v1/models).' });
      }
    }
    setAssistantModel(this.c.settings, req.model);
    return this.status();
  }

  async ask(req: { question: string }): Promise<AssistantAnswerView> {
    // Off comes first: without a key, which model is chosen does not matter yet.
    if (!(await this.o.inferenceKeys.has())) throw new AssistantOffError();
    const assistant = new Assistant({ inference: this.c.inference, keys: this.o.inferenceKeys, reads: this.o.reads, settings: this.c.settings });
    const a = await assistant.ask({ wallet: this.o.wallet.requireAddress(), question: req.question });
    return {
      answer: a.answer,
      model: a.model,
      finish_reason: a.finishReason,
      prompt_tokens: a.usage?.promptTokens ?? null,
      completion_tokens: a.usage?.completionTokens ?? null,
      context: { positions: a.context.positions, open_orders: a.context.openOrders, fills: a.context.fills },
    };
  }
}
