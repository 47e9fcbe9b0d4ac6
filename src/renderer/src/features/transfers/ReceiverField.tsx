/**
 * Where a bridge or swap delivers: the connected main wallet by default, or an address on the receiver
 * allowlist. Main refuses any other address (RECEIVER_NOT_ALLOWED); typing one here says so at once and
 * offers to add it in Settings, where main shows its warning and the address must be typed again.
 */
import { useState } from 'react';
import { SelectField, TextField } from '../../ui/Field';
import { ADDRESS, addReceiverInSettings, sameAddress, shortAddress, useReceivers } from './receivers';

const WALLET = 'wallet';
const OTHER = 'other';

/** What the form sends: no receiver (the main wallet), or an allowlisted one; `blocked` while the choice cannot be quoted. */
export interface ReceiverPick {
  receiver: string | undefined;
  blocked: boolean;
}

export function useReceiverChoice(wallet: string | null | undefined) {
  const list = useReceivers();
  const [pick, setPick] = useState(WALLET);
  const [typed, setTyped] = useState('');
  const receivers = list.data?.receivers ?? [];
  const text = typed.trim();
  let value: ReceiverPick;
  let problem: string | undefined;
  let notListed = false;
  if (pick === WALLET) value = { receiver: undefined, blocked: false };
  else if (pick !== OTHER) {
    // An address picked from the list that has since left it (removed in Settings) is not offered any more.
    const listed = receivers.find((r) => sameAddress(r.address, pick));
    value = listed ? { receiver: listed.address, blocked: false } : { receiver: undefined, blocked: true };
    if (!listed && list.data) problem = 'No longer on your receiver allowlist: pick another receiver';
  } else if (text === '') value = { receiver: undefined, blocked: true };
  else if (!ADDRESS.test(text)) {
    value = { receiver: undefined, blocked: true };
    problem = 'An address: 0x followed by 40 hex characters';
  } else if (wallet && sameAddress(text, wallet)) value = { receiver: undefined, blocked: false };
  else {
    const listed = receivers.find((r) => sameAddress(r.address, text));
    notListed = !listed;
    value = listed ? { receiver: listed.address, blocked: false } : { receiver: undefined, blocked: true };
  }
  return { list, receivers, pick, setPick, typed, setTyped, value, problem, notListed, text };
}

export type ReceiverChoice = ReturnType<typeof useReceiverChoice>;

/** The receiver picker: the main wallet, each allowlisted address, or another address (typed below it). */
export function ReceiverSelect({ choice, wallet, error }: { choice: ReceiverChoice; wallet: string | null | undefined; error?: string }) {
  const chosen = choice.receivers.find((r) => r.address === choice.pick);
  const stale = choice.pick !== WALLET && choice.pick !== OTHER && !chosen;
  const options = [
    { value: WALLET, label: wallet ? `Your main wallet · ${shortAddress(wallet)}` : 'Your main wallet' },
    ...choice.receivers.map((r) => ({ value: r.address, label: `${r.label} · ${shortAddress(r.address)}` })),
    ...(stale ? [{ value: choice.pick, label: `${shortAddress(choice.pick)} · no longer allowed`, disabled: true }] : []),
    { value: OTHER, label: 'Another address…' },
  ];
  return (
    <SelectField
      label="Receiver"
      value={choice.pick}
      options={options}
      onChange={(e) => choice.setPick(e.target.value)}
      error={choice.pick !== OTHER ? (choice.problem ?? error) : undefined}
      hint={
        choice.pick === WALLET ? (
          choice.receivers.length === 0 ? 'Your main wallet; add others in Settings › Companion services' : 'The connected main wallet'
        ) : chosen ? (
          <span className="addr">{chosen.address}</span>
        ) : choice.list.error ? (
          'The receiver allowlist could not be read'
        ) : undefined
      }
    />
  );
}

/** With "Another address…": the address field, and why an address not on the allowlist cannot be used here. */
export function ReceiverOther({ choice, error, what }: { choice: ReceiverChoice; error?: string; what: 'bridge' | 'swap' }) {
  if (choice.pick !== OTHER) return null;
  return (
    <>
      <TextField label="Receiver address" value={choice.typed} placeholder="0x…" className="mono-input" onChange={(e) => choice.setTyped(e.target.value)} error={choice.problem ?? error} />
      {choice.notListed && (
        <div className="notice notice-warn" role="status" aria-label="Receiver not allowed">
          This address is not on your receiver allowlist, so the app will not {what} to it. It sends only to your main wallet or to addresses added in Settings › Companion services ›
          Receivers, where you read a warning and type the address again.{' '}
          <button type="button" className="link-btn" onClick={() => addReceiverInSettings(choice.text)}>
            Add it in Settings
          </button>
        </div>
      )}
    </>
  );
}
