/**
 * CSV export, RFC 4180: fields separated by commas, records ended by CRLF, a field containing a comma, a
 * double quote, CR or LF enclosed in double quotes with inner quotes doubled. Decimal strings from the
 * service are written exactly as received (never through a number, which could change them); null and
 * undefined are empty fields.
 */
export type CsvCell = string | number | boolean | null | undefined;

export interface CsvColumn<R> {
  header: string;
  value: (row: R) => CsvCell;
}

const NEEDS_QUOTES = /[",\r\n]/;

export function csvField(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  // Numbers here are only integers the service sends as JSON numbers (timestamps, versions, counts).
  const text = typeof cell === 'string' ? cell : String(cell);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRecord(cells: readonly CsvCell[]): string {
  return cells.map(csvField).join(',') + '\r\n';
}

/** A whole document: the header record, then one record per row. */
export function toCsv<R>(rows: readonly R[], columns: readonly CsvColumn<R>[]): string {
  let out = csvRecord(columns.map((c) => c.header));
  for (const row of rows) out += csvRecord(columns.map((c) => c.value(row)));
  return out;
}
