/**
 * Ordering of WordPress plugin, theme and core version strings as real advisories write them
 * (".47.1", "5.8 beta 1", "17-07-2019", "44.0 (17-08-2023)", "1.0.0-rc1", "*"). Never throws.
 *
 * Rules, in order:
 * 1. `*` is the wildcard of "<= *" (every version): it sorts after every other version.
 * 2. Case, surrounding whitespace, a leading "v" ("v1.2") and text in parentheses ("(17-08-2023)")
 *    are ignored.
 * 3. The release is the run of numbers at the start, whatever separates them (".", "-", "_", " "):
 *    "17-07-2019" is 17.7.2019. A leading separator stands for a 0: ".47.1" is 0.47.1.
 *    Numbers compare numerically, of any length ("010" = "10"), and missing trailing numbers count
 *    as 0: 1.0 = 1.0.0 = 1.
 * 4. Equal releases are ordered by what follows them, read as labels each with an optional number:
 *    dev < alpha (a) < beta (b) < rc (pre, preview) < final < patch (p, pl, post, hotfix, sp).
 *    No suffix, "final", "stable", "release", "ga" and unrecognised words all count as final,
 *    so "1.0 free" = "1.0" and "1.0-rc1" < "1.0" < "1.0-patch1". A number after a label orders
 *    within it (rc1 < rc2; a missing number is 0); a number with no label before it is a final-level
 *    label ("1.0 beta 2 3"). Missing labels count as final 0: "1.0 beta" < "1.0".
 * Versions with no digits at all ("", "trunk") have release 0.
 */
export function compareVersions(left: string, right: string): -1 | 0 | 1 {
  const a = parseVersion(left);
  const b = parseVersion(right);
  if (a.wildcard || b.wildcard) return sign(Number(a.wildcard) - Number(b.wildcard));
  const length = Math.max(a.release.length, b.release.length);
  for (let index = 0; index < length; index++) {
    const order = compareNumbers(a.release[index] ?? "", b.release[index] ?? "");
    if (order !== 0) return order;
  }
  const labels = Math.max(a.labels.length, b.labels.length);
  for (let index = 0; index < labels; index++) {
    const x = a.labels[index] ?? FINAL_ZERO;
    const y = b.labels[index] ?? FINAL_ZERO;
    if (x.rank !== y.rank) return sign(x.rank - y.rank);
    const order = compareNumbers(x.number, y.number);
    if (order !== 0) return order;
  }
  return 0;
}

/** True when both strings name the same version under {@link compareVersions}. */
export function versionsEqual(left: string, right: string): boolean {
  return compareVersions(left, right) === 0;
}

interface Label {
  rank: number;
  /** Digits without leading zeros ("" for 0). */
  number: string;
  /** Whether a number followed the label word (so a further number starts a new label). */
  numbered: boolean;
}

/** Shared between calls (cached): never modified once read. */
interface ParsedVersion {
  readonly wildcard: boolean;
  readonly release: readonly string[];
  readonly labels: readonly Label[];
}

const RANK = { dev: 0, alpha: 1, beta: 2, rc: 3, final: 4, patch: 5 } as const;
const FINAL_ZERO: Label = { rank: RANK.final, number: "", numbered: true };

const LABEL_RANKS: Record<string, number> = {
  dev: RANK.dev,
  snapshot: RANK.dev,
  nightly: RANK.dev,
  alpha: RANK.alpha,
  a: RANK.alpha,
  beta: RANK.beta,
  b: RANK.beta,
  rc: RANK.rc,
  pre: RANK.rc,
  preview: RANK.rc,
  patch: RANK.patch,
  p: RANK.patch,
  pl: RANK.patch,
  post: RANK.patch,
  hotfix: RANK.patch,
  sp: RANK.patch,
};

/**
 * Parsed versions by input string. A batch check compares every item with every range bound of
 * its product, and the same few thousand strings come back in every batch: parsing (regular
 * expressions) was most of its cost. Cleared when full, which real data never fills.
 */
const parsedVersions = new Map<string, ParsedVersion>();
const PARSED_VERSIONS_LIMIT = 20_000;

function parseVersion(input: string): ParsedVersion {
  let parsed = parsedVersions.get(input);
  if (parsed === undefined) {
    if (parsedVersions.size >= PARSED_VERSIONS_LIMIT) parsedVersions.clear();
    parsed = readVersion(input);
    parsedVersions.set(input, parsed);
  }
  return parsed;
}

function readVersion(input: string): ParsedVersion {
  let text = input
    .toLowerCase()
    .replace(/\([^)]*\)?/g, " ")
    .trim();
  if (text === "*") return { wildcard: true, release: [], labels: [] };
  text = text.replace(/^v(?=\d)/, "");
  if (/^[._-]\d/.test(text)) text = `0${text}`;
  const tokens = text.match(/\d+|[a-z]+/g) ?? [];
  const release: string[] = [];
  let index = 0;
  for (; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (!isDigits(token)) break;
    release.push(stripZeros(token));
  }
  const labels: Label[] = [];
  let open: Label | null = null;
  for (; index < tokens.length; index++) {
    const token = tokens[index]!;
    if (isDigits(token)) {
      if (open && !open.numbered) {
        open.number = stripZeros(token);
        open.numbered = true;
      } else {
        open = { rank: RANK.final, number: stripZeros(token), numbered: true };
        labels.push(open);
      }
    } else {
      open = { rank: LABEL_RANKS[token] ?? RANK.final, number: "", numbered: false };
      labels.push(open);
    }
  }
  return { wildcard: false, release, labels };
}

function isDigits(token: string): boolean {
  const first = token.charCodeAt(0);
  return first >= 48 && first <= 57;
}

function stripZeros(digits: string): string {
  return digits.replace(/^0+/, "");
}

/** Compares non-negative integers written as digit strings without leading zeros ("" is 0). */
function compareNumbers(a: string, b: string): -1 | 0 | 1 {
  if (a.length !== b.length) return sign(a.length - b.length);
  return a < b ? -1 : a > b ? 1 : 0;
}

function sign(value: number): -1 | 0 | 1 {
  return value < 0 ? -1 : value > 0 ? 1 : 0;
}
