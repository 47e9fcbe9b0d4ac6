/**
 * The banner of a simulator following a real venue when its prices are not live: the venue stopped
 * answering (marks frozen, triggers, liquidations and new orders on its markets paused until it answers
 * again, which the simulator notices by itself), or following could not start (prices are simulated).
 * Nothing shows while the feed is live or the prices are simulated by choice.
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
  return !!feed && ((feed.source === 'venue' && feed.feed === 'down') || feed.error !== null);
}
