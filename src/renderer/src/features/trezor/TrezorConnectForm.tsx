/**
 * Connecting a Trezor as the main wallet: choose the account (Trezor Suite's is the BIP 44 standard,
 * m/44'/60'/0'/0/N), then the device asks for what it needs (PIN, passphrase: TrezorDialogs) and shows
 * the address to confirm. Only the path and the address are remembered.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { WalletView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { ErrorLine } from '../../ui/States';

type Scheme = 'bip44' | 'ledger-live' | 'legacy';

const SCHEMES: { scheme: Scheme; label: string; path: (n: number) => string }[] = [
  { scheme: 'bip44', label: "Trezor Suite / BIP 44 — m/44'/60'/0'/0/N", path: (n) => `m/44'/60'/0'/0/${n}` },
  { scheme: 'ledger-live', label: "Ledger Live — m/44'/60'/N'/0/0", path: (n) => `m/44'/60'/${n}'/0/0` },
  { scheme: 'legacy', label: "Legacy (MEW / MyCrypto) — m/44'/60'/0'/N", path: (n) => `m/44'/60'/0'/${n}` },
];

export function TrezorConnectForm({ onDone }: { onDone: (w: WalletView) => void }) {
  const [scheme, setScheme] = useState<Scheme>('bip44');
  const [index, setIndex] = useState('0');
  const valid = /^\d{1,9}$/.test(index) && Number(index) < 0x80000000;
  const path = valid ? SCHEMES.find((s) => s.scheme === scheme)!.path(Number(index)) : null;
  const connect = useMutation({ mutationFn: (p: string) => unwrap(perps().trezor.connect({ path: p })), onSuccess: onDone });
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        if (path) connect.mutate(path);
      }}
    >
      <p className="muted">
        Plug in your Trezor (Model T, Safe 3 or Safe 5 show every field of what you sign; the Model One signs two hashes you compare). Close
        Trezor Suite first, or leave Trezor Bridge running: the app uses it when it is there.
      </p>
      <div className="grid2">
        <SelectField label="Derivation path" value={scheme} onChange={(e) => setScheme(e.target.value as Scheme)} options={SCHEMES.map((s) => ({ value: s.scheme, label: s.label }))} />
        <TextField label="Account number (N)" inputMode="numeric" value={index} onChange={(e) => setIndex(e.target.value.trim())} error={valid ? undefined : 'A whole number from 0'} />
      </div>
      {path && (
        <p className="muted">
          Path <span className="num">{path}</span>
        </p>
      )}
      {connect.isPending && <p className="notice notice-info">Follow your Trezor: unlock it and confirm the address it shows.</p>}
      {connect.error && <ErrorLine error={connect.error} />}
      <div className="actions">
        <Button type="submit" variant="primary" disabled={!path} busy={connect.isPending}>
          Connect Trezor
        </Button>
      </div>
    </form>
  );
}
