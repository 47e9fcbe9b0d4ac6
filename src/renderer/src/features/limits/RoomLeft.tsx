/**
 * The header's room left (issue 39 item 5): "Daily loss: 38 of 100 USD left", "Drawdown: 2.1 of 5% left",
 * computed by main from the service's fills and positions. Under a quarter left it turns to a warning,
 * said in words ("(low)") and not by colour alone. A separate component so the header can place it
 * wherever its layout puts account figures.
 */
import { goTo } from '../../app/uiStore';
import { useLimits } from './limitsQueries';

/**
 * Placed twice, shown once (styles/app.css): in the top bar from 1280 px, in the status bar below it,
 * where the top bar has no room beside the nine views and the account's figures (as the wallet chip).
 */
export function RoomLeft({ enabled, placement = 'topbar' }: { enabled: boolean; placement?: 'topbar' | 'statusbar' }) {
  const limits = useLimits(enabled).data;
  if (!limits || (limits.room.length === 0 && !limits.lockout)) return null;
  return (
    <button type="button" className={`link-like room-left ${placement === 'topbar' ? 'topbar-stat room-left-top' : 'room-left-status'}`} onClick={() => goTo('settings')} title="Risk limits: room left today (Settings › Limits)">
      {limits.lockout && <span className="room-item room-warning">Locked</span>}
      {limits.room.map((r) => (
        <span key={r.limit} className={`room-item${r.warning ? ' room-warning' : ''}`} data-testid={`room-${r.limit}`}>
          {r.warning && <span aria-hidden="true">⚠ </span>}
          {r.text}
          {r.warning ? ' (low)' : ''}
        </span>
      ))}
    </button>
  );
}
