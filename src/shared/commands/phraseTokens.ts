/**
 * The tokenizer of a typed command ("buy 0.1 btc at 3400"): the whole text is checked first (a length
 * bound, no control or invisible formatting characters), then split on spaces. "@3400" and "50%" are
 * split into their sign and number, so "at 3400", "@ 3400" and "@3400" read the same. Nothing is trimmed
 * out of a word or completed: the words are exactly what was typed.
 */

/** Longest command text read: far past any phrase a trader types; longer is refused, never cut. */
export const MAX_PHRASE_LENGTH = 200;

/** C0/C1 controls, and format characters (bidi overrides, zero-width joiners) that hide what is shown. */
const HIDDEN_CHARACTERS = /[\p{Cc}\p{Cf}]/u;

export interface PhraseToken {
  /** As typed (for messages: the trader sees their own word quoted back). */
  text: string;
  /** Lower case (for the keywords and the case-insensitive market match). */
  word: string;
}

/** Why the text cannot be read as a command at all (null when its words can be read). */
export function phraseTextProblem(text: unknown): string | null {
  if (typeof text !== 'string') return 'a command is text';
  if (text.length > MAX_PHRASE_LENGTH) return `longer than ${MAX_PHRASE_LENGTH} characters: not a command`;
  if (HIDDEN_CHARACTERS.test(text)) return 'contains control or invisible characters: type the command again';
  return null;
}

/** The words of a text that passed phraseTextProblem; runs of spaces separate words. */
export function tokenize(text: string): PhraseToken[] {
  const tokens: PhraseToken[] = [];
  for (const raw of text.split(' ')) {
    if (raw === '') continue;
    const parts: string[] = [];
    let rest = raw;
    if (rest.length > 1 && rest.startsWith('@')) {
      parts.push('@');
      rest = rest.slice(1);
    }
    if (rest.length > 1 && rest.endsWith('%')) parts.push(rest.slice(0, -1), '%');
    else parts.push(rest);
    for (const p of parts) tokens.push({ text: p, word: p.toLowerCase() });
  }
  return tokens;
}
