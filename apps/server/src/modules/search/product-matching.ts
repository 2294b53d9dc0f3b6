import { slugify } from "@pressguard/domain";
import type { ProductMatchRow, ProductQueries } from "./product-queries.ts";
import { isSlipOf, wordsOf } from "./query-text.ts";

/** Shorter texts are alike to too many names to be worth a guess. */
export const ALIKE_MIN_LENGTH = 4;
/** How alike (pg_trgm, 0 to 1) a product must be to be taken for the one a misspelt query means. */
const ALIKE_ENOUGH = 0.5;
/** A suggested query is the product's name when it is this short, otherwise its slug. */
const SHORT_NAME = 30;

export interface ProductsNamed {
  /** The products the query names, best first. */
  products: ProductMatchRow[];
  /** The product whose records the search lists first; null when the query names none for sure. */
  named: ProductMatchRow | null;
  /** The query's other words, looked for among the named product's records ("xss" of "elementor xss"). */
  rest: string | undefined;
  /** When no product is named as typed: the query that names the one most alike. */
  didYouMean: string | null;
  /**
   * Why the product named may not be the one meant, so that the products alike are asked even when
   * it is popular: `partial`, named by some of the words only, the others not found in its name
   * (`popup builder by optinmonstr` is not Popup Builder); `obscure`, a little-used product named
   * exactly (`wp optimizer`, a typo of WP-Optimize, is also the name of a plugin of 100 installs).
   */
  doubt?: "partial" | "obscure" | undefined;
}

const NONE: ProductsNamed = { products: [], named: null, rest: undefined, didYouMean: null };

/** A product worth listing the records of first: one that has records. */
const withRecords = (row: ProductMatchRow | undefined) => (row && row.vulnerabilities > 0 ? row : null);

/** Installs from which a product the words start is surely the one meant, not a misspelling. */
const SURELY_MEANT_INSTALLS = 100_000;
/** How much more installed a product alike must be to be taken over one the words start. */
const MORE_POPULAR = 10;
/** How much more installed a product must be to come before one whose name starts with the words. */
const COMPARABLY_POPULAR = 3;
/** Fewer installs than this: a little-used plugin, which a popular product named alike may beat. */
const OBSCURE_INSTALLS = 10_000;
/** How much more installed a product alike must be to be taken over a little-used one named exactly. */
const FAR_MORE_POPULAR = 100;

const installsOf = (row: ProductMatchRow) => row.active_installs ?? 0;

/**
 * A plugin few sites use, or none the directory knows of (`known`: only one the directory lists with
 * few installs, not a premium or closed one). Themes and core have no count.
 */
const isObscure = (row: ProductMatchRow, known = false) =>
  row.kind === "plugin" && (!known || row.active_installs !== null) && installsOf(row) < OBSCURE_INSTALLS;

/** A name's or slug's words, lower case. */
const wordsIn = (row: ProductMatchRow) => [wordsOf(row.name, Infinity), wordsOf(row.slug, Infinity)];

/**
 * Whether the product's name or slug starts with the words (`site kit`: "Site Kit by Google"), or,
 * `asPrefixes`, with words they start (`paid membership pro`: "Paid Memberships Pro").
 */
const startsWithWords = (row: ProductMatchRow, words: string[], asPrefixes = false) =>
  wordsIn(row).some((spelled) =>
    words.every((word, index) => (asPrefixes ? spelled[index]?.startsWith(word) : spelled[index] === word)),
  );

/**
 * The products the words start, first one with records whose name starts with them when the first
 * is not much more installed: `paid membership pro` is Paid Memberships Pro (90,000 installs), not
 * ProfilePress (200,000), whose long name holds the words further on; `acf` stays Advanced Custom
 * Fields (2 million) rather than an add-on named "ACF: …", `security` Wordfence Security (5 million)
 * rather than Security Optimizer (1 million).
 */
function leadersFirst<Row extends ProductMatchRow & { exact: boolean }>(rows: Row[], words: string[]) {
  const top = rows[0];
  if (!top || top.exact) return rows;
  const leader = rows.find(
    (row) =>
      row.vulnerabilities > 0 &&
      startsWithWords(row, words, true) &&
      COMPARABLY_POPULAR * installsOf(row) >= installsOf(top),
  );
  return leader && leader !== top ? [leader, ...rows.filter((row) => row !== leader)] : rows;
}

/** Whether a word of the product's name or slug starts with `word`, or is `word` with a slip. */
const inNameOf = (row: ProductMatchRow, word: string) =>
  wordsIn(row).some((spelled) => spelled.some((each) => each.startsWith(word) || isSlipOf(word, each)));

/**
 * A popular product the words name as well as a little-used one named exactly: `site kit` is Site
 * Kit by Google (4 million installs) rather than a plugin called Sitekit (2,000), `limit login
 * attempts` Limit Login Attempts Reloaded rather than the closed original, `wp google map` WP Google
 * Maps. Its name or slug must start with the words (`wpml` is not WooCommerce Multilingual "with
 * WPML") or be the text with a slip, and it must have records.
 */
function popularOver(exact: ProductMatchRow, rows: ProductMatchRow[], text: string, words: string[]) {
  if (!isObscure(exact)) return undefined;
  return rows.find(
    (row) =>
      row !== exact &&
      row.vulnerabilities > 0 &&
      installsOf(row) >= SURELY_MEANT_INSTALLS &&
      (startsWithWords(row, words) || isSlipOfProduct(text, row)),
  );
}

/**
 * The products a query names, tried in this order (issue 17's product-first search):
 * 1. the query is a product's slug or name (`contact form 7`, `updraft plus`), the most installed
 *    of those first, and a popular product named as well before a little-used one (`popularOver`);
 * 2. it starts or ends with a product's slug, name or brand (`elementor xss`, `givewp php object
 *    injection`): the rest of the words then search that product's records, unless they are in its
 *    name too (issue 35: `email subscribers by icegram expres`);
 * 3. every word starts a word of the product's name or slug (`woocomm`, `essential addons`): the
 *    most installed first (`leadersFirst`).
 * A misspelling is `misspeltProduct`'s, asked only when these leave doubt (see there and `doubt`).
 */
export async function productsNamed(
  queries: ProductQueries,
  text: string,
  kind: string | undefined,
  limit: number,
): Promise<ProductsNamed> {
  const words = wordsOf(text);
  if (words.length === 0) return NONE;
  const slugs = [...new Set([slugify(text), words.join("")].filter(Boolean))];
  // The products at the query's ends are read beside those its words start: a read by index, wasted
  // only when the words name a product exactly.
  const atEndsRead = words.length > 1 ? productAtEnds(queries, words, kind, limit) : null;
  atEndsRead?.catch(() => {});
  const byWords = leadersFirst(
    (await queries.byWords({ words, slugs, kind }, { order: "search", limit, offset: 0, count: false })).rows,
    words,
  );
  const top = byWords[0];
  if (top?.exact) {
    const popular = popularOver(top, byWords, text, words);
    if (popular) {
      const products = [popular, ...byWords.filter((row) => row !== popular)];
      return { products, named: popular, rest: undefined, didYouMean: null };
    }
    // The products alike are asked only over a plugin the directory lists with few installs: asking
    // over every premium plugin named exactly (`elementor pro`) would cost each such search.
    const doubt = isObscure(top, true) ? "obscure" : undefined;
    return { products: byWords, named: withRecords(top), rest: undefined, didYouMean: null, doubt };
  }

  const atEnds = await atEndsRead;
  // A product the query starts with, named in two words or more, beats names its words only start
  // (`contact form 7 file upload` is not an add-on named "File Upload for Contact Form 7"), unless
  // that is more installed (`popup builder by optinmonster` is not Popup Builder).
  const byRun =
    atEnds &&
    (!top ||
      atEnds.row.id === top.id ||
      (atEnds.run.length >= 2 && installsOf(atEnds.row) >= installsOf(top)));
  if (atEnds && byRun) {
    const others = words.filter((word) => !atEnds.run.includes(word));
    // The other words in the product's name too, as typed or with a slip (`popup bulider by
    // optinmonster`): the query is its name, not words to look for among its records.
    const rest = others.every((word) => inNameOf(atEnds.row, word)) ? undefined : others.join(" ");
    return {
      products: [
        atEnds.row,
        ...(top ? byWords : atEnds.others).filter((row) => row.id !== atEnds.row.id),
      ].slice(0, limit),
      named: withRecords(atEnds.row),
      rest: rest || undefined,
      didYouMean: null,
      doubt: rest ? "partial" : undefined,
    };
  }
  return { products: byWords, named: withRecords(top), rest: undefined, didYouMean: null };
}

/**
 * Whether what `productsNamed` found leaves room for a misspelling: no product, only little-used
 * ones (`elementr` starts Elementra's name, not Elementor's), or one it doubts. A popular product
 * named by all the words is the one meant.
 */
export const mayBeMisspelt = (named: ProductsNamed, text: string) =>
  text.trim().length >= ALIKE_MIN_LENGTH &&
  (named.doubt !== undefined || (named.products[0]?.active_installs ?? 0) < SURELY_MEANT_INSTALLS);

/** Whether the text is the product's slug or name with a slip (`dupliactor`), spaces and hyphens aside. */
function isSlipOfProduct(text: string, row: ProductMatchRow) {
  const compact = (value: string) => wordsOf(value, Infinity).join("");
  const typed = compact(text);
  return [row.slug, row.name.replace(NAME_TAGLINE, "")].some((form) => isSlipOf(typed, compact(form)));
}

/** What follows a name's brand (PRODUCT_TAGLINE_PATTERN, the database's short name). */
const NAME_TAGLINE = /\s*(:|\s[–—|-])\s.*$/u;

/**
 * The product a misspelt query means (pg_trgm, `elementr`, `contact from 7`), with the products alike.
 * It is alike enough (or the query is its name with a slip) and has records; over what the words
 * named as typed, it is also: far more installed, and more alike or a slip away; or, when that was
 * named by some of the words only, the first of the products alike to the whole query (`website
 * builder by seeprod`: SeedProd's Website Builder, not a plugin whose slug is website-builder); or,
 * over a little-used product named exactly, a popular one whose name the query is with a slip
 * (`wp optimizer`: WP-Optimize). Null when there is none, or it is what the words named already.
 */
export async function misspeltProduct(
  queries: ProductQueries,
  text: string,
  kind: string | undefined,
  limit: number,
  named: ProductsNamed,
): Promise<ProductsNamed | null> {
  const alike = await queries.alike(text.trim().toLowerCase(), kind, limit);
  const top = named.products[0];
  const alikeEnough = (row: (typeof alike)[number]) =>
    (row.likeness >= ALIKE_ENOUGH || isSlipOfProduct(text, row)) && row.vulnerabilities > 0;
  const beats = (row: (typeof alike)[number]) => {
    if (!top) return true;
    if (row.id === top.id) return false;
    // Named by some of the words: the order of the products alike to the whole query decides.
    if (named.doubt === "partial") return true;
    if (named.doubt === "obscure") {
      return (
        isSlipOfProduct(text, row) &&
        installsOf(row) >= Math.max(SURELY_MEANT_INSTALLS, FAR_MORE_POPULAR * installsOf(top))
      );
    }
    // Over words that start a product's name (`generatepress`: GeneratePress Premium), only a
    // product more alike, or the words with a slip (`elementr`, which starts Elementra).
    const likenessOfTop = alike.find((each) => each.id === top.id)?.likeness ?? 0;
    return (
      installsOf(row) >= MORE_POPULAR * installsOf(top) &&
      (row.likeness > likenessOfTop || isSlipOfProduct(text, row))
    );
  };
  // Over a little-used product named exactly, any of the products alike may be the one meant (that
  // product itself is the most alike); otherwise the most alike only.
  const best = named.doubt === "obscure" ? alike.find((row) => alikeEnough(row) && beats(row)) : alike[0];
  const meant = best && alikeEnough(best) && beats(best);
  if (!meant) return named.products.length > 0 ? null : { ...NONE, products: alike };
  return {
    products: [best, ...alike.filter((row) => row !== best)],
    named: best,
    rest: undefined,
    didYouMean: best.name.length <= SHORT_NAME ? best.name : best.slug,
  };
}

/** The product whose slug, name or short name is the longest run of words at either end of the query. */
async function productAtEnds(
  queries: ProductQueries,
  words: string[],
  kind: string | undefined,
  limit: number,
) {
  const runs: string[][] = [];
  for (let length = words.length - 1; length >= 1; length--) {
    runs.push(words.slice(0, length), words.slice(words.length - length));
  }
  const rows = await queries.exactly(
    runs.flatMap((run) => [run.join("-"), run.join("")]),
    runs.map((run) => run.join(" ")),
    kind,
    limit,
  );
  const runOf = (row: (typeof rows)[number]) => {
    const spelled = [row.slug.toLowerCase(), row.name.toLowerCase(), row.short_name];
    return runs.find((run) =>
      [run.join("-"), run.join(""), run.join(" ")].some((form) => spelled.includes(form)),
    );
  };
  const found = rows
    .map((row) => ({ row, run: runOf(row) ?? [] }))
    .sort((a, b) => b.run.length - a.run.length)[0];
  return found ? { ...found, others: rows.filter((row) => row !== found.row) } : null;
}
