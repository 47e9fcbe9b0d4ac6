/** spdx-satisfies ships no types: satisfies(expression, approved identifiers). It throws on an invalid expression. */
declare module 'spdx-satisfies' {
  export default function satisfies(expression: string, approved: string[]): boolean;
}
