/** Crawler operators as the matrix shows them (plain functions, tested in Node). */

/**
 * An operator in a few words: markdown links reduced to their text, "unclear" left out, long descriptions cut at
 * their first clause (the whole text stays in the row's tooltip).
 */
export function shortOperator(operator: string): string {
  const text = operator.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').trim();
  if (text === '' || /^(unclear|unknown)/i.test(text)) return '';
  const cut = text
    .split(/[,;(]\s*|\.\s/)[0]!
    .replace(/\.$/, '')
    .trim();
  return cut.length > 32 ? `${cut.slice(0, 31)}…` : cut;
}
