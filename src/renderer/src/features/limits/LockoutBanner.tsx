/**
 * The lockout banner (issue 39 item 3): a daily loss or drawdown limit broke, so opening orders are
 * refused until the next reset; reduce-only orders and closes still pass. Says which limit, when it ends,
 * and how to end it early (a loosening: after the cool-down).
 */
import { goTo } from '../../app/uiStore';
import { useWallet } from '../../ipc/queries';
import { useLimits } from './limitsQueries';

function when(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** Whether the banner shows (the frame gives the banners a row of their own then). */
export function useLockoutShown(): boolean {
  const wallet = useWallet();
  return Boolean(useLimits(Boolean(wallet.data?.address)).data?.lockout);
}

export function LockoutBanner() {
  const wallet = useWallet();
  const limits = useLimits(Boolean(wallet.data?.address)).data;
  if (!limits?.lockout) return null;
  const unlock = limits.pending.find((p) => p.limit === 'lockout');
  return (
    <div className="feed-banner feed-banner-down lockout-banner" role="alert" aria-label="Opening orders locked">
      <strong className="feed-banner-title">Opening orders locked until {when(limits.lockout.until)}</strong>
      <span>
        {limits.lockout.reason}. Reduce-only orders and closes still pass.{unlock ? ` Ending early is pending until ${when(unlock.effective_at)}.` : ''}
      </span>
      <button type="button" className="link-btn" onClick={() => goTo('settings')}>
        Limits
      </button>
    </div>
  );
}
