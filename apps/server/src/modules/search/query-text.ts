/**
 * What the search reads in a query's text: its words, and the abbreviations people type for the
 * vulnerability types the records spell out ("elementor xss" means Cross-Site Scripting).
 */

/** Each abbreviation as the records' titles write it (Wordfence's vulnerability type names). */
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ["xss", "cross site scripting"],
  ["sqli", "sql injection"],
  ["csrf", "cross site request forgery"],
  ["xsrf", "cross site request forgery"],
  ["ssrf", "server side request forgery"],
  ["rce", "remote code execution"],
  ["lfi", "local file inclusion"],
  ["rfi", "remote file inclusion"],
  ["idor", "insecure direct object reference"],
  ["xxe", "xml external entity"],
]);

/** The query's words, lower case: letters and digits only (never a full text operator), at most 8. */
export const wordsOf = (text: string): string[] =>
  (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);

/**
 * The text with each abbreviation outside quotes replaced by its words. Not as a quoted phrase: a
 * phrase is checked on every candidate's positions, and at 250,000 records `stored "cross site
 * scripting"` took 125 ms to count to the match limit against 9 ms for the words. A text that quotes
 * anything is the user's own phrasing and is left alone.
 */
export function expandAbbreviations(text: string): string {
  if (text.includes('"')) return text;
  return text.replace(/[\p{L}\p{N}]+/gu, (word) => ABBREVIATIONS.get(word.toLowerCase()) ?? word);
}
