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
export const wordsOf = (text: string, most = 8): string[] =>
  (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, most);

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

/**
 * Whether `typed` is `word` with one slip (a letter dropped, added or changed, or two letters
 * swapped), or two in a word of eight letters or more. Words under four letters are taken as typed:
 * too many words are a slip away from them.
 */
export function isSlipOf(typed: string, word: string): boolean {
  if (typed.length < 4) return false;
  const allowed = typed.length >= 8 ? 2 : 1;
  return Math.abs(typed.length - word.length) <= allowed && editDistance(typed, word) <= allowed;
}

/** Damerau–Levenshtein distance (the optimal string alignment variant): a swapped pair is one edit. */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, (before[j - 2] ?? 0) + 1);
      }
      current.push(distance);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}
