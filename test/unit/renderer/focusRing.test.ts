/**
 * The focus ring is never removed (#31 item 2): no style sheet rule for a focused state takes the ring
 * away (outline none or 0, box-shadow none) unless a ring is drawn for that same state by another rule, or
 * by the one named exception (an input inside its field frame: the frame draws the ring). A rule that
 * only restyles focus (a background) is fine. Read from the renderer's style sheets as text.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = path.join(__dirname, '../../../src/renderer/src/styles');
const SHEETS = fs.readdirSync(DIR).filter((f) => f.endsWith('.css'));

/** Selectors of focused states whose ring is drawn elsewhere, with why. */
const DRAWN_ELSEWHERE: Record<string, string> = {
  '.input-wrap .input:focus-visible': 'the field frame draws the ring (.input-wrap:focus-within)',
};

interface Rule {
  sheet: string;
  selector: string;
  body: string;
}

function rules(): Rule[] {
  const out: Rule[] = [];
  for (const sheet of SHEETS) {
    const text = fs.readFileSync(path.join(DIR, sheet), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const m of text.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
      for (const selector of m[1]!.split(',')) out.push({ sheet, selector: selector.trim(), body: m[2]! });
    }
  }
  return out;
}

const removesOutline = (body: string) => /(^|;|\s)outline\s*:\s*(none|0)\s*(;|$)/.test(body);
const removesShadow = (body: string) => /box-shadow\s*:\s*none/.test(body);
const drawsShadow = (body: string) => /box-shadow\s*:(?!\s*none)[^;]+/.test(body);
const drawsOutline = (body: string) => /outline\s*:(?!\s*(none|0)\s*(;|$))[^;]+/.test(body);

/** The focused-state rules that take the ring away with no rule drawing it again for that state. */
function ringRemovals(all: readonly Rule[]): string[] {
  const focusRules = all.filter((r) => /:focus(-visible|-within)?\b/.test(r.selector));
  const offenders: string[] = [];
  for (const r of focusRules) {
    if (!removesOutline(r.body) && !removesShadow(r.body)) continue;
    if (DRAWN_ELSEWHERE[r.selector]) continue;
    const same = focusRules.filter((o) => o.selector === r.selector);
    const drawn = same.some((o) => drawsOutline(o.body) || (drawsShadow(o.body) && !(o === r && removesShadow(r.body))));
    if (!drawn) offenders.push(`${r.sheet}: ${r.selector} { ${r.body.trim()} }`);
  }
  return offenders;
}

describe('the focus ring', () => {
  const all = rules();

  it('is drawn for every focused element (the global :focus-visible rule)', () => {
    const global = all.find((r) => r.selector === ':focus-visible');
    expect(global, 'a global :focus-visible rule').toBeDefined();
    expect(drawsShadow(global!.body) || drawsOutline(global!.body)).toBe(true);
  });

  it('is never taken away by a rule for a focused state without being drawn again', () => {
    expect(ringRemovals(all)).toEqual([]);
  });

  it('notices a rule that takes it away, and one that draws it again (the check is not vacuous)', () => {
    const off: Rule = { sheet: 'x.css', selector: '.x:focus-visible', body: 'background: red; outline: none;' };
    expect(ringRemovals([off])).toHaveLength(1);
    expect(ringRemovals([{ ...off, body: 'box-shadow: none;' }])).toHaveLength(1);
    expect(ringRemovals([off, { sheet: 'x.css', selector: '.x:focus-visible', body: 'box-shadow: inset 0 0 0 2px blue;' }])).toEqual([]);
    expect(ringRemovals([{ ...off, body: 'outline: none; box-shadow: var(--focus);' }])).toEqual([]);
  });
});
