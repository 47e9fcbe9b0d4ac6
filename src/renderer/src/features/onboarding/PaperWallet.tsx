/**
 * The simulator's one-click start: "Create a paper wallet" makes a throwaway main wallet (its key kept in
 * the OS keychain, usable on the simulator only), has it authorize a trading key, funds the account from
 * the faucet, and hands over to the terminal. Offered on the simulator profile only (the caller checks).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PaperWalletResult } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { qk } from '../../ipc/queries';
import { fmtUsd } from '../../lib/decimal';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { ErrorLine } from '../../ui/States';

export function PaperWallet({ onDone }: { onDone: (r: PaperWalletResult) => void }) {
  const client = useQueryClient();
  const create = useMutation({
    mutationFn: () => unwrap(perps().wallet.createPaper({})),
    onSuccess: (r) => {
      client.setQueryData(qk.wallet, r.wallet);
      // A new wallet: its keys, balance and history replace whatever was cached for another one.
      void client.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'app' && q.queryKey[0] !== 'wallet' });
      onDone(r);
    },
    // The wallet is connected before its key is authorized and funded: after a later failure the wallet
    // step offers to continue with it (the key and fund steps) rather than making another.
    onError: () => void client.invalidateQueries({ queryKey: qk.wallet }),
  });
  return (
    <section className="paper-start" aria-labelledby="paper-start-title">
      <div className="stack">
        <h2 id="paper-start-title" className="row">
          Start paper trading now <Badge tone="warn">Simulator only</Badge>
        </h2>
        <p className="muted">
          One click makes a throwaway paper wallet on this computer (its key stays in the operating system’s keychain and signs nothing outside
          the simulator), authorizes a trading key with it and funds it with test USDC from the faucet.
        </p>
        {create.isPending && (
          <p className="notice notice-info" role="status">
            Creating the paper wallet, authorizing its trading key and waiting for the test USDC to be credited…
          </p>
        )}
        {create.error && <ErrorLine error={create.error} />}
        {create.data && (
          <p className="notice notice-info" role="status">
            Paper wallet ready with {fmtUsd(create.data.free_balance)} test USDC.
          </p>
        )}
      </div>
      <div className="actions">
        <Button variant="primary" size="lg" busy={create.isPending} onClick={() => create.mutate()}>
          Create a paper wallet
        </Button>
      </div>
    </section>
  );
}
