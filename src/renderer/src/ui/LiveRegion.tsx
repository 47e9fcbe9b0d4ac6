/**
 * The app's live regions, mounted once in the Shell (announcer.ts feeds them): a polite one for fills,
 * order results and alerts, an assertive one for liquidation warnings. Visually hidden: the toasts show
 * the same events on screen. No role, so they never stand in for a toast or a banner found by its role.
 */
import { useSyncExternalStore } from 'react';
import { currentAnnouncement, subscribeAnnouncements } from './announcer';

export function LiveRegion() {
  const now = useSyncExternalStore(subscribeAnnouncements, currentAnnouncement);
  return (
    <div className="visually-hidden">
      <div id="live-polite" aria-live="polite" aria-atomic="true" data-testid="live-polite">
        {now.polite}
      </div>
      <div id="live-assertive" aria-live="assertive" aria-atomic="true" data-testid="live-assertive">
        {now.assertive}
      </div>
    </div>
  );
}
