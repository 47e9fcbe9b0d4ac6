/**
 * Settings: profile, main wallet, the offline (QR) signer's identity, order defaults, key-expiry warnings,
 * risk (the liquidation warning distance, the fat-finger cap on an order's notional), native notification
 * switches, running in the tray, and the companion services (chain RPC URLs, partner code, service URLs).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { AirgapSettings, NotificationPrefs, Settings } from '../../../../shared/ipc';
import { PALETTE_LABELS, PALETTES } from '../../../../shared/palette';
import { IpcQueryError, perps, unwrap } from '../../ipc/client';
import { playSound, type SoundKind } from '../notifications/sounds';
import { qk, useAirgap, useAppInfo, useNotificationPrefs, useProfile, useSettings, useWallet } from '../../ipc/queries';
import { fieldError, isShownAtField } from '../../lib/fieldErrors';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { Checkbox, SelectField, TextField } from '../../ui/Field';
import { KV, KVList, Panel } from '../../ui/Panel';
import { ErrorLine, ErrorState, Loading } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { Dialog } from '../../ui/Dialog';
import { ConnectWallet } from '../onboarding/ConnectWallet';
import { riskFieldErrors } from './riskSettings';
import { StopToleranceForm } from './StopToleranceForm';
import { ProfileChooser } from '../onboarding/ProfileChooser';
import { CompanionSettingsPanel } from '../companionSettings/CompanionSettingsPanel';
import { TradeHotkeysSection } from '../hotkeys/TradeHotkeysSection';
import { SimPricesSection } from '../simFeed/SimPricesSection';
import { TrayModeSection } from '../tray/TrayModeSection';
import { LimitsSection } from '../limits/LimitsSection';

export function SettingsView() {
  return (
    <div className="view-pad">
      <div className="view-title">
        <h1>Settings</h1>
      </div>
      <div className="settings-grid">
        <ProfileSection />
        <SimPricesSection />
        <WalletSection />
        <OfflineSignerSection />
        <OrderDefaults />
        <RiskSection />
        <LimitsSection />
        <TradeHotkeysSection />
        <NotificationSection />
        <TrayModeSection />
        <CompanionSettingsPanel />
        <AboutSection />
      </div>
    </div>
  );
}

function ProfileSection() {
  const profile = useProfile();
  return (
    <Panel title="Profile">
      <div className="section">
        {profile.isPending && <Loading />}
        {profile.error && <ErrorState error={profile.error} onRetry={() => void profile.refetch()} />}
        {profile.data && (
          <>
            <KVList>
              <KV k="Active">
                <Badge tone={profile.data.active === 'sim' ? 'warn' : 'sell'}>{profile.data.active === 'sim' ? 'Simulator' : 'Mainnet'}</Badge> {profile.data.environment}
              </KV>
              {profile.data.active === 'sim' && <KV k="Simulator">{profile.data.sim.running ? `running at ${profile.data.sim.base_url ?? ''}` : 'stopped'}</KV>}
            </KVList>
            <ProfileChooser profile={profile.data} onDone={(p) => pushToast({ tone: 'success', title: `Profile: ${p.active}` })} submitLabel="Switch profile" />
          </>
        )}
      </div>
    </Panel>
  );
}

function WalletSection() {
  const wallet = useWallet();
  const client = useQueryClient();
  const [connect, setConnect] = useState(false);
  const disconnect = useMutation({
    mutationFn: (forget: boolean) => unwrap(perps().wallet.disconnect({ forget })),
    onSuccess: (w) => {
      client.setQueryData(qk.wallet, w);
      void client.invalidateQueries();
    },
  });
  return (
    <Panel title="Main wallet">
      <div className="section">
        {wallet.isPending && <Loading />}
        {wallet.error && <ErrorState error={wallet.error} onRetry={() => void wallet.refetch()} />}
        {wallet.data && (
          <KVList>
            <KV k="Address">
              <span className="addr">{wallet.data.address ?? '—'}</span>
            </KV>
            <KV k="Signer this session">{wallet.data.signer ? wallet.data.signer.label : 'not connected'}</KV>
            {wallet.data.signer?.path && <KV k="Derivation path">{wallet.data.signer.path}</KV>}
          </KVList>
        )}
        {disconnect.error && <ErrorLine error={disconnect.error} />}
        <div className="actions">
          <Button onClick={() => setConnect(true)}>{wallet.data?.signer ? 'Change signer' : 'Connect signer'}</Button>
          <Button variant="ghost" disabled={!wallet.data?.signer} busy={disconnect.isPending && disconnect.variables === false} onClick={() => disconnect.mutate(false)}>
            Disconnect signer
          </Button>
          <Button variant="danger" busy={disconnect.isPending && disconnect.variables === true} onClick={() => disconnect.mutate(true)}>
            Forget wallet
          </Button>
        </div>
        <Dialog open={connect} title="Main wallet signer" onClose={() => setConnect(false)} width={620}>
          <ConnectWallet expectedAddress={wallet.data?.address} onConnected={() => setConnect(false)} />
        </Dialog>
      </div>
    </Panel>
  );
}

/** Where main's refusal of a setAirgap field is shown: the fingerprint or the path field. */
const FINGERPRINT_FIELDS = ['fingerprint'] as const;
const PATH_FIELDS = ['path'] as const;

/** The refusal's text for a field, without the channel and field prefix of a payload error. */
function airgapFieldError(error: unknown, names: readonly string[]): string | undefined {
  let text = fieldError(error, names);
  // A path main cannot parse comes back as INVALID_PATH, without a field name.
  if (text === undefined && names === PATH_FIELDS && error instanceof IpcQueryError && (error.reason ?? error.code) === 'INVALID_PATH') text = error.message;
  return text?.replace(/^[\w-]+:[\w-]+: [\w.]+: /, '');
}

/**
 * The identity of the offline signer as the animated QR code states it: Keystone-style air-gapped signers
 * only sign an eth-sign-request for their own wallet, named by its master fingerprint and the account's
 * derivation path.
 */
function OfflineSignerSection() {
  const airgap = useAirgap();
  return (
    <Panel title="Offline signer (QR)">
      <div className="section">
        <p className="muted">
          When the main wallet signs offline, the app shows each signing request as an animated <span className="strong">eth-sign-request</span> QR code for
          Keystone-style air-gapped signers to scan. The signer checks that the request is for its own wallet by the master fingerprint and the account’s
          derivation path below. Without a fingerprint there is no QR code; exporting the request as a file and pasting the signature still work.
        </p>
        {airgap.isPending && <Loading />}
        {airgap.error && <ErrorState error={airgap.error} onRetry={() => void airgap.refetch()} />}
        {airgap.data && <OfflineSignerForm key={`${airgap.data.fingerprint ?? ''}|${airgap.data.path}`} saved={airgap.data} />}
      </div>
    </Panel>
  );
}

function OfflineSignerForm({ saved }: { saved: AirgapSettings }) {
  const client = useQueryClient();
  const [fingerprint, setFingerprint] = useState(saved.fingerprint ?? '');
  const [path, setPath] = useState(saved.path);
  const save = useMutation({
    mutationFn: (patch: { fingerprint?: string | null; path?: string }) => unwrap(perps().settings.setAirgap(patch)),
    onSuccess: (a, patch) => {
      client.setQueryData(qk.airgap, a);
      pushToast({ tone: 'success', title: patch.fingerprint === null && patch.path === undefined ? 'Master fingerprint cleared' : 'Offline signer saved' });
    },
  });
  const fp = fingerprint.trim() === '' ? null : fingerprint.trim();
  const p = path.trim();
  const patch = { ...(fp !== saved.fingerprint ? { fingerprint: fp } : {}), ...(p !== saved.path ? { path: p } : {}) };
  const changed = Object.keys(patch).length > 0;
  const fpError = airgapFieldError(save.error, FINGERPRINT_FIELDS);
  const pathError = airgapFieldError(save.error, PATH_FIELDS);
  const edit = (f: () => void) => {
    f();
    if (save.error) save.reset();
  };
  return (
    <form
      className="stack"
      aria-label="Offline signer"
      onSubmit={(e) => {
        e.preventDefault();
        if (changed) save.mutate(patch);
      }}
    >
      <div className="grid2">
        <TextField
          label="Master fingerprint"
          value={fingerprint}
          placeholder="none: no QR code"
          maxLength={16}
          className="mono-input"
          onChange={(e) => edit(() => setFingerprint(e.target.value))}
          error={fpError}
          hint={saved.fingerprint ? 'Set: requests are shown as a QR code.' : '8 hex characters, as the signer shows it (e.g. 1a2b3c4d).'}
        />
        <TextField
          label="Derivation path"
          value={path}
          placeholder="m/44'/60'/0'/0/0"
          maxLength={64}
          onChange={(e) => edit(() => setPath(e.target.value))}
          error={pathError}
          hint="The wallet account’s path (m/44'/60'/…)."
        />
      </div>
      {save.error && !isShownAtField(save.error, [FINGERPRINT_FIELDS]) && !pathError && <ErrorLine error={save.error} />}
      <div className="actions">
        <Button
          variant="ghost"
          disabled={saved.fingerprint === null}
          busy={save.isPending && save.variables?.fingerprint === null && save.variables.path === undefined}
          onClick={() => {
            setFingerprint('');
            save.mutate({ fingerprint: null });
          }}
        >
          Clear fingerprint
        </Button>
        <Button type="submit" variant="primary" disabled={!changed} busy={save.isPending && !(save.variables?.fingerprint === null && save.variables.path === undefined)}>
          Set offline signer
        </Button>
      </div>
    </form>
  );
}

function OrderDefaults() {
  const settings = useSettings();
  const client = useQueryClient();
  const [draft, setDraft] = useState<Settings | null>(null);
  useEffect(() => {
    if (settings.data) setDraft(settings.data);
  }, [settings.data]);
  const save = useMutation({
    mutationFn: (patch: Partial<Settings>) => unwrap(perps().settings.set(patch)),
    onSuccess: (s) => {
      client.setQueryData(qk.settings, s);
      pushToast({ tone: 'success', title: 'Settings saved' });
    },
  });
  const slippageText = draft?.default_slippage_bps === null || draft === null ? '' : String(draft.default_slippage_bps);
  const slippageOk = slippageText === '' || /^\d{1,4}$/.test(slippageText);
  return (
    <Panel title="Orders and keys">
      <div className="section">
        {settings.isPending && <Loading />}
        {settings.error && <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />}
        {draft && (
          <form
            className="stack"
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate({
                default_slippage_bps: draft.default_slippage_bps,
                default_leverage: draft.default_leverage,
                confirm_orders: draft.confirm_orders,
                key_expiry_warning_days: draft.key_expiry_warning_days,
                theme: draft.theme,
                palette: draft.palette,
              });
            }}
          >
            <div className="grid2">
              <TextField
                label="Market order slippage (bps)"
                value={slippageText}
                placeholder="Each market's own"
                inputMode="numeric"
                onChange={(e) => {
                  const v = e.target.value.trim();
                  // Integer basis points, a count rather than money: a plain number is the right type here.
                  setDraft({ ...draft, default_slippage_bps: v === '' ? null : /^\d{1,4}$/.test(v) ? Number(v) : draft.default_slippage_bps });
                }}
                hint="Empty: the market's own slippage_bps"
                error={slippageOk ? undefined : 'Whole basis points, 0–5000'}
              />
              <TextField
                label="Default leverage"
                value={String(draft.default_leverage)}
                inputMode="numeric"
                onChange={(e) => /^\d{0,4}$/.test(e.target.value) && setDraft({ ...draft, default_leverage: Math.max(1, Number(e.target.value || '1')) })}
                suffix="x"
              />
              <SelectField
                label="Warn before key expiry"
                value={String(draft.key_expiry_warning_days)}
                onChange={(e) => setDraft({ ...draft, key_expiry_warning_days: Number(e.target.value) })}
                options={[3, 7, 14, 30, 60, 90].map((d) => ({ value: String(d), label: `${d} days` }))}
              />
              <SelectField
                label="Theme"
                value={draft.theme}
                onChange={(e) => setDraft({ ...draft, theme: e.target.value === 'light' ? 'light' : 'dark' })}
                options={[
                  { value: 'dark', label: 'Dark' },
                  { value: 'light', label: 'Light' },
                ]}
              />
              <SelectField
                label="Colours"
                value={draft.palette}
                onChange={(e) => setDraft({ ...draft, palette: PALETTES.find((p) => p === e.target.value) ?? 'default' })}
                options={PALETTES.map((p) => ({ value: p, label: PALETTE_LABELS[p] }))}
                hint="Buy/sell and profit/loss always carry a sign or a word too"
              />
            </div>
            <Checkbox label="Review the exact signing preview before every order" checked={draft.confirm_orders} onChange={(e) => setDraft({ ...draft, confirm_orders: e.target.checked })} />
            {save.error && <ErrorLine error={save.error} />}
            <div className="actions">
              <Button type="submit" variant="primary" busy={save.isPending} disabled={!slippageOk}>
                Save
              </Button>
            </div>
          </form>
        )}
      </div>
    </Panel>
  );
}

/**
 * Risk: how close to its liquidation estimate a position's mark may come before the app warns (banner,
 * notification, sound), and the fat-finger cap: an order above this notional needs an explicit
 * confirmation in its review. Off (empty) by default.
 */
function RiskSection() {
  const settings = useSettings();
  return (
    <Panel title="Risk">
      <div className="section">
        {settings.isPending && <Loading />}
        {settings.error && <ErrorState error={settings.error} onRetry={() => void settings.refetch()} />}
        {settings.data && <RiskForm key={`${settings.data.liquidation_warning_pct}|${settings.data.max_order_notional ?? ''}`} saved={settings.data} />}
        {settings.data && <StopToleranceForm key={`${settings.data.stop_tolerance_bps}|${JSON.stringify(settings.data.stop_tolerance_by_market)}`} saved={settings.data} />}
      </div>
    </Panel>
  );
}

function RiskForm({ saved }: { saved: Settings }) {
  const client = useQueryClient();
  const [pct, setPct] = useState(String(saved.liquidation_warning_pct));
  const [cap, setCap] = useState(saved.max_order_notional ?? '');
  const save = useMutation({
    mutationFn: (patch: Pick<Settings, 'liquidation_warning_pct' | 'max_order_notional'>) => unwrap(perps().settings.set(patch)),
    onSuccess: (s) => {
      client.setQueryData(qk.settings, s);
      pushToast({ tone: 'success', title: 'Risk settings saved' });
    },
  });
  const errors = riskFieldErrors(pct, cap);
  const ok = errors.pct === undefined && errors.cap === undefined;
  const edit = (f: () => void) => {
    f();
    if (save.error) save.reset();
  };
  const pctError = errors.pct ?? fieldError(save.error, ['liquidation_warning_pct']);
  const capError = errors.cap ?? fieldError(save.error, ['max_order_notional']);
  return (
    <form
      className="stack"
      aria-label="Risk settings"
      onSubmit={(e) => {
        e.preventDefault();
        // A percentage is a setting, not money: the contract takes it as a number.
        if (ok) save.mutate({ liquidation_warning_pct: Number(pct.trim()), max_order_notional: cap.trim() === '' ? null : cap.trim() });
      }}
    >
      <div className="grid2">
        <TextField
          label="Liquidation warning distance"
          value={pct}
          inputMode="decimal"
          suffix="% of mark"
          onChange={(e) => edit(() => setPct(e.target.value))}
          error={pct.trim() !== '' || save.error ? pctError : undefined}
          hint="Warn (banner, notification, sound) when a position’s mark is this close to its estimated liquidation price."
        />
        <TextField
          label="Confirm orders above"
          value={cap}
          inputMode="decimal"
          placeholder="No cap"
          suffix="USDC"
          onChange={(e) => edit(() => setCap(e.target.value))}
          error={capError}
          hint="Fat-finger guard: an order whose notional is above this needs an explicit tick in its review. Empty: off."
        />
      </div>
      {save.error && !isShownAtField(save.error, [['liquidation_warning_pct'], ['max_order_notional']]) && <ErrorLine error={save.error} />}
      <div className="actions">
        <Button type="submit" variant="primary" busy={save.isPending} disabled={!ok}>
          Save risk settings
        </Button>
      </div>
    </form>
  );
}

function NotificationSection() {
  const prefs = useNotificationPrefs();
  const client = useQueryClient();
  // Optimistic: the checkbox follows the click in the same React event (local state; the query cache
  // notifies asynchronously, and a controlled input would snap back first), then the saved value from
  // main takes over; if main refuses, the local value is dropped and the stored one shows again.
  const [pending, setPending] = useState<NotificationPrefs | null>(null);
  const save = useMutation({
    mutationFn: (patch: Partial<NotificationPrefs>) => unwrap(perps().notifications.set(patch)),
    onError: () => setPending(null),
    onSuccess: (p) => {
      client.setQueryData(qk.notifications, p);
      setPending(null);
    },
  });
  const toggle = (current: NotificationPrefs, patch: Partial<NotificationPrefs>) => {
    setPending({ ...current, ...patch });
    save.mutate(patch);
  };
  const items: { key: keyof NotificationPrefs; label: string }[] = [
    { key: 'fills', label: 'Fills' },
    { key: 'trigger_fires', label: 'Take-profit / stop-loss triggers firing' },
    { key: 'withdrawals', label: 'Withdrawals completing or failing' },
    { key: 'key_expiry', label: 'Trading keys about to expire' },
    { key: 'liquidation_warning', label: 'Positions near their liquidation estimate' },
    { key: 'alerts', label: 'Your alerts firing (price, move, funding, PnL, liquidation distance)' },
  ];
  const sounds: { key: keyof NotificationPrefs; kind: SoundKind; label: string }[] = [
    { key: 'sound_fills', kind: 'fill', label: 'Sound on fills' },
    { key: 'sound_trigger_fires', kind: 'trigger', label: 'Sound when a take-profit / stop-loss fires' },
    { key: 'sound_risk_warnings', kind: 'risk', label: 'Sound on liquidation warnings' },
    { key: 'sound_alerts', kind: 'alert', label: 'Sound when an alert fires' },
  ];
  return (
    <Panel title="Notifications and sounds">
      <div className="section">
        <p className="muted">Native notifications from the operating system, sent by the app even when this window is in the background.</p>
        {prefs.isPending && <Loading />}
        {prefs.error && <ErrorState error={prefs.error} onRetry={() => void prefs.refetch()} />}
        {prefs.data &&
          items.map((i) => <Checkbox key={i.key} label={i.label} checked={(pending ?? prefs.data)[i.key]} onChange={(e) => toggle(pending ?? prefs.data, { [i.key]: e.target.checked })} />)}
        <h3 className="section-subtitle">Sounds</h3>
        <p className="muted">Short tones this window plays, off until you turn them on.</p>
        {prefs.data &&
          sounds.map((i) => (
            <div key={i.key} className="row">
              <Checkbox label={i.label} checked={(pending ?? prefs.data)[i.key]} onChange={(e) => toggle(pending ?? prefs.data, { [i.key]: e.target.checked })} />
              <Button size="sm" variant="ghost" onClick={() => playSound(i.kind)} aria-label={`Play: ${i.label}`}>
                Play
              </Button>
            </div>
          ))}
        {save.error && <ErrorLine error={save.error} />}
      </div>
    </Panel>
  );
}

function AboutSection() {
  const info = useAppInfo();
  return (
    <Panel title="About">
      <div className="section">
        {info.data && (
          <KVList>
            <KV k="Version">
              {info.data.name} {info.data.version}
            </KV>
            <KV k="Platform">{info.data.platform}</KV>
            <KV k="Charts">TradingView Lightweight Charts™ (Apache 2.0), tradingview.com</KV>
          </KVList>
        )}
        {info.error && <ErrorState error={info.error} />}
      </div>
    </Panel>
  );
}
