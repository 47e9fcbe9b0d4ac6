/**
 * Which licences a production dependency of Perps Desk may carry. The app is shipped as a binary to
 * people who trade with it: permissive licences (and MPL-2.0, whose file-level copyleft the unmodified
 * files satisfy) are fine; network or strong copyleft (GPL, AGPL, SSPL), source-available terms such as
 * the Trezor packages' T-RSL, and anything unknown or guessed are not, until someone reviews them.
 *
 * The expression is judged by spdx-satisfies (SPDX's AND/OR rules: `MIT OR GPL-3.0` passes, `MIT AND
 * AGPL-3.0` does not). license-checker's own --onlyAllow is not used: it passes a licence when an allowed
 * name is a substring of it, so "(MIT AND AGPL-3.0-only)" would pass an allowlist holding MIT.
 */
import satisfies from 'spdx-satisfies';

/** SPDX identifiers a production dependency may carry (an expression must be satisfiable by them). */
export const ALLOWED_LICENSES = [
  'MIT',
  'MIT-0',
  'X11',
  'ISC',
  '0BSD',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'Apache-2.0',
  'MPL-2.0',
  'BlueOak-1.0.0',
  'CC0-1.0',
  'CC-BY-3.0',
  'CC-BY-4.0',
  'Unlicense',
  'Python-2.0',
  'Zlib',
  'WTFPL',
] as const;

/** Families refused by name, so the message says why rather than only "not allowed". */
const REFUSED_FAMILIES: readonly { pattern: RegExp; why: string }[] = [
  { pattern: /\bAGPL/i, why: 'AGPL (network copyleft)' },
  { pattern: /\bSSPL/i, why: 'SSPL (service copyleft)' },
  { pattern: /\bT-?RSL\b|Trezor/i, why: 'T-RSL (source-available, not open source)' },
  { pattern: /\bLGPL/i, why: 'LGPL (copyleft)' },
  { pattern: /\bGPL/i, why: 'GPL (copyleft)' },
];

export type Verdict = { ok: true } | { ok: false; reason: string };

/**
 * The verdict on one package's licence as license-checker reports it: a string (an SPDX expression, a
 * name, "UNKNOWN", "Custom: <url>", or a guess from the licence file marked with a trailing '*') or a
 * list (the old `licenses` array, every entry of which must pass).
 */
export function judgeLicense(licenses: string | readonly string[] | undefined): Verdict {
  if (licenses === undefined) return { ok: false, reason: 'unknown licence (none declared)' };
  if (Array.isArray(licenses)) {
    if (licenses.length === 0) return { ok: false, reason: 'unknown licence (none declared)' };
    for (const one of licenses) {
      const verdict = judgeLicense(one);
      if (!verdict.ok) return verdict;
    }
    return { ok: true };
  }
  const text = (licenses as string).trim();
  if (text === '' || /^UNKNOWN$/i.test(text) || /^UNLICENSED$/i.test(text)) return { ok: false, reason: `unknown licence (${text || 'empty'})` };
  if (text.endsWith('*')) return { ok: false, reason: `licence guessed from its files (${text}), not declared` };
  if (/^Custom:/i.test(text)) return { ok: false, reason: `custom licence (${text})` };
  let allowed: boolean;
  try {
    allowed = satisfies(text, [...ALLOWED_LICENSES]);
  } catch {
    allowed = false;
  }
  if (allowed) return { ok: true };
  const refused = REFUSED_FAMILIES.find((f) => f.pattern.test(text));
  return { ok: false, reason: refused ? `${text}: ${refused.why}` : `${text}: not in the allowlist` };
}
