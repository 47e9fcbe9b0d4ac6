/**
 * One side's token: the chain's native token (the spec's placeholder address) or a token typed by its
 * address (a venue token id, 0x + 32 hex, on the venue's spot layer). The token is looked up with
 * bridge:tokenInfo, which reads its symbol, decimals and the wallet's balance from the chain; decimals the
 * chain does not say are typed by the user.
 */
import type { UseQueryResult } from '@tanstack/react-query';
import type { TokenInfo } from '../../../../shared/ipc';
import { useTokenInfo } from '../../ipc/companionQueries';
import { dec } from '../../lib/decimal';
import { fmtUnits, fromUnits } from '../../lib/units';
import { TextField } from '../../ui/Field';
import { Segmented } from '../../ui/Segmented';
import { ErrorLine, Spinner } from '../../ui/States';
import type { ChainRow } from './chains';

export interface TokenChoice {
  mode: 'native' | 'custom';
  /** Address or venue token id as typed. */
  custom: string;
  /** Decimals as typed, used only when the chain does not say. */
  decimals: string;
}

export const NATIVE_CHOICE: TokenChoice = { mode: 'native', custom: '', decimals: '' };

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const VENUE_TOKEN_ID = /^0x[0-9a-fA-F]{32}$/;

export interface TokenSide {
  /** What the request carries, or null while it is not valid. */
  token: string | null;
  tokenError: string | undefined;
  info: UseQueryResult<TokenInfo>;
  /** The chain's decimals, else the typed ones; null while unknown. */
  decimals: number | null;
  decimalsError: string | undefined;
  /** Whether the decimals come from the user (the chain did not say). */
  decimalsTyped: boolean;
  /** The token's symbol; "native token" for a gas token whose symbol the chain did not give. */
  symbol: string | null;
}

/** The native choice is offered only on EVM chains (the venue's spot layer names every token by its id). */
export function allowsNative(chain: ChainRow | undefined): boolean {
  return chain?.evm ?? true;
}

function resolveToken(choice: TokenChoice, chain: ChainRow | undefined, nativeToken: string | undefined, evmOnly: boolean): { token: string | null; error?: string } {
  if (!chain) return { token: null };
  if (choice.mode === 'native' && allowsNative(chain)) return { token: nativeToken ?? null };
  const t = choice.custom.trim();
  if (t === '') return { token: null };
  if (!chain.evm && !evmOnly) return VENUE_TOKEN_ID.test(t) ? { token: t } : { token: null, error: 'A venue token id: 0x followed by 32 hex characters' };
  return EVM_ADDRESS.test(t) ? { token: t } : { token: null, error: 'A token address: 0x followed by 40 hex characters' };
}

export function useTokenSide(choice: TokenChoice, chain: ChainRow | undefined, nativeToken: string | undefined, evmOnly = false): TokenSide {
  const { token, error } = resolveToken(choice, chain, nativeToken, evmOnly);
  const info = useTokenInfo(token && chain ? { chain: chain.chain, token } : null);
  const known = info.data?.decimals ?? null;
  const typed = choice.decimals.trim();
  let decimals: number | null = known;
  let decimalsError: string | undefined;
  if (known === null && token) {
    if (/^\d{1,2}$/.test(typed) && Number(typed) <= 36) decimals = Number(typed);
    else if (typed !== '') decimalsError = 'A whole number from 0 to 36';
  }
  return { token, tokenError: error, info, decimals, decimalsError, decimalsTyped: known === null, symbol: info.data?.symbol ?? (info.data?.native ? 'native token' : null) };
}

/** A warning when `amount` is more than the wallet holds of this side's token (once its balance and decimals are known). */
export function overBalanceWarning(side: TokenSide, amount: string): string | undefined {
  if (side.decimals === null) return undefined;
  const balance = fromUnits(side.info.data?.balance ?? null, side.decimals);
  return balance && dec(amount)?.gt(balance) ? 'More than your wallet balance on this chain' : undefined;
}

export function TokenPicker({
  label,
  chain,
  value,
  onChange,
  side,
  evmOnly = false,
  error,
}: {
  /** "From token", "To token", "Token in" ... names every control of this picker. */
  label: string;
  chain: ChainRow | undefined;
  value: TokenChoice;
  onChange: (v: TokenChoice) => void;
  side: TokenSide;
  /** Both sides must be EVM addresses (the aggregator). */
  evmOnly?: boolean;
  /** Why this side cannot be used as it is (main's refusal, or a rule of the form), below the picker. */
  error?: string;
}) {
  const native = allowsNative(chain) && value.mode === 'native';
  const venueId = chain !== undefined && !chain.evm && !evmOnly;
  const info = side.info;
  return (
    <fieldset className="token-picker">
      <legend className="field-label">{label}</legend>
      <Segmented
        label={`${label} kind`}
        size="sm"
        value={native ? 'native' : 'custom'}
        onChange={(mode) => onChange({ ...value, mode })}
        options={[
          { value: 'native', label: 'Native token', disabled: !allowsNative(chain) },
          { value: 'custom', label: venueId ? 'Venue token id' : 'Token address' },
        ]}
      />
      {!native && (
        <TextField
          label={venueId ? `${label} venue token id` : `${label} address`}
          value={value.custom}
          placeholder={venueId ? '0x + 32 hex characters' : '0x + 40 hex characters'}
          onChange={(e) => onChange({ ...value, custom: e.target.value })}
          error={side.tokenError}
          className="mono-input"
        />
      )}
      <div className="token-info" aria-live="polite" aria-label={`${label} details`}>
        {side.token === null ? (
          <span className="faint">{chain ? (native ? '' : 'Type the token to look it up') : 'Choose a chain first'}</span>
        ) : info.isPending ? (
          <span className="muted">
            <Spinner size={11} /> Reading the token on {chain?.chain}…
          </span>
        ) : info.error ? (
          <ErrorLine error={info.error} />
        ) : info.data ? (
          <>
            <span className="strong">{side.symbol ?? 'Unknown symbol'}</span>
            <span className="muted">{info.data.decimals !== null ? `${info.data.decimals} decimals` : 'decimals unknown'}</span>
            <span className="muted">
              Wallet balance: <span className="num">{info.data.balance !== null ? fmtUnits(info.data.balance, side.decimals, info.data.symbol) : 'unknown'}</span>
            </span>
            {info.data.note && <span className="faint token-note">{info.data.note}</span>}
          </>
        ) : null}
      </div>
      {side.token !== null && side.decimalsTyped && !info.isPending && (
        <TextField
          label={`${label} decimals`}
          value={value.decimals}
          inputMode="numeric"
          placeholder="e.g. 18"
          onChange={(e) => onChange({ ...value, decimals: e.target.value })}
          error={side.decimalsError}
          hint="The chain did not say: type the token's decimals (amounts are converted with them)"
        />
      )}
      {error && <p className="field-msg field-msg-error">{error}</p>}
    </fieldset>
  );
}
