/**
 * How far the Portfolio view's read is (issue 36: a long read showed nothing for up to two minutes). Main
 * walks every page of every market and pushes `portfolioProgress` as it goes (at most five times a
 * second); the view shows the markets, pages and records read so far against the time spent and the
 * read's deadline, with Cancel (portfolio:cancel: main stops asking the service at once).
 *
 * The counts are plain text beside a status line that only says a read is running: a live region that
 * spoke every count five times a second would drown a screen reader; the counts are there to read.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { PortfolioProgressEvent } from '../../../../shared/ipc';
import type { PortfolioRange } from '../../../../shared/portfolio/ranges';
import { Button } from '../../ui/Button';

export const portfolioProgressKey = ['portfolio', 'progress'] as const;

/** The latest progress event main pushed (any range). */
export function putPortfolioProgress(client: QueryClient, p: PortfolioProgressEvent): void {
  client.setQueryData<PortfolioProgressEvent>(portfolioProgressKey, p);
}

/** Filled only by main's events (never fetched). */
export function usePortfolioProgress() {
  return useQuery<PortfolioProgressEvent | null>({ queryKey: portfolioProgressKey, queryFn: () => null, enabled: false, staleTime: Infinity });
}

const seconds = (ms: number): string => `${Math.floor(ms / 1000)} s`;
const count = (n: number): string => n.toLocaleString('en-US');

export function PortfolioReadProgress({ range, onCancel, cancelling }: { range: PortfolioRange; onCancel: () => void; cancelling: boolean }) {
  const progress = usePortfolioProgress().data;
  // Counts once the markets are known (the first event of a read has none yet).
  const p = progress && progress.range === range && progress.state === 'reading' && progress.markets > 0 ? progress : null;
  return (
    <div className="portfolio-progress notice" aria-label="Portfolio read">
      <p role="status" className="portfolio-progress-title">
        <strong>Reading every page of the account’s history…</strong>
      </p>
      {p ? (
        <>
          <progress className="portfolio-progress-bar" max={Math.max(1, p.markets)} value={p.markets_read} aria-label={`Markets read: ${p.markets_read} of ${p.markets}`} />
          <p className="portfolio-progress-counts num" aria-label="Read so far">
            {p.markets_read} of {p.markets} markets · {count(p.pages)} pages · {count(p.rows)} records · {seconds(p.elapsed_ms)} of {seconds(p.deadline_ms)} allowed
          </p>
        </>
      ) : (
        <p className="portfolio-progress-counts faint">Starting…</p>
      )}
      <Button size="sm" variant="secondary" busy={cancelling} onClick={onCancel}>
        Cancel reading
      </Button>
    </div>
  );
}
