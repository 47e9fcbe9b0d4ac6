/**
 * The accessibility audit of a screen: axe-core (through @axe-core/playwright) with the WCAG 2.1 A and AA
 * rules, on the page as it is now (a view, or a view with a dialog or menu open). Every violation's rule
 * and element count is returned and printed, so a run gives the counts per screen; a screen passes when no
 * violation is serious or critical.
 *
 * A rule may be set aside only for one named element, with the reason beside it (EXCEPTIONS below); an
 * exception never hides the element from the other rules.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { REPO_ROOT } from '../../support/paths.js';

/** The WCAG 2.1 level A and AA rules (axe-core's tags). */
export const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

interface RuleException {
  rule: string;
  /** A CSS selector naming the one element the rule is set aside for. */
  selector: string;
  reason: string;
}

/** Rules set aside for a named element, each with its reason. None today: every screen passes as it is. */
export const EXCEPTIONS: readonly RuleException[] = [];

export interface ScreenAudit {
  screen: string;
  /** Elements per rule, serious and critical only ("color-contrast": 3). */
  serious: Record<string, number>;
  /** Elements per rule of the minor and moderate violations (reported, not failed on). */
  minor: Record<string, number>;
  /** The first few failing elements of each serious rule, for the failure message. */
  examples: string[];
  /** Every serious failing element: rule, selector and axe's reason (written to the log, for fixing). */
  failing: string[];
}

/** Where each run's counts are written (one JSON line per screen), for the before/after of a change. */
export const AUDIT_LOG = path.join(REPO_ROOT, 'test-results/a11y/audit.jsonl');

/** Audits the page as it is now; `screen` names it in the counts ("Trade 1440x900 default"). */
export async function auditScreen(page: Page, screen: string): Promise<ScreenAudit> {
  const first = await auditSettled(page, screen);
  if (Object.keys(first.serious).length === 0) return first;
  // Something may have started moving while axe read the page (a toast sliding in after a fill reads as
  // faint text on its way in). A real violation is still there on a second reading; a passing one is not.
  console.log(`a11y ${screen}: read again after the page settles`);
  return auditSettled(page, screen);
}

async function auditSettled(page: Page, screen: string): Promise<ScreenAudit> {
  await settle(page);
  return auditNow(page, screen);
}

/**
 * A just-opened dialog or toast fades in: its colours are read once every finite animation has finished
 * (a spinner's endless one excepted), as the user sees it, not half-transparent; animations that start
 * while waiting are waited for too (a few rounds at most); then one frame for layout.
 */
async function settle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const g = globalThis as unknown as {
      document: { getAnimations(): { finished: Promise<unknown>; effect: { getTiming(): { iterations?: number } } | null }[] };
      requestAnimationFrame: (cb: () => void) => void;
    };
    for (let round = 0; round < 5; round++) {
      const moving = g.document.getAnimations().filter((a) => Number.isFinite(a.effect?.getTiming().iterations ?? 1));
      if (moving.length === 0) break;
      await Promise.all(moving.map((a) => a.finished.catch(() => undefined)));
    }
    await new Promise((r) => g.requestAnimationFrame(() => r(null)));
  });
}

async function auditNow(page: Page, screen: string): Promise<ScreenAudit> {
  const builder = new AxeBuilder({ page }).withTags(WCAG_21_AA).options({ resultTypes: ['violations'] });
  // One frame (the app has no iframes): axe.run in the page itself ("legacy mode"), the same rules on the
  // same elements. The default mode runs each frame's part and then assembles them in a blank page opened
  // for each audit, with axe-core injected there again: 1,017 ms an audit against 336 ms on the 2-core
  // machine of 2026-12-06 (33 audits of the 1440x900 pass; their violation counts were equal screen for
  // screen), about a third of the audit spec's time. A page with frames gets the default mode, which
  // audits inside cross-origin frames too.
  if (page.frames().length === 1) builder.setLegacyMode(true);
  const results = await builder.analyze();
  const audit: ScreenAudit = { screen, serious: {}, minor: {}, examples: [], failing: [] };
  for (const v of results.violations) {
    const nodes = [];
    for (const node of v.nodes) {
      if (await isExcepted(page, v.id, node.target)) continue;
      nodes.push(node);
    }
    if (nodes.length === 0) continue;
    const serious = v.impact === 'serious' || v.impact === 'critical';
    const bucket = serious ? audit.serious : audit.minor;
    bucket[v.id] = (bucket[v.id] ?? 0) + nodes.length;
    if (!serious) continue;
    const described = nodes.map((n) => `${v.id}: ${n.target.join(' ')} :: ${n.failureSummary?.split('\n').slice(1).join(' ').trim() ?? ''}`);
    audit.examples.push(...described.slice(0, 3));
    audit.failing.push(...described);
  }
  const total = Object.values(audit.serious).reduce((a, b) => a + b, 0);
  const rules = Object.entries(audit.serious)
    .map(([rule, n]) => `${rule} ${n}`)
    .join(', ');
  console.log(`a11y ${screen}: ${total === 0 ? 'no serious or critical violation' : `${total} serious/critical (${rules})`}${Object.keys(audit.minor).length ? `; minor ${JSON.stringify(audit.minor)}` : ''}`);
  fs.mkdirSync(path.dirname(AUDIT_LOG), { recursive: true });
  fs.appendFileSync(AUDIT_LOG, JSON.stringify({ screen: audit.screen, serious: audit.serious, minor: audit.minor, failing: audit.failing }) + '\n');
  return audit;
}

async function isExcepted(page: Page, rule: string, target: readonly unknown[]): Promise<boolean> {
  const named = EXCEPTIONS.filter((e) => e.rule === rule);
  if (named.length === 0 || target.length !== 1 || typeof target[0] !== 'string') return false;
  const selector = target[0];
  for (const e of named) {
    const matches = await page.evaluate(
      ([t, s]) => (globalThis as unknown as { document: { querySelector(q: string): { matches(q: string): boolean } | null } }).document.querySelector(t)?.matches(s) ?? false,
      [selector, e.selector] as const,
    );
    if (matches) return true;
  }
  return false;
}
