/**
 * The app's one notification boundary (issue 36, item 9): a title or body carrying text from the service,
 * a device or a file (a fill's dir, an alert's note) reaches the desktop notification with no control or
 * bidi character, the title on one line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../src/main/app/session.js';
import { AppHarness } from './appHarness.js';

describe('notifications carry no control or bidi character', () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await AppHarness.start('safe-notices');
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('a hostile fill dir and alert note are shown clean', () => {
    const session = (h.core as unknown as { session: Session }).session;
    const before = h.notifications.length;
    session.notify('fills', 'Order filled\n\x1b]0;pwned\x07', 'Open Long\x1b[2J\x1b]52;c;ZXZpbA==\x07\r\x1b[1Asigned OK\u202E 0.5 ETH at 2500');
    session.notify('alerts', 'Alert: ETH above 2,600', 'ETH is 2,601\nnote: \u2066buy\u2069\x9b2J');
    const shown = h.notifications.slice(before);
    expect(shown).toEqual([
      { title: 'Order filled ]0;pwned', body: 'Open Long[2J]52;c;ZXZpbA==[1Asigned OK 0.5 ETH at 2500' },
      { title: 'Alert: ETH above 2,600', body: 'ETH is 2,601\nnote: buy2J' },
    ]);
  });
});
