/**
 * The TWAP's clock never runs backwards. The service clock is the local clock plus an offset re-measured
 * every few seconds from the server's timestamps; a re-measure can move it back by a few milliseconds
 * (half a round trip of error). A slice is sent once the clock reaches its due time and its sent_at is
 * read after that: with a clock that went back in between, sent_at came out before due_at (slices 4.899 s
 * apart on a 5 s schedule).
 */
import { describe, expect, it } from 'vitest';
import { serviceTwapClock } from '../../../src/main/services/algos/twap/twapRunner.js';

describe('serviceTwapClock', () => {
  it('never returns a time earlier than one it returned before', async () => {
    const readings = [10_000, 10_050, 9_990, 10_020, 10_200];
    let i = 0;
    const clock = serviceTwapClock({ clock: { now: async () => readings[i++]! } as never, sleep: async () => undefined });
    const seen: number[] = [];
    for (let n = 0; n < readings.length; n++) seen.push(await clock.now());
    expect(seen).toEqual([10_000, 10_050, 10_050, 10_050, 10_200]);
  });
});
