/**
 * The fat-finger guard in a review (src/shared/orders/priceGuard.ts): each confirmation an order or a close
 * trips (FAR_PRICE, LARGE_ORDER) is shown prominently with what is unusual about it, and the person ticks
 * each one before the action enables. The acting channel then names exactly the ticked codes.
 */
import type { ConfirmationCode, ReviewConfirmation } from '../../../../shared/ipc';
import { Checkbox } from '../../ui/Field';

const TITLES: Record<ConfirmationCode, { title: string; confirm: string }> = {
  FAR_PRICE: { title: 'Price far from the mark', confirm: 'I checked the price: place it anyway' },
  LARGE_ORDER: { title: 'Above your order-size cap', confirm: 'I checked the size: place it anyway' },
};

export function GuardConfirmations({ confirmations, confirmed, onChange, disabled }: { confirmations: readonly ReviewConfirmation[]; confirmed: ReadonlySet<ConfirmationCode>; onChange: (next: Set<ConfirmationCode>) => void; disabled?: boolean }) {
  if (confirmations.length === 0) return null;
  return (
    <div className="guards" role="group" aria-label="Confirmations needed">
      {confirmations.map((c) => (
        <section key={c.code} className="guard" aria-label={TITLES[c.code].title}>
          <h3 className="guard-title">
            <span aria-hidden="true">⚠</span> {TITLES[c.code].title} <code className="err-code">{c.code}</code>
          </h3>
          <p className="guard-message">{c.message}</p>
          <Checkbox
            label={`${TITLES[c.code].confirm} (${c.code})`}
            checked={confirmed.has(c.code)}
            disabled={disabled}
            onChange={(e) => {
              const next = new Set(confirmed);
              if (e.target.checked) next.add(c.code);
              else next.delete(c.code);
              onChange(next);
            }}
          />
        </section>
      ))}
    </div>
  );
}

/** Every confirmation ticked: the action may go ahead. */
export function allConfirmed(confirmations: readonly ReviewConfirmation[], confirmed: ReadonlySet<ConfirmationCode>): boolean {
  return confirmations.every((c) => confirmed.has(c.code));
}

/** The codes to send: the review's own, in its order, each of them ticked. */
export function confirmedCodes(confirmations: readonly ReviewConfirmation[], confirmed: ReadonlySet<ConfirmationCode>): ConfirmationCode[] {
  return confirmations.filter((c) => confirmed.has(c.code)).map((c) => c.code);
}
