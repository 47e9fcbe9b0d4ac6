/**
 * The ticket's Chase fields: how many ticks inside the spread it rests, how far the best may run before it
 * gives up, a timeout, an optional cross for the remainder, and what happens to the order at a limit. The
 * side, size and leverage are the ticket's; post-only is stated, not a choice.
 */
import type { MarketView } from '../../../../shared/ipc';
import { fmt } from '../../lib/decimal';
import { TextField } from '../../ui/Field';
import { Segmented } from '../../ui/Segmented';
import type { ChaseCheck, ChaseFields } from './chaseTicket';

type Refused = Partial<Record<'offsetTicks' | 'maxDistance' | 'timeout' | 'takerAfter', string | undefined>>;

export function ChaseSection({ market, side, fields, check, refused, onChange }: { market: MarketView; side: 'BUY' | 'SELL'; fields: ChaseFields; check: ChaseCheck; refused: Refused; onChange: (patch: Partial<ChaseFields>) => void }) {
  const best = side === 'BUY' ? 'bid' : 'ask';
  return (
    <>
      <div className="ticket-row">
        <TextField label="Offset (ticks inside)" inputMode="numeric" value={fields.offsetTicks} onChange={(e) => onChange({ offsetTicks: e.target.value })} error={check.errors.offsetTicks ?? refused.offsetTicks} hint={`0 = at the best ${best} · tick ${market.tick_size}`} />
        <TextField
          label="Max distance (optional)"
          inputMode="decimal"
          value={fields.maxDistance}
          onChange={(e) => onChange({ maxDistance: e.target.value })}
          placeholder="0.5% or 25"
          error={(fields.maxDistance ? check.errors.maxDistance : undefined) ?? refused.maxDistance}
          hint={check.maxDistanceNow ? `≈ ${fmt(check.maxDistanceNow)} from the start` : 'A percent or a price; none: no limit'}
        />
      </div>
      <div className="ticket-row">
        <TextField label="Timeout (optional)" value={fields.timeout} onChange={(e) => onChange({ timeout: e.target.value })} placeholder="5m" error={(fields.timeout ? check.errors.timeout : undefined) ?? refused.timeout} hint="30s, 5m, 1h; none: until it fills" />
        <TextField label="Cross after (optional)" value={fields.takerAfter} onChange={(e) => onChange({ takerAfter: e.target.value })} placeholder="2m" error={(fields.takerAfter ? check.errors.takerAfter : undefined) ?? refused.takerAfter} hint="Then IOC for the rest, taker fee" />
      </div>
      <div className="field">
        <span className="field-label" aria-hidden="true">
          At the max distance or timeout
        </span>
        <Segmented<'leave' | 'cancel'>
          label="At the max distance or timeout"
          size="sm"
          value={fields.onLimit}
          onChange={(onLimit) => onChange({ onLimit })}
          options={[
            { value: 'leave', label: 'Leave order', name: 'Leave the order resting' },
            { value: 'cancel', label: 'Cancel order', name: 'Cancel the order' },
          ]}
        />
      </div>
      <p className="ticket-note">
        Post-only (ALO): rests at the best {best}
        {fields.offsetTicks !== '0' && fields.offsetTicks !== '' ? `, ${fields.offsetTicks} ticks inside` : ''} and follows it by Modify, whole ticks, at most once a second, until it fills (maker fee). Run by the app, in the tray too; stop it from the Chase tab.
      </p>
    </>
  );
}
