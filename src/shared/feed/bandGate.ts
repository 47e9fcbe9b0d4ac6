/**
 * The plausibility band of a followed price (issue 26): a value that moves more than the band from the
 * last accepted one in one update is not used at once. It is held, and the market keeps the last
 * accepted value, until a later value decides:
 *
 *   - it is back within the band of the accepted one: the held value was a spike, it is discarded;
 *   - it agrees with the held one (within the band of it) AND comes from the authority (the venue's info
 *     API): the move is real, it is accepted;
 *   - it agrees with the held one but comes from the feed (the WebSocket): still held. A burst of any
 *     length on the feed confirms nothing (issue 36: three socket updates at 100x confirmed a mark the
 *     info API contradicted, and a short was liquidated);
 *   - neither: the newest value is held instead (the hold keeps its start time).
 *
 * So a genuine large move is followed once the info API agrees with it, and a spike the info API
 * contradicts is never used, however often the feed repeats it.
 */
import { Decimal } from '../decimal/decimal.js';

export type BandVerdict =
  /** Within the band of the accepted value (or the first value): use it. */
  | { kind: 'accept' }
  /** Agrees with the held value: the move is confirmed, use it. */
  | { kind: 'confirm'; heldSince: number }
  /** Back within the band of the accepted value: the held one was a spike. */
  | { kind: 'discard'; spike: string }
  /** Moved too far: not used; the market keeps the accepted value. */
  | { kind: 'hold'; since: number; moveFraction: string };

/** Parses a band as a percentage ("10%", "2.5%"): above 0 and below 100. Returns the fraction. */
export function parseBandPercent(text: string): string {
  const m = /^(\d+(?:\.\d+)?)%$/.exec(text.trim());
  if (!m) throw new Error(`the band must be a percentage such as 10%, got ${JSON.stringify(text.slice(0, 40))}`);
  const percent = new Decimal(m[1]!);
  if (percent.lte(0) || percent.gte(100)) throw new Error(`the band must be above 0% and below 100%, got ${text.trim()}`);
  return percent.div(100).toFixed();
}

/** Checks a band given as a fraction (library callers): above 0 and below 1. */
export function checkBandFraction(text: string): string {
  if (!/^0?\.\d+$/.test(text) || new Decimal(text).lte(0)) throw new Error(`the band must be a fraction above 0 and below 1, got ${JSON.stringify(text.slice(0, 40))}`);
  return new Decimal(text).toFixed();
}

/** |to - from| / from. */
export function moveFraction(from: Decimal, to: Decimal): Decimal {
  return to.minus(from).abs().div(from);
}

export function withinBand(reference: Decimal, value: Decimal, band: Decimal): boolean {
  return moveFraction(reference, value).lte(band);
}

export class BandGate {
  private acceptedValue: Decimal | null = null;
  private heldValue: { value: Decimal; since: number } | null = null;
  private readonly band: Decimal;

  constructor(band: string) {
    this.band = new Decimal(band);
  }

  get accepted(): Decimal | null {
    return this.acceptedValue;
  }

  get held(): { value: Decimal; since: number } | null {
    return this.heldValue;
  }

  /** Sets the accepted value without a check (a value that came with one already accepted). */
  setAccepted(value: Decimal): void {
    this.acceptedValue = value;
    this.heldValue = null;
  }

  /**
   * Offers a value. `authoritative`: it comes from the source that may confirm a hold (the info API);
   * a value from the feed can be accepted within the band, or discard a hold, but never confirm one.
   */
  offer(value: Decimal, now: number, authoritative = false): BandVerdict {
    const accepted = this.acceptedValue;
    const held = this.heldValue;
    if (accepted === null) {
      this.setAccepted(value);
      return { kind: 'accept' };
    }
    if (withinBand(accepted, value, this.band)) {
      this.setAccepted(value);
      return held ? { kind: 'discard', spike: held.value.toFixed() } : { kind: 'accept' };
    }
    if (held && authoritative && withinBand(held.value, value, this.band)) {
      this.setAccepted(value);
      return { kind: 'confirm', heldSince: held.since };
    }
    const since = held?.since ?? now;
    this.heldValue = { value, since };
    return { kind: 'hold', since, moveFraction: moveFraction(accepted, value).toFixed() };
  }
}
