/** Chain rows of the companion settings, and how the pickers present them. */
import type { CompanionSettingsView } from '../../../../shared/ipc';
import { IpcQueryError } from '../../ipc/client';

export type ChainRow = CompanionSettingsView['chains'][number];

export const RPC_SOURCE_TEXT: Record<ChainRow['rpc_source'], string> = {
  stored: 'stored in settings',
  environment: 'from the environment',
  simulator: 'the simulator',
  unset: 'not set',
};

/** A chain the app can send from: an EVM chain (the main wallet signs its transaction there). */
export const canSendFrom = (c: ChainRow): boolean => c.evm;
export const hasRpc = (c: ChainRow | undefined): boolean => Boolean(c && c.rpc_url && c.rpc_source !== 'unset');
/** An EVM chain the app cannot read or send on until its JSON-RPC URL is set. */
export const lacksRpc = (c: ChainRow | undefined): boolean => c !== undefined && c.evm && !hasRpc(c);
/** Main refused because of a chain's JSON-RPC URL (missing, unreachable, or serving another chain). */
export const isRpcError = (err: unknown): boolean => err instanceof IpcQueryError && /RPC/i.test(`${err.code} ${err.field ?? ''}`);

/** Select options for a chain picker; the source side marks chains with no RPC URL and refuses non-EVM ones. */
export function chainOptions(chains: readonly ChainRow[], side: 'source' | 'destination'): { value: string; label: string; disabled?: boolean }[] {
  return chains.map((c) => {
    if (side === 'source' && !canSendFrom(c)) return { value: c.chain, label: `${c.chain} — not an EVM chain, cannot send from it`, disabled: true };
    const marks = [side === 'source' && c.evm && !hasRpc(c) ? 'no RPC URL set' : null, !c.evm ? 'venue spot' : null].filter(Boolean);
    return { value: c.chain, label: marks.length ? `${c.chain} — ${marks.join(', ')}` : c.chain };
  });
}

/** A default source: the first EVM chain with an RPC URL (else the first EVM chain). */
export function defaultSource(chains: readonly ChainRow[], prefer?: string): string {
  const ok = chains.filter((c) => canSendFrom(c));
  return (ok.find((c) => c.chain === prefer && hasRpc(c)) ?? ok.find(hasRpc) ?? ok[0])?.chain ?? '';
}
