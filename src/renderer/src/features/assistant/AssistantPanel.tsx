/**
 * The assistant side panel: off until an inference API key is stored (in the OS keychain, by main); then a
 * model picker, a question box and the answers, each with its token usage and the account context main
 * gave the model (positions, open orders, fills). Answers last for the session, across closing the panel.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, useSyncExternalStore } from 'react';
import type { AssistantAnswerView, AssistantStatus } from '../../../../shared/ipc';
import { setUi } from '../../app/uiStore';
import { perps, unwrap } from '../../ipc/client';
import { cqk, useAssistantModels, useAssistantStatus } from '../../ipc/companionQueries';
import { fieldError } from '../../lib/fieldErrors';
import { fmtTime } from '../../lib/time';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { SelectField, TextAreaField, TextField } from '../../ui/Field';
import { ErrorLine, ErrorState, Loading } from '../../ui/States';
import { pushToast } from '../../ui/toast';

interface Exchange {
  id: number;
  question: string;
  at: number;
  answer: AssistantAnswerView;
}

// The session's answers, newest first, outside React so they survive the panel closing.
let exchanges: Exchange[] = [];
let nextId = 1;
const subs = new Set<() => void>();
const notify = () => subs.forEach((f) => f());
function addExchange(e: Omit<Exchange, 'id'>): void {
  exchanges = [{ ...e, id: nextId++ }, ...exchanges].slice(0, 50);
  notify();
}
function clearExchanges(): void {
  exchanges = [];
  notify();
}
/** Why an answer ended early; `length` is the assistant's own answer-length cap (main sends max_tokens), not an error. */
function stopNote(reason: string): string {
  return reason === 'length' ? 'cut at the assistant’s answer length' : `stopped: ${reason}`;
}

function useExchanges(): Exchange[] {
  return useSyncExternalStore(
    (f) => {
      subs.add(f);
      return () => subs.delete(f);
    },
    () => exchanges,
  );
}

export function AssistantPanel({ id }: { id: string }) {
  const status = useAssistantStatus();
  return (
    <aside className="assistant" id={id} aria-label="Assistant">
      <header className="assistant-head">
        <h2>Assistant</h2>
        {status.data?.enabled && <span className="faint assistant-model">{status.data.model ?? 'no model chosen'}</span>}
        <button type="button" className="dialog-x" aria-label="Close assistant" onClick={() => setUi({ assistantOpen: false })}>
          ×
        </button>
      </header>
      <div className="assistant-body">
        {status.isPending && <Loading label="Checking the assistant" />}
        {status.error && <ErrorState error={status.error} title="Could not read the assistant’s status" onRetry={() => void status.refetch()} compact />}
        {status.data && (status.data.enabled ? <AssistantOn status={status.data} /> : <KeyForm />)}
      </div>
    </aside>
  );
}

function KeyForm() {
  const client = useQueryClient();
  const [key, setKey] = useState('');
  const setKeyMutation = useMutation({
    mutationFn: (api_key: string) => unwrap(perps().assistant.setKey({ api_key })),
    onSuccess: (s) => {
      setKey('');
      client.setQueryData(cqk.assistantStatus, s);
      void client.invalidateQueries({ queryKey: cqk.assistantModels });
      pushToast({ tone: 'success', title: 'Assistant on', body: 'The key is in your OS keychain.' });
    },
  });
  const k = key.trim();
  const tooShort = k !== '' && k.length < 8 ? 'At least 8 characters' : undefined;
  return (
    <form
      className="stack"
      aria-label="Turn on the assistant"
      onSubmit={(e) => {
        e.preventDefault();
        if (k.length >= 8) setKeyMutation.mutate(k);
      }}
    >
      <p className="notice notice-info">
        The assistant is off. It answers questions about your account (positions, open orders, recent fills) through an inference service, with your own API key.
      </p>
      <TextField
        label="Inference API key"
        type="password"
        value={key}
        onChange={(e) => setKey(e.target.value)}
        placeholder="sk-…"
        error={tooShort ?? fieldError(setKeyMutation.error, ['api_key', 'key'])}
        hint="Stored in your operating system’s keychain, never in a file; it is not shown again."
      />
      {setKeyMutation.error && !fieldError(setKeyMutation.error, ['api_key', 'key']) && <ErrorLine error={setKeyMutation.error} />}
      <div className="actions">
        <Button type="submit" variant="primary" disabled={k.length < 8} busy={setKeyMutation.isPending}>
          Save key and turn on
        </Button>
      </div>
    </form>
  );
}

function AssistantOn({ status }: { status: AssistantStatus }) {
  const client = useQueryClient();
  const models = useAssistantModels(true);
  const list = useExchanges();
  const [question, setQuestion] = useState('');
  const [confirmRemove, setConfirmRemove] = useState(false);

  const setModel = useMutation({
    mutationFn: (model: string) => unwrap(perps().assistant.setModel({ model })),
    onSuccess: (s) => client.setQueryData(cqk.assistantStatus, s),
  });
  const ask = useMutation({
    mutationFn: (q: string) => unwrap(perps().assistant.ask({ question: q })),
    onSuccess: (answer, q) => {
      addExchange({ question: q, at: Date.now(), answer });
      setQuestion('');
    },
  });
  const clearKey = useMutation({
    mutationFn: () => unwrap(perps().assistant.clearKey()),
    onSuccess: (s) => {
      setConfirmRemove(false);
      clearExchanges();
      client.setQueryData(cqk.assistantStatus, s);
      client.removeQueries({ queryKey: cqk.assistantModels });
      pushToast({ tone: 'info', title: 'Assistant off', body: 'The key was removed from your OS keychain.' });
    },
  });

  const q = question.trim();
  const modelOptions = [
    ...(status.model === null ? [{ value: '', label: 'Choose a model' }] : []),
    ...[...new Set([...(models.data?.models ?? []), ...(status.model ? [status.model] : [])])].map((m) => ({ value: m, label: m })),
  ];
  const submit = () => {
    if (q && !ask.isPending) ask.mutate(q);
  };

  return (
    <div className="stack">
      <SelectField
        label="Model"
        value={status.model ?? ''}
        disabled={models.isPending || setModel.isPending}
        onChange={(e) => e.target.value && setModel.mutate(e.target.value)}
        options={modelOptions}
        hint={models.isPending ? 'Loading models…' : status.inference_url ? `Service: ${status.inference_url}` : undefined}
        error={fieldError(setModel.error, ['model'])}
      />
      {models.error && <ErrorLine error={models.error} />}
      {setModel.error && !fieldError(setModel.error, ['model']) && <ErrorLine error={setModel.error} />}
      <form
        className="stack"
        aria-label="Ask the assistant"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <TextAreaField
          label="Question"
          rows={3}
          value={question}
          maxLength={2000}
          placeholder="e.g. Which of my positions is closest to liquidation?"
          onChange={(e) => setQuestion(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault();
              submit();
            }
          }}
          hint="Ctrl+Enter to ask. Your positions, open orders and recent fills are sent with the question."
          error={fieldError(ask.error, ['question'])}
        />
        {ask.error && !fieldError(ask.error, ['question']) && <ErrorLine error={ask.error} />}
        <div className="actions">
          <Button type="submit" variant="primary" disabled={!q || status.model === null} busy={ask.isPending}>
            Ask
          </Button>
        </div>
      </form>
      {ask.isPending && (
        <div className="answer answer-pending">
          <p className="answer-q">{ask.variables}</p>
          <Loading label="Thinking" />
        </div>
      )}
      <ol className="answers" aria-label="Answers">
        {list.map((x) => (
          <li key={x.id} className="answer">
            <p className="answer-q">{x.question}</p>
            <div className="answer-a">{x.answer.answer}</div>
            <p className="answer-meta">
              {fmtTime(x.at)} · {x.answer.model}
              {x.answer.prompt_tokens !== null || x.answer.completion_tokens !== null ? ` · ${x.answer.prompt_tokens ?? '?'} prompt + ${x.answer.completion_tokens ?? '?'} completion tokens` : ''}
              {x.answer.finish_reason && x.answer.finish_reason !== 'stop' ? ` · ${stopNote(x.answer.finish_reason)}` : ''}
            </p>
            <p className="answer-meta">
              Context: {x.answer.context.positions} {x.answer.context.positions === 1 ? 'position' : 'positions'}, {x.answer.context.open_orders} open {x.answer.context.open_orders === 1 ? 'order' : 'orders'},{' '}
              {x.answer.context.fills} {x.answer.context.fills === 1 ? 'fill' : 'fills'}
            </p>
          </li>
        ))}
      </ol>
      <div className="assistant-foot">
        <span className="faint">The answers come from a language model: check them before acting.</span>
        <Button size="sm" variant="danger" onClick={() => setConfirmRemove(true)}>
          Remove key
        </Button>
      </div>
      <Dialog
        open={confirmRemove}
        title="Remove the inference key?"
        tone="danger"
        onClose={() => setConfirmRemove(false)}
        locked={clearKey.isPending}
        footer={
          <>
            <Button variant="ghost" onClick={() => setConfirmRemove(false)} disabled={clearKey.isPending}>
              Cancel
            </Button>
            <Button variant="danger" busy={clearKey.isPending} onClick={() => clearKey.mutate()}>
              Remove key
            </Button>
          </>
        }
      >
        <p>The key is deleted from your OS keychain and the assistant turns off. This session’s answers are cleared.</p>
        {clearKey.error && <ErrorLine error={clearKey.error} />}
      </Dialog>
    </div>
  );
}
