/** An amount in a token's smallest units, shown in the token's own units once its decimals are known. */
import { useTokenInfo } from '../../ipc/companionQueries';
import { fmtUnits } from '../../lib/units';

const TOKEN_REF = /^0x([0-9a-fA-F]{40}|[0-9a-fA-F]{32})$/;
const CHAIN_ID = /^[a-z][a-z0-9_]{0,31}$/;

export function TokenAmount({ units, chain, token }: { units: string | null; chain: string; token: string }) {
  const lookup = units !== null && TOKEN_REF.test(token) && CHAIN_ID.test(chain);
  const info = useTokenInfo(lookup ? { chain, token } : null);
  return <span className="num">{fmtUnits(units, info.data?.decimals ?? null, info.data?.symbol ?? (info.data?.native ? 'native' : null))}</span>;
}

/** The symbol of a token once looked up, else its shortened address. */
export function TokenSymbol({ chain, token }: { chain: string; token: string }) {
  const lookup = TOKEN_REF.test(token) && CHAIN_ID.test(chain);
  const info = useTokenInfo(lookup ? { chain, token } : null);
  const fallback = info.data?.native ? 'native token' : token.length > 12 ? `${token.slice(0, 6)}…${token.slice(-4)}` : token || '—';
  return <span title={token}>{info.data?.symbol ?? fallback}</span>;
}
