/** Query-string checks shared by the companion HTTP modules; each module renders ParamError in its own error shape. */
export class ParamError extends Error {}

/** A required parameter; an empty value counts as missing (`?user=` carries nothing usable). */
export function required(q: URLSearchParams, name: string): string {
  const v = q.get(name);
  if (v === null || v === '') throw new ParamError(`missing required parameter: ${name}`);
  return v;
}

/** An optional parameter; present-but-empty is rejected because it is almost always a client bug. */
export function optional(q: URLSearchParams, name: string): string | null {
  const v = q.get(name);
  if (v === null) return null;
  if (v === '') throw new ParamError(`invalid ${name}: empty value`);
  return v;
}

/** Unix seconds as a canonical non-negative integer string. */
export function unixSeconds(value: string, name: string): number {
  if (!/^(0|[1-9]\d{0,11})$/.test(value)) throw new ParamError(`invalid ${name}: expected Unix seconds as an integer`);
  return Number(value);
}
