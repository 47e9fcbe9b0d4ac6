/**
 * The banner of a simulator following a real venue when its prices are not live: the venue stopped
 * answering (marks frozen, triggers, liquidations and new orders on its markets paused until it answers
 * again, which the simulator notices by itself), or following could not start (prices are simulated),
 * or some markets are paused on their own while the feed is live (issue 26): a move beyond the
 * plausibility band is held until confirmed, or a value failed the price rules and froze its market.
 * Nothing shows while every market follows or the prices are simulated by choice.
 */
import { goTo } from '../../app/uiStore';
import { useSimFeed } from './simFeedQueries';

function timeOf(ms: number): string {
  return new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}

export function SimFeedBanner() {
  const feed = useSimFeed().data;
  if (!feed) return null;
  if (feed.source === 'venue' && feed.feed === 'down') {
    return (
      <div className="feed-banner feed-banner-down" role="alert" aria-label="Live prices paused">
        <strong className="feed-banner-title">Live prices paused</strong>
        <span>
          The venue at <span className="mono">{feed.info_url}</span> has not answered since {feed.down_since !== null ? timeOf(feed.down_since) : 'a moment ago'}. Marks are frozen; triggers,
          liquidations and new orders on its markets wait. Following resumes by itself when it answers.
        </span>
      </div>
    );
  }
  if (feed.source === 'venue' && feed.paused_markets.length > 0) {
    const frozen = feed.paused_markets.some((m) => m.state === 'frozen');
    return (
      <div className={`feed-banner ${frozen ? 'feed-banner-down' : 'feed-banner-error'} feed-banner-markets`} role="alert" aria-label="Live prices held">
        <strong className="feed-banner-title">{frozen ? 'Prices frozen' : 'Prices held'}</strong>
        <span>
          {feed.paused_markets.map((m) => (
            <span key={m.venue_symbol} className="feed-banner-market">
              <strong>{m.venue_symbol}</strong> {m.state} since {timeOf(m.since)}: {m.reason}.{' '}
            </span>
          ))}
          {frozen ? 'A market is frozen until the venue sends a valid value' : 'A move beyond the band is used once the venue confirms it'}; meanwhile its mark stays and triggers,
          liquidations and new orders on it wait.
        </span>
      </div>
    );
  }
  if (feed.error) {
    return (
      <div className="feed-banner feed-banner-error" role="alert" aria-label="Live prices unavailable">
        <strong className="feed-banner-title">Live prices unavailable</strong>
        <span>{feed.error}</span>
        <button type="button" className="link-btn" onClick={() => goTo('settings')}>
          Settings
        </button>
      </div>
    );
  }
  return null;
}

/** Whether the banner shows (the frame gives it a row then). */
export function useSimFeedBannerShown(): boolean {
  const feed = useSimFeed().data;
  return !!feed && ((feed.source === 'venue' && (feed.feed === 'down' || feed.paused_markets.length > 0)) || feed.error !== null);
}
