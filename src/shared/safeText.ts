/**
 * Text from outside (a device, a service, a file) made safe for a terminal or a notification (issue 36:
 * an ESC/OSC sequence in a Trezor label, a Failure message, a fill's `dir` or an alert note cleared the
 * screen, wrote the clipboard through OSC 52, or forged a "signed OK" line). Every control character goes
 * (C0 but the line breaks a document keeps, DEL, C1, which 8-bit terminals read as CSI and OSC), and so do
 * the Unicode controls that reorder or hide text (bidi embeddings, overrides and isolates, the marks,
 * line and paragraph separators, the BOM/zero-width no-break space). What remains prints as itself.
 *
 * Stripping, not escaping: a person reads the result, and "\x1b]52;..." shown raw would still be noise;
 * the JSON document keeps exact data, with only the invisible reorderers escaped (jsonForTerminal).
 */

/** Bidi and other invisible format controls that reorder or hide what a person reads. */
const BIDI = '\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029\uFEFF';
/** Every control but tab, line feed and carriage return (a CR is kept only before its LF, below). */
const CONTROLS_KEEP_LINES = new RegExp(`[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F${BIDI}]`, 'g');
const CONTROLS_ALL = new RegExp(`[\\u0000-\\u001F\\u007F-\\u009F${BIDI}]`, 'g');
const BIDI_ONLY = new RegExp(`[${BIDI}]`, 'g');

/**
 * A document for a terminal: line breaks (LF, and CRLF as a CSV writes them) and tabs kept, every other
 * control and bidi character removed; a lone CR (which returns to the start of the line to overwrite
 * it) goes too.
 */
export function terminalText(text: string): string {
  return text.replace(/\r(?!\n)/g, '').replace(CONTROLS_KEEP_LINES, '');
}

/**
 * One field (a label, a message, a table cell, a notification title): no control or bidi character at
 * all, and line breaks and tabs become spaces, so it can never start a line of its own.
 */
export function oneLineText(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').replace(CONTROLS_ALL, '');
}

/**
 * A JSON document for a terminal: JSON.stringify already escapes C0 controls; DEL, C1 and the bidi
 * controls it leaves raw are escaped too (\uXXXX), so the document parses to exactly the same data.
 */
export function jsonForTerminal(json: string): string {
  return json.replace(/[\u007F-\u009F]/g, escapeChar).replace(BIDI_ONLY, escapeChar);
}

function escapeChar(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
