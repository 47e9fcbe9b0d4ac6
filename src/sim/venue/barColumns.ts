/**
 * A column of compact bars (whole ticks, lots, widths or trade counts) as the state file keeps it, in
 * base64: the differences between neighbours as zigzag LEB128 varints (`zz`), which neighbouring bars
 * make one or two bytes each; or, for a column whose steps are too large for that to be exact, the
 * values themselves as little-endian 32-bit integers (`i32`) or doubles (`f64`). A 200-market file held
 * 5.6 million such numbers: as JSON numbers they took half a second to parse and 45 MB of arrays at a
 * restart's peak; as varints the whole file is about a third of its size in numbers' text.
 */

/** One column: the base64 of its values in one of three forms. */
export type BarColumn = { zz: string } | { i32: string } | { f64: string };

/** Largest step encoded as a varint: its zigzag (twice it) stays an exact double. */
const MAX_STEP = 2 ** 51;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

export function encodeColumn(values: Float64Array): BarColumn {
  const varint = varintBytes(values);
  if (varint) return { zz: varint.toString('base64') };
  const narrow = values.every((x) => Number.isInteger(x) && x >= INT32_MIN && x <= INT32_MAX);
  const bytes = Buffer.alloc(values.length * (narrow ? 4 : 8));
  for (let i = 0; i < values.length; i++) {
    if (narrow) bytes.writeInt32LE(values[i]!, i * 4);
    else bytes.writeDoubleLE(values[i]!, i * 8);
  }
  return narrow ? { i32: bytes.toString('base64') } : { f64: bytes.toString('base64') };
}

/** The column as zigzag varints of its steps, or null when a value is not whole or a step too large. */
function varintBytes(values: Float64Array): Buffer | null {
  const out = Buffer.allocUnsafe(values.length * 8 + 8);
  let at = 0;
  let previous = 0;
  for (const x of values) {
    const step = x - previous;
    if (!Number.isSafeInteger(x) || !(Math.abs(step) <= MAX_STEP)) return null;
    previous = x;
    // Zigzag: 0, -1, 1, -2 ... as 0, 1, 2, 3 ...; arithmetic, not bit operations, past 32 bits.
    let z = step >= 0 ? step * 2 : -step * 2 - 1;
    while (z >= 128) {
      out[at++] = (z % 128) + 128;
      z = Math.floor(z / 128);
    }
    out[at++] = z;
  }
  return out.subarray(0, at);
}

/**
 * The column's bytes, or a throw when the text is not base64 as Buffer writes it (Buffer.from skips what is
 * not base64 without a word: a damaged column must not decode to other numbers). Checked by writing the
 * bytes back, natively: a pattern test over the 14 MB of a 200-market file took 95 ms of a restart.
 */
function bytesOf(column: BarColumn): Buffer {
  const text = 'zz' in column ? column.zz : 'f64' in column ? column.f64 : column.i32;
  if (typeof text !== 'string') throw new Error('is not base64');
  const bytes = Buffer.from(text, 'base64');
  if (bytes.toString('base64') !== text) throw new Error('is not base64');
  return bytes;
}

/**
 * The column's values, each a whole number of at least `min`: exactly `count` of them, or as many as it
 * holds when `count` is null. Anything else (a damaged or edited file) throws, saying what is wrong.
 */
export function decodeColumn(column: BarColumn, count: number | null, min: number): Float64Array {
  const bytes = bytesOf(column);
  const out = 'zz' in column ? fromVarints(bytes, count, min) : fromFixed(bytes, count, 'f64' in column ? 8 : 4);
  if ('zz' in column) return out;
  for (let i = 0; i < out.length; i++) {
    const x = out[i]!;
    if (!Number.isSafeInteger(x) || x < min) throw new Error(`value ${i} (${x}) is not a whole number of at least ${min}`);
  }
  return out;
}

function fromFixed(bytes: Buffer, count: number | null, width: 4 | 8): Float64Array {
  if (bytes.length % width !== 0) throw new Error(`holds ${bytes.length} bytes, not whole ${width}-byte values`);
  const n = bytes.length / width;
  if (count !== null && n !== count) throw new Error(`holds ${n} values for ${count} bars`);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = width === 8 ? bytes.readDoubleLE(i * 8) : bytes.readInt32LE(i * 4);
  return out;
}

/** Varints are whole by construction; each running value is checked as it is summed. */
function fromVarints(bytes: Buffer, count: number | null, min: number): Float64Array {
  let n = count;
  if (n === null) {
    n = 0;
    for (let i = 0; i < bytes.length; i++) if (bytes[i]! < 128) n++;
  }
  const out = new Float64Array(n);
  let at = 0;
  let previous = 0;
  for (let i = 0; i < n; i++) {
    let z = 0;
    let scale = 1;
    for (;;) {
      if (at >= bytes.length) throw new Error(`holds ${i} values for ${n} bars`);
      const b = bytes[at++]!;
      z += (b & 127) * scale;
      if (b < 128) break;
      scale *= 128;
      if (scale > 2 ** 56) throw new Error(`value ${i} is not a varint of at most 8 bytes`);
    }
    previous += z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    if (!Number.isSafeInteger(previous) || previous < min) throw new Error(`value ${i} (${previous}) is not a whole number of at least ${min}`);
    out[i] = previous;
  }
  if (at !== bytes.length) throw new Error(`holds more than ${n} values`);
  return out;
}
