/** Choosing the service: the local simulator (paper trading, the default) or mainnet (needs its URLs). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ProfileView } from '../../../../shared/ipc';
import { perps, unwrap } from '../../ipc/client';
import { qk } from '../../ipc/queries';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { ErrorLine } from '../../ui/States';

type Name = ProfileView['active'];

export function ProfileChooser({ profile, onDone, submitLabel = 'Continue' }: { profile: ProfileView; onDone: (p: ProfileView) => void; submitLabel?: string }) {
  const client = useQueryClient();
  const [choice, setChoice] = useState<Name>(profile.active);
  const [baseUrl, setBaseUrl] = useState(profile.mainnet.base_url ?? '');
  const [venueUrl, setVenueUrl] = useState(profile.mainnet.venue_info_url ?? '');
  const [wsUrl, setWsUrl] = useState(profile.mainnet.venue_ws_url ?? '');
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        perps().app.setProfile(
          choice === 'mainnet'
            ? { profile: 'mainnet', mainnet: { base_url: baseUrl.trim(), venue_info_url: venueUrl.trim(), ...(wsUrl.trim() ? { venue_ws_url: wsUrl.trim() } : {}) } }
            : { profile: 'sim' },
        ),
      ),
    onSuccess: (p) => {
      client.setQueryData(qk.profile, p);
      // Another service means other markets, keys and balances.
      void client.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'app' });
      onDone(p);
    },
  });
  const urlError = (v: string, schemes: string[]) => (v.trim() === '' ? undefined : schemes.some((s) => v.trim().startsWith(s + '://')) ? undefined : `Must start with ${schemes.join(' or ')}://`);
  const mainnetReady = choice !== 'mainnet' || (baseUrl.trim() !== '' && venueUrl.trim() !== '' && !urlError(baseUrl, ['http', 'https']) && !urlError(venueUrl, ['http', 'https']) && !urlError(wsUrl, ['ws', 'wss']));
  return (
    <form
      className="stack"
      onSubmit={(e) => {
        e.preventDefault();
        if (mainnetReady) save.mutate();
      }}
    >
      <div role="radiogroup" aria-label="Profile" className="choice-grid">
        <button type="button" role="radio" aria-checked={choice === 'sim'} className="choice" onClick={() => setChoice('sim')}>
          <strong>
            Simulator <Badge tone="warn">Paper trading</Badge>
          </strong>
          <span>
            A faithful local copy of the service runs on this computer. Orders, fills, funding and withdrawals behave as on mainnet, with test
            USDC from a faucet. No real funds are ever at risk. Recommended to start.
          </span>
        </button>
        <button type="button" role="radio" aria-checked={choice === 'mainnet'} className="choice" onClick={() => setChoice('mainnet')}>
          <strong>
            Mainnet <Badge tone="sell">Real funds</Badge>
          </strong>
          <span>The live service. Trades use real USDC deposited from your wallet. Its addresses are not built in: enter them below.</span>
        </button>
      </div>
      {choice === 'sim' && (
        <p className="notice notice-info">
          Signatures made for the simulator use the testnet environment (chain id 998), so they can never be replayed on mainnet.
        </p>
      )}
      {choice === 'mainnet' && (
        <div className="stack">
          <TextField label="Trading API root" placeholder="https://…/api/v1" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} hint="Including the /api/v1 prefix" error={urlError(baseUrl, ['http', 'https'])} />
          <TextField label="Venue info API" placeholder="https://…/info" value={venueUrl} onChange={(e) => setVenueUrl(e.target.value)} error={urlError(venueUrl, ['http', 'https'])} />
          <TextField
            label="Venue WebSocket (optional)"
            placeholder="wss://…/ws"
            value={wsUrl}
            onChange={(e) => setWsUrl(e.target.value)}
            hint="Derived from the info URL when it ends in /info"
            error={urlError(wsUrl, ['ws', 'wss'])}
          />
        </div>
      )}
      {save.error && <ErrorLine error={save.error} />}
      <div className="actions">
        <Button type="submit" variant="primary" disabled={!mainnetReady} busy={save.isPending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
