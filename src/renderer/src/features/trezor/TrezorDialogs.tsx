/**
 * The person's side of the Trezor while it works: the Model One's PIN on a blank matrix (the device
 * shows the digits scrambled; here only positions are clicked or typed, 7 8 9 / 4 5 6 / 1 2 3 as on a
 * numeric keypad, so the digits never pass through the computer), the passphrase (typed here or on the
 * device), and "Confirm on your Trezor" with what the device shows. Cancel tells the device to stop.
 */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { TrezorPrompt } from '../../../../shared/ipc';
import { PIN_MATRIX_ROWS, trezorScreenText } from '../../../../shared/trezorText';
import { perps, unwrap } from '../../ipc/client';
import { setTrezorPrompt, useTrezorPrompt } from '../../ipc/trezorPrompt';
import { Button } from '../../ui/Button';
import { Dialog } from '../../ui/Dialog';
import { TextField } from '../../ui/Field';
import { ErrorLine, Spinner } from '../../ui/States';

/** The longest PIN a Trezor takes (positions, like digits). */
const MAX_PIN = 50;

export function TrezorDialogs() {
  const prompt = useTrezorPrompt();
  if (!prompt) return null;
  if (prompt.kind === 'pin') return <PinMatrixDialog key={prompt.prompt_id} prompt={prompt} />;
  if (prompt.kind === 'passphrase') return <PassphraseDialog key={prompt.prompt_id} prompt={prompt} />;
  return <ConfirmOnDeviceDialog key={prompt.prompt_id} prompt={prompt} />;
}

function useCancel() {
  return useMutation({ mutationFn: () => unwrap(perps().trezor.cancel({})) });
}

function PinMatrixDialog({ prompt }: { prompt: TrezorPrompt }) {
  const [positions, setPositions] = useState('');
  const cancel = useCancel();
  const submit = useMutation({
    mutationFn: (p: string) => unwrap(perps().trezor.answerPin({ prompt_id: prompt.prompt_id, positions: p })),
    onSuccess: () => setTrezorPrompt(null),
  });
  const add = (p: string) => setPositions((s) => (s.length < MAX_PIN ? s + p : s));
  const busy = submit.isPending || cancel.isPending;
  // Enter submits from anywhere in the dialog (on a focused cell it would otherwise add that position).
  const submitNow = useRef(() => undefined as void);
  submitNow.current = () => {
    if (positions !== '' && !busy) submit.mutate(positions);
  };
  useEffect(() => {
    // Digits on the keyboard (the numeric keypad's layout is the matrix's) are positions, not the PIN's digits.
    const onKey = (e: KeyboardEvent) => {
      if (/^[1-9]$/.test(e.key)) {
        e.preventDefault();
        add(e.key);
      } else if (e.key === 'Backspace') {
        e.preventDefault();
        setPositions((s) => s.slice(0, -1));
      } else if (e.key === 'Enter') {
        e.preventDefault();
        submitNow.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <Dialog open title={`Enter the PIN of your ${prompt.model}`} onClose={() => cancel.mutate()} width={420} locked={busy}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          if (positions !== '') submit.mutate(positions);
        }}
      >
        <p className="muted">
          Your Trezor shows the digits 1–9 scrambled on a 3×3 grid. Click the same place on this blank grid for each digit of your PIN (or
          type it on the numeric keypad, whose layout matches). The app only learns positions, never your PIN.
        </p>
        <div className="pin-matrix" role="group" aria-label="PIN matrix">
          {PIN_MATRIX_ROWS.flat().map((p) => (
            <button key={p} type="button" className="pin-cell" aria-label={`Position ${p}`} onClick={() => add(p)} disabled={busy}>
              •
            </button>
          ))}
        </div>
        <div className="pin-entered row" aria-live="polite">
          <output aria-label="Positions entered">{positions === '' ? <span className="faint">No positions entered</span> : '●'.repeat(positions.length)}</output>
          <Button size="sm" variant="ghost" onClick={() => setPositions((s) => s.slice(0, -1))} disabled={positions === '' || busy} aria-label="Delete the last position">
            ⌫ Backspace
          </Button>
        </div>
        {(submit.error || cancel.error) && <ErrorLine error={submit.error ?? cancel.error} />}
        <div className="actions">
          <Button variant="ghost" onClick={() => cancel.mutate()} busy={cancel.isPending}>
            Cancel on Trezor
          </Button>
          <Button type="submit" variant="primary" disabled={positions === ''} busy={submit.isPending}>
            Unlock
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function PassphraseDialog({ prompt }: { prompt: TrezorPrompt }) {
  const [passphrase, setPassphrase] = useState('');
  const cancel = useCancel();
  const answer = useMutation({
    mutationFn: (onDevice: boolean) =>
      unwrap(perps().trezor.answerPassphrase(onDevice ? { prompt_id: prompt.prompt_id, on_device: true } : { prompt_id: prompt.prompt_id, passphrase })),
    onSuccess: () => {
      setPassphrase('');
      setTrezorPrompt(null);
    },
  });
  return (
    <Dialog open title={`Passphrase for your ${prompt.model}`} onClose={() => cancel.mutate()} width={460} locked={answer.isPending}>
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          answer.mutate(false);
        }}
      >
        <p className="muted">Your Trezor uses a passphrase. Leave it empty for the standard wallet. It goes to the device only; the app never stores it.</p>
        <TextField label="Passphrase" type="password" value={passphrase} maxLength={50} onChange={(e) => setPassphrase(e.target.value)} autoFocus autoComplete="off" />
        {(answer.error || cancel.error) && <ErrorLine error={answer.error ?? cancel.error} />}
        <div className="actions">
          <Button variant="ghost" onClick={() => cancel.mutate()} busy={cancel.isPending}>
            Cancel on Trezor
          </Button>
          {prompt.passphrase_on_device && (
            <Button onClick={() => answer.mutate(true)} busy={answer.isPending && answer.variables === true}>
              Enter on device
            </Button>
          )}
          <Button type="submit" variant="primary" busy={answer.isPending && answer.variables === false}>
            Open wallet
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function ConfirmOnDeviceDialog({ prompt }: { prompt: TrezorPrompt }) {
  const cancel = useCancel();
  return (
    <Dialog open title="Confirm on your Trezor" onClose={() => cancel.mutate()} width={480} locked={cancel.isPending}>
      <div className="stack">
        <div className="row trezor-waiting">
          <Spinner size={18} />
          <strong>{prompt.model}</strong>
        </div>
        <p>{trezorScreenText(prompt.screen?.name ?? null)}</p>
        {cancel.error && <ErrorLine error={cancel.error} />}
        <div className="actions">
          <Button variant="ghost" onClick={() => cancel.mutate()} busy={cancel.isPending}>
            Cancel on Trezor
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
