/**
 * Main keeps the vault (the OS keychain) closed when a packaged Perps Desk was started with a way for
 * another program to drive it (remote debugging, an inspector, NODE_OPTIONS loading code; see
 * src/main/shell/debugAccess.ts). Then nothing can be signed with a stored key, and this screen says
 * why and what to do instead of letting the user walk into refusals one by one.
 */
import type { ReactNode } from 'react';
import { useAppInfo } from '../../ipc/queries';

export function VaultGuard({ children }: { children: ReactNode }) {
  const info = useAppInfo();
  const closed = info.data?.vault_closed ?? null;
  if (closed === null) return <>{children}</>;
  return (
    <main className="onb">
      <div className="onb-card">
        <div className="state state-error" role="alert" aria-label="The vault is closed">
          <p className="state-title">The vault is closed</p>
          <div className="state-text">{closed}</div>
        </div>
      </div>
    </main>
  );
}
