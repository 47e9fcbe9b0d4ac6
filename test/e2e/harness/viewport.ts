/**
 * "Reachable without scrolling sideways", as an assertion: a control is inside the window, not clipped by
 * any scrolling or clipping box around it, not covered by anything (a toast, a sticky header, a drawer),
 * and neither the page nor any box around it had to scroll sideways to show it. Vertical scrolling of a
 * long view (Settings) is allowed when asked for: then the nearest boxes scroll it into view vertically
 * only, and the test still fails if a sideways scroll would have been needed.
 */
import { expect, type Locator } from '@playwright/test';

export interface ReachOptions {
  /** 'vertical': a long view may scroll up or down to it first. Default 'none': in view as the window opens. */
  scroll?: 'none' | 'vertical';
}

// The page's DOM, as far as the check below uses it (the tests compile without the DOM library).
interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}
interface PageElement {
  tagName: string;
  id: string;
  className: unknown;
  parentElement: PageElement | null;
  scrollTop: number;
  scrollLeft: number;
  scrollHeight: number;
  clientHeight: number;
  getBoundingClientRect(): Rect;
  contains(other: PageElement): boolean;
}
interface PageGlobals {
  getComputedStyle(el: PageElement): { overflowX: string; overflowY: string; contain: string };
  scrollX: number;
  innerWidth: number;
  innerHeight: number;
  document: { documentElement: { scrollWidth: number }; elementFromPoint(x: number, y: number): PageElement | null };
}

interface Reach {
  box: { left: number; top: number; right: number; bottom: number };
  viewport: { width: number; height: number };
  /** Boxes around the control that cut part of it off (their description). */
  clippedBy: string[];
  /** What is on top at the control's centre when it is not the control itself. */
  coveredBy: string | null;
  /** Boxes (or the page) scrolled sideways, or wider than the window. */
  sideways: string[];
}

export async function expectReachable(locator: Locator, options: ReachOptions = {}): Promise<void> {
  await expect(locator).toBeVisible();
  const reach = await locator.evaluate((node, scroll: 'none' | 'vertical'): Reach => {
    const el = node as unknown as PageElement;
    const { getComputedStyle, document } = globalThis as unknown as PageGlobals;
    const window = globalThis as unknown as PageGlobals;
    const describe = (n: PageElement) => `${n.tagName.toLowerCase()}${n.id ? `#${n.id}` : ''}${typeof n.className === 'string' && n.className ? `.${n.className.trim().split(/\s+/).join('.')}` : ''}`;
    if (scroll === 'vertical') {
      // Scroll each vertically scrolling box around it just enough, innermost first; never sideways.
      for (let n = el.parentElement; n; n = n.parentElement) {
        const style = getComputedStyle(n);
        if (!/(auto|scroll)/.test(style.overflowY) || n.scrollHeight <= n.clientHeight) continue;
        const r = el.getBoundingClientRect();
        const p = n.getBoundingClientRect();
        if (r.bottom > p.bottom) n.scrollTop += r.bottom - p.bottom + 8;
        else if (r.top < p.top) n.scrollTop -= p.top - r.top + 8;
      }
    }
    const r = el.getBoundingClientRect();
    const clippedBy: string[] = [];
    const sideways: string[] = [];
    for (let n = el.parentElement; n; n = n.parentElement) {
      const style = getComputedStyle(n);
      if (n.scrollLeft !== 0) sideways.push(`${describe(n)} scrolled ${n.scrollLeft}px sideways`);
      const clips = style.overflowX !== 'visible' || style.overflowY !== 'visible' || /paint|strict|content/.test(style.contain);
      if (!clips) continue;
      const p = n.getBoundingClientRect();
      // Half a pixel of rounding is not a clip.
      if (r.left < p.left - 0.5 || r.right > p.right + 0.5 || r.top < p.top - 0.5 || r.bottom > p.bottom + 0.5) clippedBy.push(describe(n));
    }
    if (window.scrollX !== 0) sideways.push(`the page scrolled ${window.scrollX}px sideways`);
    if (document.documentElement.scrollWidth > window.innerWidth) sideways.push(`the page is ${document.documentElement.scrollWidth}px wide in a ${window.innerWidth}px window`);
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const coveredBy = top && (top === el || el.contains(top)) ? null : top ? describe(top) : 'nothing (outside the window)';
    return { box: { left: r.left, top: r.top, right: r.right, bottom: r.bottom }, viewport: { width: window.innerWidth, height: window.innerHeight }, clippedBy, coveredBy, sideways };
  }, options.scroll ?? 'none');
  const name = locator.toString();
  expect(reach.box.left, `${name}: left edge inside the window`).toBeGreaterThanOrEqual(0);
  expect(reach.box.top, `${name}: top edge inside the window`).toBeGreaterThanOrEqual(0);
  expect(reach.box.right, `${name}: right edge inside the ${reach.viewport.width}px window`).toBeLessThanOrEqual(reach.viewport.width);
  expect(reach.box.bottom, `${name}: bottom edge inside the ${reach.viewport.height}px window`).toBeLessThanOrEqual(reach.viewport.height);
  expect(reach.clippedBy, `${name}: not cut off by a box around it`).toEqual([]);
  expect(reach.coveredBy, `${name}: nothing on top of it`).toBeNull();
  expect(reach.sideways, `${name}: nothing scrolled sideways`).toEqual([]);
}
