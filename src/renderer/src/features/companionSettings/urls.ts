/** Checks of URLs typed into the companion settings (main checks again; this says it early). */
export function httpUrlProblem(text: string): string | undefined {
  const t = text.trim();
  if (t === '') return 'Required';
  let u: URL;
  try {
    u = new URL(t);
  } catch {
    return 'A full URL such as https://host/path';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'Must start with http:// or https://';
  return undefined;
}

export const SOURCE_TONE = { stored: 'accent', environment: 'info', simulator: 'warn', unset: 'sell' } as const;
export const SOURCE_TEXT = { stored: 'stored', environment: 'environment', simulator: 'simulator', unset: 'unset' } as const;
