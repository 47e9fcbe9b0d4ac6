/**
 * Connecting the main wallet's custody signer: a keystore file (the file path never leaves main; main
 * hands back an opaque token), a Ledger, a Trezor, an offline signer, or (automation) a key in an environment
 * variable. Used by onboarding, and again wherever a custody action needs the signer reconnected.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { IpcResponse, WalletView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { qk } from '../../ipc/queries';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { Segmented } from '../../ui/Segmented';
import { EmptyState, ErrorLine } from '../../ui/States';
import { TrezorConnectForm } from '../trezor/TrezorConnectForm';

type Method = 'keystore' | 'ledger' | 'trezor' | 'offline' | 'env';
type Scheme = 'ledger-live' | 'legacy' | 'bip44';

/** The derivation schemes the contract offers (mirrors LEDGER_SCHEMES; kept here to keep zod out of the bundle). */
const SCHEMES: { scheme: Scheme; label: string; pattern: string }[] = [
  { scheme: 'ledger-live', label: 'Ledger Live', pattern: "m/44'/60'/N'/0/0" },
  { scheme: 'legacy', label: 'Legacy (MEW / MyCrypto)', pattern: "m/44'/60'/0'/N" },
  { scheme: 'bip44', label: 'BIP 44 standard (MetaMask)', pattern: "m/44'/60'/0'/0/N" },
];

export function ConnectWallet({ onConnected, expectedAddress }: { onConnected: (w: WalletView) => void; expectedAddress?: string | null }) {
  const [method, setMethod] = useState<Method>('keystore');
  const client = useQueryClient();
  const done = (w: WalletView) => {
    client.setQueryData(qk.wallet, w);
    void client.invalidateQueries({ queryKey: qk.keys });
    onConnected(w);
  };
  return (
    <div className="stack">
      <Segmented<Method>
        label="Signer type"
        value={method}
        onChange={setMethod}
        options={[
          { value: 'keystore', label: 'Keystore file' },
          { value: 'ledger', label: 'Ledger' },
          { value: 'trezor', label: 'Trezor' },
          { value: 'offline', label: 'Offline signer' },
          { value: 'env', label: 'Environment key' },
        ]}
      />
      {expectedAddress && (
        <p className="muted" style={{ fontSize: 'var(--fs-sm)' }}>
          Reconnect the signer of <span className="addr">{expectedAddress}</span>.
        </p>
      )}
      {method === 'keystore' && <KeystoreForm onDone={done} />}
      {method === 'ledger' && <LedgerForm onDone={done} />}
      {method === 'trezor' && <TrezorConnectForm onDone={done} />}
      {method === 'offline' && <OfflineForm onDone={done} />}
      {method === 'env' && <EnvForm onDone={done} />}
    </div>
  );
}

function KeystoreForm({ onDone }: { onDone: (w: WalletView) => void }) {
  const [choice, setChoice] = useState<IpcResponse<'wallet:chooseKeystoreFile'>>(null);
  const [password, setPassword] = useState('');
  const choose = useMutation({ mutationFn: () => unwrap(perps().wallet.chooseKeystoreFile()), onSuccess: (c) => c && setChoice(c) });
  const connect = useMutation({
    mutationFn: () => unwrap(perps().wallet.connectKeystore({ file_token: choice?.file_token ?? '', password })),
    onSuccess: (w) => {
      setPassword('');
      onDone(w);
    },
  });
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        if (choice && password) connect.mutate();
      }}
    >
      <p className="muted">
        An encrypted JSON keystore (Web3 Secret Storage, as geth, MyEtherWallet and ethers write). It is decrypted in the app’s main process;
        the password is used once and never stored.
      </p>
      <div className="row">
        <Button onClick={() => choose.mutate()} busy={choose.isPending}>
          Choose keystore file…
        </Button>
        {choice ? (
          <span>
            <strong>{choice.file_name}</strong>
            {choice.address && <span className="addr muted"> · {choice.address}</span>}
          </span>
        ) : (
          <span className="faint">No file chosen</span>
        )}
      </div>
      {choose.error && <ErrorLine error={choose.error} />}
      {choice && (
        <TextField label="Keystore password" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
      )}
      {connect.error && <ErrorLine error={connect.error} />}
      <div className="actions">
        <Button type="submit" variant="primary" disabled={!choice || password === ''} busy={connect.isPending}>
          Unlock and connect
        </Button>
      </div>
    </form>
  );
}

function LedgerForm({ onDone }: { onDone: (w: WalletView) => void }) {
  const [device, setDevice] = useState<string>('');
  const [scheme, setScheme] = useState<Scheme>('ledger-live');
  const [start, setStart] = useState(0);
  const devices = useMutation({
    mutationFn: () => unwrap(perps().ledger.listDevices()),
    onSuccess: (d) => {
      const first = d.devices[0];
      if (first && !device) setDevice(first.device_id);
    },
  });
  const accounts = useMutation({ mutationFn: (from: number) => unwrap(perps().ledger.listAccounts({ device_id: device, scheme, start: from, count: 5 })) });
  const connect = useMutation({ mutationFn: (path: string) => unwrap(perps().ledger.connect({ device_id: device, path })), onSuccess: onDone });
  const list = devices.data?.devices ?? [];
  return (
    <div className="stack">
      <p className="muted">Connect your Ledger, unlock it and open the Ethereum app. Addresses are read from the device; you confirm the one you choose on its screen.</p>
      <div className="row">
        <Button onClick={() => devices.mutate()} busy={devices.isPending}>
          {devices.data ? 'Search again' : 'Find Ledger devices'}
        </Button>
      </div>
      {devices.error && <ErrorLine error={devices.error} />}
      {devices.data && list.length === 0 && <EmptyState title="No Ledger found">Plug it in over USB, unlock it, open the Ethereum app, then search again.</EmptyState>}
      {list.length > 0 && (
        <div className="grid2">
          <SelectField label="Device" value={device} onChange={(e) => setDevice(e.target.value)} options={list.map((d) => ({ value: d.device_id, label: d.label }))} />
          <SelectField
            label="Derivation path"
            value={scheme}
            onChange={(e) => setScheme(e.target.value as Scheme)}
            options={SCHEMES.map((s) => ({ value: s.scheme, label: `${s.label} — ${s.pattern}` }))}
          />
        </div>
      )}
      {list.length > 0 && (
        <div className="row">
          <Button
            onClick={() => {
              setStart(0);
              accounts.mutate(0);
            }}
            busy={accounts.isPending}
          >
            Show addresses
          </Button>
        </div>
      )}
      {accounts.error && <ErrorLine error={accounts.error} />}
      {accounts.data && (
        <table className="dt" aria-label="Ledger addresses">
          <thead>
            <tr>
              <th scope="col">Path</th>
              <th scope="col">Address</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {accounts.data.accounts.map((a) => (
              <tr key={a.path}>
                <td className="num">{a.path}</td>
                <td className="num">{a.address}</td>
                <td className="r">
                  <Button size="sm" variant="primary" busy={connect.isPending && connect.variables === a.path} onClick={() => connect.mutate(a.path)}>
                    Use this address
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {accounts.data && (
        <div className="row">
          <Button size="sm" variant="ghost" disabled={start === 0} onClick={() => { const s = Math.max(0, start - 5); setStart(s); accounts.mutate(s); }}>
            Previous
          </Button>
          <Button size="sm" variant="ghost" onClick={() => { const s = start + 5; setStart(s); accounts.mutate(s); }}>
            Next addresses
          </Button>
        </div>
      )}
      {connect.isPending && <p className="notice notice-info">Confirm the address on your Ledger.</p>}
      {connect.error && <ErrorLine error={connect.error} />}
    </div>
  );
}

function OfflineForm({ onDone }: { onDone: (w: WalletView) => void }) {
  const [address, setAddress] = useState('');
  const valid = /^0x[0-9a-fA-F]{40}$/.test(address.trim());
  const connect = useMutation({ mutationFn: () => unwrap(perps().wallet.connectOffline({ address: address.trim() })), onSuccess: onDone });
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) connect.mutate();
      }}
    >
      <p className="muted">
        The key stays on an air-gapped machine. For each custody action the app shows (and can export) the exact typed data; you sign it
        offline and bring the signature back. The app checks it recovers to this address.
      </p>
      <TextField label="Wallet address" placeholder="0x…" value={address} onChange={(e) => setAddress(e.target.value)} error={address && !valid ? 'Expected 0x followed by 40 hex characters' : undefined} />
      {connect.error && <ErrorLine error={connect.error} />}
      <div className="actions">
        <Button type="submit" variant="primary" disabled={!valid} busy={connect.isPending}>
          Use offline signer
        </Button>
      </div>
    </form>
  );
}

function EnvForm({ onDone }: { onDone: (w: WalletView) => void }) {
  const [variable, setVariable] = useState('PERPS_MAIN_KEY');
  const valid = /^[A-Z_][A-Z0-9_]{0,63}$/.test(variable);
  const connect = useMutation({ mutationFn: () => unwrap(perps().wallet.connectEnv({ variable })), onSuccess: onDone });
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid) connect.mutate();
      }}
    >
      <p className="muted">For automation and testing: the app reads the main wallet’s key from an environment variable of its own process. The key never reaches this window.</p>
      <TextField label="Environment variable" value={variable} onChange={(e) => setVariable(e.target.value.toUpperCase())} error={!valid ? 'Letters, digits and _ only' : undefined} />
      {connect.error && <ErrorLine error={connect.error} />}
      <div className="actions">
        <Button type="submit" variant="primary" disabled={!valid} busy={connect.isPending}>
          Connect
        </Button>
      </div>
    </form>
  );
}
