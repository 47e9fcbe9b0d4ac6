/**
 * First run: profile, main wallet, trading key, funds. Each step is skipped when already satisfied (a
 * returning user with a wallet but no usable key starts at the key step). On the simulator the wallet
 * step also offers a paper wallet, which does the key and fund steps too and goes straight to trading.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { perps, unwrap } from '../../ipc/client';
import { qk, useBalance, useDepositInfo, useKeys, useProfile, useWallet } from '../../ipc/queries';
import { fmtUsd, isDecimalText } from '../../lib/decimal';
import { Button } from '../../ui/Button';
import { SelectField, TextField } from '../../ui/Field';
import { ErrorLine, ErrorState, Loading } from '../../ui/States';
import { KeyReview } from '../keys/KeyReview';
import { goTo } from '../../app/uiStore';
import { ConnectWallet } from './ConnectWallet';
import { PaperWallet } from './PaperWallet';
import { ProfileChooser } from './ProfileChooser';

import { usableKey, type OnboardingStep } from './onboardingGate';
const STEPS: { id: OnboardingStep; label: string }[] = [
  { id: 'profile', label: 'Profile' },
  { id: 'wallet', label: 'Main wallet' },
  { id: 'key', label: 'Trading key' },
  { id: 'fund', label: 'Fund' },
];


export function Onboarding({ initialStep, onFinish }: { initialStep: OnboardingStep; onFinish: () => void }) {
  const [step, setStep] = useState<OnboardingStep>(initialStep);
  const at = STEPS.findIndex((s) => s.id === step);
  return (
    <main className="onb">
      <div className="onb-card">
        <div className="brand" style={{ fontSize: 'var(--fs-xl)' }}>
          <span className="brand-mark" aria-hidden="true" /> Perps Desk
        </div>
        <ol className="onb-steps" aria-label="Set-up steps">
          {STEPS.map((s, i) => (
            <li key={s.id} className={`onb-step${i < at ? ' done' : ''}`} aria-current={s.id === step ? 'step' : undefined}>
              <span className="n">{i < at ? '✓' : i + 1}</span>
              {s.label}
            </li>
          ))}
        </ol>
        {step === 'profile' && <ProfileStep onNext={() => setStep('wallet')} />}
        {step === 'wallet' && (
          <WalletStep
            onNext={() => setStep('key')}
            onBack={() => setStep('profile')}
            onReady={() => {
              goTo('trade');
              onFinish();
            }}
          />
        )}
        {step === 'key' && <KeyStep onNext={() => setStep('fund')} onBack={() => setStep('wallet')} />}
        {step === 'fund' && <FundStep onFinish={onFinish} />}
      </div>
    </main>
  );
}

function ProfileStep({ onNext }: { onNext: () => void }) {
  const profile = useProfile();
  return (
    <section className="onb-body" aria-labelledby="onb-profile">
      <h1 id="onb-profile">Where do you want to trade?</h1>
      <p>Start on the simulator to learn the terminal with test funds; switch to mainnet any time in Settings.</p>
      {profile.isPending && <Loading />}
      {profile.error && <ErrorState error={profile.error} onRetry={() => void profile.refetch()} />}
      {profile.data && <ProfileChooser profile={profile.data} onDone={onNext} />}
    </section>
  );
}

function WalletStep({ onNext, onBack, onReady }: { onNext: () => void; onBack: () => void; onReady: () => void }) {
  const wallet = useWallet();
  const profile = useProfile();
  return (
    <section className="onb-body" aria-labelledby="onb-wallet">
      <h1 id="onb-wallet">Connect your main wallet</h1>
      <p>
        Your main wallet holds the account. It signs only custody actions: authorizing a trading key and withdrawals. Orders are signed by a
        separate trading key that cannot withdraw.
      </p>
      {wallet.data?.signer && wallet.data.address && (
        <div className="notice notice-info">
          Connected: <span className="addr">{wallet.data.address}</span> via {wallet.data.signer.label}.{' '}
          <Button size="sm" variant="primary" onClick={onNext}>
            Continue with this wallet
          </Button>
        </div>
      )}
      {profile.data?.active === 'sim' && (
        <>
          <PaperWallet onDone={onReady} />
          <h2 className="onb-or">Or connect your own main wallet</h2>
        </>
      )}
      <ConnectWallet onConnected={onNext} expectedAddress={wallet.data?.signer ? null : wallet.data?.address} />
      <div className="actions">
        <Button variant="ghost" onClick={onBack} className="grow-left">
          Back
        </Button>
      </div>
    </section>
  );
}

function KeyStep({ onNext, onBack }: { onNext: () => void; onBack: () => void }) {
  const keys = useKeys();
  const client = useQueryClient();
  const [name, setName] = useState('Perps Desk');
  const [days, setDays] = useState('90');
  const [agent, setAgent] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: () => unwrap(perps().keys.create({ name: name.trim() || 'Perps Desk' })),
    onSuccess: (k) => {
      void client.invalidateQueries({ queryKey: qk.keys });
      setAgent(k.agent);
    },
  });
  const active = usableKey(keys.data?.keys);
  // A key created here earlier but never authorized is reused rather than piling up unused keys.
  const unauthorized = keys.data?.keys.find((k) => k.status === 'NOT_AUTHORIZED' && k.stored_locally);
  return (
    <section className="onb-body" aria-labelledby="onb-key">
      <h1 id="onb-key">Create a trading key</h1>
      <p>
        A trading key is generated on this computer and kept in the operating system’s keychain. Your main wallet authorizes it once; after that
        it signs orders without prompting. It can trade but can never withdraw, and you can revoke it at any time.
      </p>
      {keys.isPending && <Loading />}
      {keys.error && <ErrorState error={keys.error} onRetry={() => void keys.refetch()} />}
      {active && !agent && (
        <div className="notice notice-info">
          Trading key <span className="addr">{active.agent}</span> is active.{' '}
          <Button size="sm" variant="primary" onClick={onNext}>
            Continue
          </Button>
        </div>
      )}
      {!agent && keys.data && !active && (
        <div className="stack">
          <div className="grid2">
            <TextField label="Key name" value={name} maxLength={64} onChange={(e) => setName(e.target.value)} />
            <SelectField
              label="Lifetime"
              value={days}
              onChange={(e) => setDays(e.target.value)}
              options={[
                { value: '30', label: '30 days' },
                { value: '90', label: '90 days' },
                { value: '180', label: '180 days (maximum)' },
              ]}
            />
          </div>
          {create.error && <ErrorLine error={create.error} />}
          <div className="actions">
            <Button variant="ghost" onClick={onBack}>
              Back
            </Button>
            {unauthorized && (
              <Button onClick={() => setAgent(unauthorized.agent)}>Authorize existing key {unauthorized.name ?? ''}</Button>
            )}
            <Button variant="primary" busy={create.isPending} onClick={() => create.mutate()}>
              Create trading key
            </Button>
          </div>
        </div>
      )}
      {agent && (
        <div className="stack">
          <h2>Review the authorization</h2>
          <KeyReview action="authorize" agent={agent} days={Number(days)} onDone={onNext} onCancel={() => setAgent(null)} />
        </div>
      )}
    </section>
  );
}

function FundStep({ onFinish }: { onFinish: () => void }) {
  const info = useDepositInfo();
  const balance = useBalance();
  const client = useQueryClient();
  const [amount, setAmount] = useState('10000');
  const faucet = useMutation({
    mutationFn: () => unwrap(perps().funding.faucet({ amount: amount.trim() })),
    onSuccess: () => {
      // The simulator credits deposits after a short confirmation delay; poll the balance a few times.
      for (const ms of [300, 1200, 2500]) setTimeout(() => void client.invalidateQueries({ queryKey: qk.balance }), ms);
    },
  });
  const validAmount = isDecimalText(amount) && amount.trim() !== '' && !/^0*\.?0*$/.test(amount.trim());
  return (
    <section className="onb-body" aria-labelledby="onb-fund">
      <h1 id="onb-fund">Fund your account</h1>
      <dl className="kv">
        <dt>Free balance</dt>
        <dd aria-label="Free balance">{balance.data ? fmtUsd(balance.data.free_balance) : balance.error ? '—' : '…'}</dd>
      </dl>
      {info.isPending && <Loading />}
      {info.error && <ErrorState error={info.error} onRetry={() => void info.refetch()} />}
      {info.data?.faucet_available && (
        <form
          className="stack"
          onSubmit={(e) => {
            e.preventDefault();
            if (validAmount) faucet.mutate();
          }}
        >
          <p className="muted">The simulator has a faucet: it credits test USDC to your account as if you had made a spot transfer.</p>
          <TextField label="Test USDC amount" value={amount} onChange={(e) => setAmount(e.target.value)} suffix="USDC" inputMode="decimal" error={amount && !validAmount ? 'Enter a positive amount' : undefined} />
          {faucet.error && <ErrorLine error={faucet.error} />}
          {faucet.data && (
            <p className="notice notice-info" role="status">
              {fmtUsd(faucet.data.amount)} test USDC requested; it is credited once the simulated transfer confirms.
            </p>
          )}
          <div className="actions">
            <Button type="submit" busy={faucet.isPending} disabled={!validAmount}>
              Get test USDC
            </Button>
          </div>
        </form>
      )}
      {info.data && !info.data.faucet_available && (
        <div className="stack">
          <p className="muted">{info.data.note}</p>
          <div className="copy-row">
            <span className="muted">Deposit address</span>
            <span className="addr strong" aria-label="Deposit address">
              {info.data.address}
            </span>
          </div>
          <table className="dt" aria-label="Deposit rails">
            <thead>
              <tr>
                <th scope="col">Rail</th>
                <th scope="col" className="r">Minimum credited</th>
                <th scope="col">Address</th>
              </tr>
            </thead>
            <tbody>
              {info.data.rails.map((r) => (
                <tr key={r.rail}>
                  <td>{r.rail}</td>
                  <td className="r num">{fmtUsd(r.min_amount)}</td>
                  <td className="num">{r.address ?? info.data.address}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="notice notice-warn">A transfer below a rail’s minimum is detected but never credited. Send from the wallet you connected: the sender decides which account is credited.</p>
        </div>
      )}
      <div className="actions">
        <Button variant="primary" onClick={onFinish}>
          Start trading
        </Button>
      </div>
    </section>
  );
}
