/**
 * `--dry-run` on a signing command: the prepare step runs (every check against the live service, the
 * nonce reserved, the exact typed data built) and what would be signed is printed; nothing is signed or
 * sent, and the exit code is 0. A person reads the plain line of each order leg first, then the review (the view), then each signature's label, its
 * EIP-712 typed data (domain, types, primaryType, message: what a wallet shows) and its digest, which any
 * EIP-712 implementation recomputes from the typed data printed. Bridges and swaps sign transactions, not
 * typed data: their view lists the transactions to sign (to, value, data, gas).
 *
 * With --json the one document is { dry_run: true, action, signer: { role, address }, view, requests:
 * [{ label, digest, typed_data }] }.
 */
import type { PreparedBase } from '../main/services/signing/prepared.js';
import { typedDataView, type TypedDataView } from '../shared/signingViews.js';
import type { Output } from './output.js';

export interface DryRunDocument {
  dry_run: true;
  action: string;
  signer: { role: string; address: string };
  view: unknown;
  requests: { label: string; digest: string; typed_data: TypedDataView }[];
}

/** The --json document of a dry run (bigints, should a view hold any, as decimal strings). */
export function dryRunDocument(prepared: PreparedBase, view: unknown): DryRunDocument {
  return {
    dry_run: true,
    action: prepared.action,
    signer: { role: prepared.signer.role, address: prepared.signer.address },
    view: JSON.parse(JSON.stringify(view ?? null, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as unknown,
    requests: prepared.requests.map((r) => ({ label: r.label, digest: r.digest, typed_data: typedDataView(r.typedData) })),
  };
}

/** Prints what `prepared` would sign (the command's one result); signs and sends nothing. */
export function printDryRun(out: Output, prepared: PreparedBase, view: unknown): void {
  const doc = dryRunDocument(prepared, view);
  out.result(doc, () => humanDryRun(doc));
}

/** Keys of a view that carry what is signed in full (they come with --verbose or --json). */
const SIGNED_DETAIL_KEYS = new Set(['typed_data', 'summary', 'digest']);

function withoutSignedDetail(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSignedDetail);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([k]) => !SIGNED_DETAIL_KEYS.has(k)).map(([k, v]) => [k, withoutSignedDetail(v)]));
}

/**
 * The review a person reads before saying yes (`perps do` without --yes): what each leg does and the
 * review's fields, one screen; the typed data and digests of every signature come with `verbose` (and
 * always in the --json document, which is the dry run's).
 */
export function printReview(out: Output, prepared: PreparedBase, view: unknown, verbose: boolean): void {
  const doc = dryRunDocument(prepared, view);
  out.result(doc, () => {
    if (verbose) return humanDryRun(doc);
    const lines: string[] = [`REVIEW: nothing was signed or sent. This ${doc.action} would be signed by the ${doc.signer.role} ${doc.signer.address}.`, ''];
    const plain = describedLegs(doc.view);
    if (plain.length > 0) lines.push(...plain.map((l) => (plain.length > 1 ? `${l.label}: ${l.description}` : l.description)), '');
    lines.push(...render(withoutSignedDetail(doc.view), ''));
    lines.push('', `${doc.requests.length} signature${doc.requests.length === 1 ? '' : 's'}; --verbose prints the typed data and digests that would be signed.`);
    return lines.join('\n');
  });
}

function humanDryRun(doc: DryRunDocument): string {
  const lines: string[] = [`DRY RUN: nothing was signed or sent. This ${doc.action} would be signed by the ${doc.signer.role} ${doc.signer.address}.`, ''];
  const plain = describedLegs(doc.view);
  if (plain.length > 0) lines.push(...plain.map((l) => (plain.length > 1 ? `${l.label}: ${l.description}` : l.description)), '');
  lines.push(...render(doc.view, ''));
  doc.requests.forEach((r, i) => {
    const t = r.typed_data;
    lines.push('', `signature ${i + 1} of ${doc.requests.length}: ${r.label}${r.label === t.primaryType ? '' : ` (${t.primaryType})`}`, `  digest: ${r.digest}`);
    lines.push('  EIP-712 typed data:', `    domain: ${Object.entries(t.domain).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(', ')}`, `    primaryType: ${t.primaryType}`, '    types:');
    // The encodeType strings: with the domain and message they are all a digest is computed from.
    for (const [name, fields] of Object.entries(t.types)) lines.push(`      ${name}(${fields.map((f) => `${f.type} ${f.name}`).join(',')})`);
    lines.push('    message:', ...Object.entries(t.message).map(([k, v]) => `      ${k}: ${String(v)}`));
  });
  if (doc.requests.length === 0) lines.push('', 'No typed data is signed: the wallet signs the transactions listed above.');
  return lines.join('\n');
}

/**
 * The plain line of every order leg in the view (an order review's legs, a reverse's entry), in order:
 * what a person reads first, before the review's fields and the typed data.
 */
function describedLegs(view: unknown): { label: string; description: string }[] {
  if (view === null || typeof view !== 'object') return [];
  const out: { label: string; description: string }[] = [];
  for (const [key, value] of Object.entries(view as Record<string, unknown>)) {
    if (key === 'legs' && Array.isArray(value)) {
      for (const leg of value as unknown[]) {
        const l = leg as { label?: unknown; description?: unknown };
        if (typeof l.description === 'string') out.push({ label: typeof l.label === 'string' ? l.label : 'leg', description: l.description });
      }
    } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out.push(...describedLegs(value));
    }
  }
  return out;
}

/** A plain-data value as indented "key: value" lines (objects nest, arrays list their items). */
function render(value: unknown, indent: string): string[] {
  if (value === null || typeof value !== 'object') return [`${indent}${scalar(value)}`];
  const out: string[] = [];
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [`[${i + 1}]`, v]) : Object.entries(value as Record<string, unknown>);
  for (const [key, v] of entries) {
    if (v !== null && typeof v === 'object' && (Array.isArray(v) ? v.length > 0 : Object.keys(v).length > 0)) {
      out.push(`${indent}${key}:`);
      out.push(...render(v, `${indent}  `));
    } else {
      out.push(`${indent}${key}: ${Array.isArray(v) ? '(none)' : v !== null && typeof v === 'object' ? '{}' : scalar(v)}`);
    }
  }
  return out;
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return '-';
  return typeof v === 'string' ? v : JSON.stringify(v);
}
