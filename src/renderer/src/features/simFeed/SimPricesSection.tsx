/**
 * Settings → Simulator prices: "Simulated" (the simulator's own random walk) or "Live from the venue at
 * URL" (its public market data; trading stays paper). Saving restarts the simulator so the choice
 * applies at once; its state (accounts, orders, positions) is saved and reloaded. Shows the feed as it
 * is and the markets that keep the walk because the venue does not list them.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SimPrices } from '../../../../shared/ipc';
import { VENUE_INFO_URL_EXAMPLE, isVenueInfoUrl } from '../../../../shared/venueInfoUrl';
import { perps, unwrap } from '../../ipc/client';
import { useProfile } from '../../ipc/queries';
import { Badge } from '../../ui/Badge';
import { Button } from '../../ui/Button';
import { TextField } from '../../ui/Field';
import { KV, KVList, Panel } from '../../ui/Panel';
import { ErrorLine, ErrorState, Loading } from '../../ui/States';
import { pushToast } from '../../ui/toast';
import { simFeedKey, simPricesKey, useSimFeed, useSimPrices } from './simFeedQueries';

export function SimPricesSection() {
  const prices = useSimPrices();
  return (
    <Panel title="Simulator prices">
      <div className="section">
        {prices.isPending && <Loading />}
        {prices.error && <ErrorState error={prices.error} onRetry={() => void prices.refetch()} />}
        {prices.data && <SimPricesForm key={JSON.stringify(prices.data)} saved={prices.data} />}
      </div>
    </Panel>
  );
}

function SimPricesForm({ saved }: { saved: SimPrices }) {
  const client = useQueryClient();
  const profile = useProfile();
  const [source, setSource] = useState<SimPrices['source']>(saved.source);
  const [url, setUrl] = useState(saved.source === 'venue' ? saved.info_url : '');
  const [touched, setTouched] = useState(false);
  const save = useMutation({
    mutationFn: (p: SimPrices) => unwrap(perps().settings.setSimPrices(p)),
    onSuccess: (p) => {
      client.setQueryData(simPricesKey, p);
      void client.invalidateQueries({ queryKey: simFeedKey });
      pushToast({ tone: 'success', title: 'Simulator prices saved', body: p.source === 'venue' ? `Live from ${p.info_url}` : 'Simulated' });
    },
  });
  const trimmed = url.trim();
  const urlError = source === 'venue' && touched && !isVenueInfoUrl(trimmed) ? `An http or https URL, such as ${VENUE_INFO_URL_EXAMPLE}` : undefined;
  const next: SimPrices = source === 'venue' ? { source, info_url: trimmed } : { source };
  const unchanged = JSON.stringify(next) === JSON.stringify(saved);
  const onSim = profile.data?.active === 'sim';
  return (
    <form
      className="stack"
      aria-label="Simulator prices"
      onSubmit={(e) => {
        e.preventDefault();
        setTouched(true);
        if (source === 'venue' && !isVenueInfoUrl(trimmed)) return;
        save.mutate(next);
      }}
    >
      <fieldset className="radio-group">
        <legend>Prices</legend>
        <label className="radio-row">
          <input type="radio" name="sim-prices" value="simulated" checked={source === 'simulated'} onChange={() => setSource('simulated')} />
          Simulated
        </label>
        <label className="radio-row">
          <input type="radio" name="sim-prices" value="venue" checked={source === 'venue'} onChange={() => setSource('venue')} />
          Live from the venue at
        </label>
        <TextField
          label="Venue info URL"
          placeholder={VENUE_INFO_URL_EXAMPLE}
          value={url}
          disabled={source !== 'venue'}
          onChange={(e) => setUrl(e.target.value)}
          onBlur={() => setTouched(true)}
          error={urlError}
          hint="Its public market data only (no key). Orders, positions and funds stay paper."
          spellCheck={false}
        />
      </fieldset>
      <FeedStatus />
      <p className="sim-prices-note">
        {onSim ? 'Saving restarts the simulator; your paper accounts, orders and positions are kept.' : 'Applies when the simulator profile is opened.'} Fills take the book as
        displayed: no queue position, no market impact.
      </p>
      {save.error && <ErrorLine error={save.error} />}
      <div className="actions">
        <Button type="submit" variant="primary" busy={save.isPending} disabled={unchanged || save.isPending}>
          Save prices
        </Button>
      </div>
    </form>
  );
}

function FeedStatus() {
  const feed = useSimFeed().data;
  if (!feed) return null;
  return (
    <KVList label="Simulator feed">
      <KV k="Now">
        {feed.source === 'simulated' ? (
          <Badge tone="warn">simulated</Badge>
        ) : feed.feed === 'down' ? (
          <Badge tone="sell">venue not answering</Badge>
        ) : (
          <Badge tone="buy">live</Badge>
        )}{' '}
        {feed.source === 'venue' ? feed.info_url : ''}
      </KV>
      {feed.error && <KV k="Why">{feed.error}</KV>}
      {feed.walking.length > 0 && (
        <KV k="Simulated walk">
          {feed.walking.map((w) => `${w.venue_symbol} (${w.reason})`).join(', ')}
        </KV>
      )}
    </KVList>
  );
}
