/**
 * Issue 13, point 5: an inference service (or a proxy before it) may echo the API key it refused in
 * another spelling: upper-cased, in base64 or base64url (an Authorization header, Basic auth of
 * `user:key`), percent-encoded in a URL, as hex, or split into pieces. redactKey cuts every such echo,
 * and never an ordinary word.
 *
 * What remains is checked by decoding, not by re-encoding the key the way the code does: every
 * 8-character piece of the key is searched for in the output as is, case-folded, with separators
 * removed, percent-decoded, hex-decoded and base64-decoded at every alignment.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inferenceErrorOf, redactKey, REDACTED } from '../../src/main/api/companion/inferenceErrors.js';

const KEY = 'sk-proj-Q7vX2mLp9RtY4wZk8NbC3dFh';
/** A key whose characters change under URL encoding. */
const SYMBOL_KEY = 'AbC+dEf/GhI=jKl+MnO/pQr=StU+vWx9';

function windows(s: string, n = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i + n <= s.length; i++) out.push(s.slice(i, i + n));
  return out;
}

const alnum = (s: string): string => s.replace(/[^0-9a-z]/gi, '').toLowerCase();

/** Every reading of `output` that could hold the key, decoded independently of redactKey. */
function readings(output: string): string[] {
  const rest = output.split(REDACTED).join('\u0000');
  const out = [rest, rest.toLowerCase(), alnum(rest)];
  try {
    out.push(decodeURIComponent(rest));
  } catch {
    // Not percent-encoded as a whole; the pieces below still are.
  }
  for (const token of rest.match(/[0-9a-f]{8,}/gi) ?? []) {
    for (const drop of [0, 1]) out.push(Buffer.from(token.slice(drop), 'hex').toString('latin1'));
  }
  for (const token of rest.match(/[A-Za-z0-9+/_-]{6,}/g) ?? []) {
    for (let drop = 0; drop < 4; drop++) out.push(Buffer.from(token.slice(drop).replace(/-/g, '+').replace(/_/g, '/'), 'base64').toString('latin1'));
  }
  return out;
}

/** The 8-character pieces of `key` that some reading of `output` still holds. */
function revealed(output: string, key: string): string[] {
  const all = readings(output);
  const lowered = all.map((r) => r.toLowerCase());
  const skeletons = all.map(alnum);
  const found = windows(key).filter((w) => all.some((r) => r.includes(w)) || lowered.some((r) => r.includes(w.toLowerCase())));
  const skeletonKey = alnum(key);
  return [...found, ...windows(skeletonKey).filter((w) => skeletons.some((r) => r.includes(w)))];
}

function expectCut(message: string, key: string): string {
  const out = redactKey(message, key);
  expect(out).toContain(REDACTED);
  expect(revealed(out, key), out).toEqual([]);
  return out;
}

describe('redactKey cuts encoded echoes of the key', () => {
  it('in another case: upper-cased, lower-cased, every letter swapped', () => {
    const swapped = [...KEY].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
    expect(expectCut(`Incorrect API key provided: ${KEY.toUpperCase()}.`, KEY)).toBe(`Incorrect API key provided: ${REDACTED}.`);
    expect(expectCut(`key ${KEY.toLowerCase()} refused`, KEY)).toBe(`key ${REDACTED} refused`);
    expect(expectCut(`key ${swapped} refused`, KEY)).toBe(`key ${REDACTED} refused`);
  });

  it('in base64, unpadded base64 and base64url', () => {
    const b64 = Buffer.from(KEY).toString('base64');
    expectCut(`bad token ${b64}`, KEY);
    expectCut(`bad token ${b64.replace(/=+$/, '')}`, KEY);
    expectCut(`bad token ${Buffer.from(SYMBOL_KEY).toString('base64url')}`, SYMBOL_KEY);
    expectCut(`bad token ${Buffer.from(SYMBOL_KEY).toString('base64')}`, SYMBOL_KEY);
  });

  it('inside a Basic auth header, at each of the three base64 alignments', () => {
    for (const user of ['u', 'us', 'use', 'user']) {
      const header = `Basic ${Buffer.from(`${user}:${KEY}`).toString('base64')}`;
      const out = expectCut(`proxy refused "Authorization: ${header}"`, KEY);
      expect(out.startsWith('proxy refused "Authorization: Basic ')).toBe(true);
    }
  });

  it('percent-encoded in a URL (and form-encoded), whatever the case of the escapes', () => {
    const encoded = encodeURIComponent(SYMBOL_KEY);
    expect(encoded).not.toBe(SYMBOL_KEY);
    expectCut(`GET https://gateway.example/v1/models?api_key=${encoded} failed`, SYMBOL_KEY);
    expectCut(`GET /v1/models?api_key=${encoded.toLowerCase()} failed`, SYMBOL_KEY);
    expectCut(`body api_key=${new URLSearchParams({ k: SYMBOL_KEY }).toString().slice(2)}`, SYMBOL_KEY);
  });

  it('as hex, lower or upper case', () => {
    const hex = Buffer.from(KEY).toString('hex');
    expectCut(`key bytes ${hex}`, KEY);
    expectCut(`key bytes 0x${hex.toUpperCase()}`, KEY);
  });

  it('split across the message: in pieces of 4 (spaces, dashes, line breaks) and in two halves far apart', () => {
    const fours = (sep: string): string => KEY.match(/.{1,4}/g)!.join(sep);
    for (const sep of [' ', '-', '\n', ' | ']) expect(expectCut(`key ${fours(sep)} refused`, KEY)).toBe(`key ${REDACTED} refused`);
    const half = KEY.length / 2;
    expectCut(`first part ${KEY.slice(0, half)}; (other text in between) last part ${KEY.slice(half)}`, KEY);
  });

  it('inferenceErrorOf: the typed error holds no encoded echo', () => {
    const b64 = Buffer.from(`user:${KEY}`).toString('base64');
    const err = inferenceErrorOf(401, { error: { message: `Bearer ${KEY.toUpperCase()} / Basic ${b64}`, type: 'authentication_error', code: 'invalid_api_key' } }, null, KEY);
    expect(revealed(err.serverMessage, KEY)).toEqual([]);
    expect(revealed(err.message, KEY)).toEqual([]);
  });
});

describe('redactKey leaves ordinary text alone', () => {
  const ORDINARY = [
    'The model `gpt-mini-2024-07-18` does not exist or you do not have access to it.',
    'Rate limit reached for requests per minute (RPM): limit 500, used 500, requested 1. Please try again in 120ms.',
    'Invalid value for temperature: 3.5 is greater than the maximum of 2. See https://docs.example.com/api#temperature',
    'Request id req_8f14e45fceea167a5a36dedd4bea2543 failed; organization org-Abc123 has no access. Trace 0x5f3759df.',
    'Your account balance is insufficient: deposit at least 5 USD, or lower max_tokens (requested 128000).',
    'Authentication failed: the header must be "Authorization: Bearer <key>"; the key ends in ...Fh (4 characters are shown on purpose).',
  ];

  it('a service message is unchanged for the key and for 200 random keys of several shapes', () => {
    const keys = [KEY, SYMBOL_KEY];
    for (let i = 0; i < 200; i++) {
      const bytes = randomBytes(24 + (i % 24));
      keys.push(i % 3 === 0 ? `sk-proj-${bytes.toString('base64url')}` : i % 3 === 1 ? bytes.toString('hex') : bytes.toString('base64'));
    }
    for (const key of keys) for (const m of ORDINARY) expect(redactKey(m, key), key).toBe(m);
  });

  it('the 4-character tail services show on purpose stays, in any spelling', () => {
    expect(redactKey(`the key ending in ${KEY.slice(-4)} was revoked`, KEY)).toBe(`the key ending in ${KEY.slice(-4)} was revoked`);
    expect(redactKey(`the key ending in ${KEY.slice(-4).toUpperCase()} was revoked`, KEY)).toBe(`the key ending in ${KEY.slice(-4).toUpperCase()} was revoked`);
  });
});
