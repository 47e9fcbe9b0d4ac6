/**
 * The announcer behind the app's live region (ui/announcer.ts) and the toasts that feed it: text folded to
 * one line, polite and assertive kept apart, the same words twice still a change (so they are read twice),
 * and a toast asked to announce speaks once per arrival while a plain toast says nothing through it.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

type Announcer = typeof import('../../../src/renderer/src/ui/announcer.js');
type Toasts = typeof import('../../../src/renderer/src/ui/toastStore.js');
let announcer: Announcer;
let toasts: Toasts;

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  announcer = await import('../../../src/renderer/src/ui/announcer.js');
  toasts = await import('../../../src/renderer/src/ui/toastStore.js');
});

describe('announce', () => {
  it('puts polite and assertive text in their own regions, whitespace folded', () => {
    announcer.announce('Filled buy · ETH.\n 1 ETH   @ 3,400');
    expect(announcer.currentAnnouncement()).toEqual({ polite: 'Filled buy · ETH. 1 ETH @ 3,400', assertive: '' });
    announcer.announce('Liquidation risk · ETH', 'assertive');
    expect(announcer.currentAnnouncement()).toEqual({ polite: 'Filled buy · ETH. 1 ETH @ 3,400', assertive: 'Liquidation risk · ETH' });
  });

  it('changes the text for the same words again, so a screen reader reads the repeat', () => {
    const seen: string[] = [];
    announcer.subscribeAnnouncements(() => seen.push(announcer.currentAnnouncement().polite));
    announcer.announce('Filled buy · ETH');
    announcer.announce('Filled buy · ETH');
    announcer.announce('Filled buy · ETH');
    expect(seen).toHaveLength(3);
    expect(seen[0]).not.toBe(seen[1]);
    expect(seen[1]).not.toBe(seen[2]);
    expect(seen.map((s) => s.replace(/\u200b/g, ''))).toEqual(['Filled buy · ETH', 'Filled buy · ETH', 'Filled buy · ETH']);
  });

  it('ignores empty text', () => {
    announcer.announce('   ');
    expect(announcer.currentAnnouncement()).toEqual({ polite: '', assertive: '' });
  });
});

describe('toasts that announce', () => {
  it('speak title and body at their politeness on every arrival, a repeat included', () => {
    toasts.pushToast({ tone: 'success', title: 'Filled buy · ETH', body: '1 ETH @ 3,400', announce: 'polite' });
    expect(announcer.currentAnnouncement().polite).toBe('Filled buy · ETH. 1 ETH @ 3,400');
    toasts.pushToast({ tone: 'success', title: 'Filled buy · ETH', body: '1 ETH @ 3,400', announce: 'polite' });
    expect(toasts.currentToasts()).toHaveLength(1);
    expect(announcer.currentAnnouncement().polite).toBe('Filled buy · ETH. 1 ETH @ 3,400\u200b');
    toasts.pushToast({ tone: 'warn', title: 'Liquidation risk · ETH', body: 'Add margin.', announce: 'assertive' });
    expect(announcer.currentAnnouncement().assertive).toBe('Liquidation risk · ETH. Add margin.');
  });

  it('a plain toast says nothing through the announcer', () => {
    toasts.pushToast({ tone: 'success', title: 'CSV exported' });
    expect(announcer.currentAnnouncement()).toEqual({ polite: '', assertive: '' });
  });
});
