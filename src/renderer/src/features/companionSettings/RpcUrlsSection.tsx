/**
 * The JSON-RPC URL of each EVM chain: where balances are read and bridge/swap transactions are sent.
 * Edit stores a URL; Clear forgets the stored one (an environment variable or the simulator's still apply).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { CompanionSettingsView } from '../../../../shared/ipc';
import { useUi } from '../../app/uiStore';
import { perps, unwrap } from '../../ipc/client';
import { cqk } from '../../ipc/companionQueries';
import { Button } from '../../ui/Button';
import { ErrorLine } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { UrlCell, UrlSourceBadge } from './UrlCell';

type Chain = CompanionSettingsView['chains'][number];

export function RpcUrlsSection({ chains }: { chains: Chain[] }) {
  const client = useQueryClient();
  const focus = useUi((s) => s.rpcFocus);
  /** The chain whose URL is being edited. */
  const [editing, setEditing] = useState<string | null>(null);
  const rowRefs = useRef(new Map<string, HTMLTableRowElement>());
  const save = useMutation({
    mutationFn: (v: { chain: string; url: string | null }) => unwrap(perps().companion.setRpcUrl(v)),
    onSuccess: (s, v) => {
      client.setQueryData(cqk.settings, s);
      void client.invalidateQueries({ queryKey: cqk.tokenInfoAll });
      setEditing(null);
      pushToast({ tone: 'success', title: v.url === null ? `RPC URL for ${v.chain} cleared` : `RPC URL for ${v.chain} saved` });
    },
  });

  // Another view asked to set one chain's URL: open that row for editing and bring it into view.
  useEffect(() => {
    if (!focus) return;
    const c = chains.find((x) => x.chain === focus.chain);
    if (!c || !c.evm) return;
    setEditing(c.chain);
    rowRefs.current.get(c.chain)?.scrollIntoView({ block: 'center' });
    // Keyed on the request only: a later settings refresh must not reopen the editor.
  }, [focus?.seq]);

  return (
    <section className="stack" aria-labelledby="rpc-urls-title">
      <h3 id="rpc-urls-title">JSON-RPC URLs</h3>
      <p className="muted">Where balances are read and bridge or swap transactions are sent, per chain. Each must serve that chain’s EIP-155 id.</p>
      <table className="dt" aria-label="JSON-RPC URLs">
        <thead>
          <tr>
            <th scope="col">Chain</th>
            <th scope="col">URL</th>
            <th scope="col">Source</th>
            <th scope="col" />
          </tr>
        </thead>
        <tbody>
          {chains.map((c) => {
            const isEditing = editing === c.chain;
            return (
              <tr
                key={c.chain}
                aria-label={`RPC ${c.chain}`}
                className={isEditing ? 'row-edit' : undefined}
                ref={(el) => {
                  if (el) rowRefs.current.set(c.chain, el);
                  else rowRefs.current.delete(c.chain);
                }}
              >
                <td>
                  <span className="strong">{c.chain}</span>
                  {c.evm_chain_id && <span className="faint"> · {c.evm_chain_id}</span>}
                </td>
                <td className="url-cell">
                  {c.evm ? (
                    <UrlCell
                      url={c.rpc_url}
                      editing={isEditing}
                      label={`JSON-RPC URL for ${c.chain}`}
                      applyLabel={`Apply RPC URL for ${c.chain}`}
                      initial={c.rpc_source === 'stored' ? c.rpc_url ?? '' : ''}
                      onApply={(url) => save.mutate({ chain: c.chain, url })}
                      onCancel={() => setEditing(null)}
                      onType={() => save.reset()}
                      applying={save.isPending}
                      error={save.variables?.chain === c.chain ? save.error : null}
                    />
                  ) : (
                    <span className="faint">not an EVM chain (no RPC)</span>
                  )}
                </td>
                <td>{c.evm && <UrlSourceBadge source={c.rpc_source} />}</td>
                <td className="r">
                  {c.evm && !isEditing && (
                    <div className="dt-actions">
                      <Button size="sm" variant="ghost" aria-label={`Edit RPC URL for ${c.chain}`} onClick={() => setEditing(c.chain)}>
                        Edit
                      </Button>
                      {c.rpc_source === 'stored' && (
                        <Button size="sm" variant="ghost" aria-label={`Clear RPC URL for ${c.chain}`} busy={save.isPending && save.variables?.chain === c.chain && save.variables.url === null} onClick={() => save.mutate({ chain: c.chain, url: null })}>
                          Clear
                        </Button>
                      )}
                    </div>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {save.error && !editing && <ErrorLine error={save.error} />}
    </section>
  );
}
