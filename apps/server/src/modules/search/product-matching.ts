import { slugify } from "@pressguard/domain";
import type { ProductMatchRow, ProductQueries } from "./product-queries.ts";
import { wordsOf } from "./query-text.ts";

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
}

const NONE: ProductsNamed = { products: [], named: null, rest: undefined, didYouMean: null };

/** A product worth listing the records of first: one that has records. */
const withRecords = (row: ProductMatchRow | undefined) => (row && row.vulnerabilities > 0 ? row : null);

/** Installs from which a product the words start is surely the one meant, not a misspelling. */
const SURELY_MEANT_INSTALLS = 100_000;
/** How much more installed a product alike must be to be taken over one the words start. */
const MORE_POPULAR = 10;

/**
 * The products a query names, tried in this order (issue 17's product-first search):
 * 1. the query is a product's slug or name (`contact form 7`, `updraft plus`);
 * 2. it starts or ends with a product's slug, name or brand (`elementor xss`, `givewp php object
 *    injection`): the rest of the words then search that product's records;
 * 3. every word starts a word of the product's name or slug (`woocomm`, `essential addons`): the
 *    most installed first.
 * A misspelling is `misspeltProduct`'s, asked only when these leave doubt (see there).
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
  const byWords = (
    await queries.byWords({ words, slugs, kind }, { order: "search", limit, offset: 0, count: false })
  ).rows;
  const top = byWords[0];
  if (top?.exact) return { products: byWords, named: withRecords(top), rest: undefined, didYouMean: null };

  const atEnds = words.length > 1 ? await productAtEnds(queries, words, kind, limit) : null;
  // A product the query starts with, named in two words or more, beats names its words only start.
  if (atEnds && (!top || atEnds.run.length >= 2)) {
    return {
      products: [atEnds.row, ...(top ? byWords : atEnds.others)].slice(0, limit),
      named: withRecords(atEnds.row),
      rest: words.filter((word) => !atEnds.run.includes(word)).join(" ") || undefined,
      didYouMean: null,
    };
  }
  return { products: byWords, named: withRecords(top), rest: undefined, didYouMean: null };
}

/**
 * Whether what `productsNamed` found leaves room for a misspelling: no product, or only little-used
 * ones (`elementr` starts Elementra's name, not Elementor's). A popular product named as typed is
 * the one meant.
 */
export const mayBeMisspelt = (named: ProductsNamed, text: string) =>
  text.trim().length >= ALIKE_MIN_LENGTH && (named.products[0]?.active_installs ?? 0) < SURELY_MEANT_INSTALLS;

/**
 * The product a misspelt query means (pg_trgm, `elementr`, `contact from 7`), with the products alike:
 * alike enough, with records, and far more installed than what the words named as typed. Null when
 * there is none, or it is what the words named already.
 */
export async function misspeltProduct(
  queries: ProductQueries,
  text: string,
  kind: string | undefined,
  limit: number,
  named: ProductsNamed,
): Promise<ProductsNamed | null> {
  const alike = await queries.alike(text.trim().toLowerCase(), kind, limit);
  const best = alike[0];
  const top = named.products[0];
  const meant =
    best &&
    best.likeness >= ALIKE_ENOUGH &&
    best.vulnerabilities > 0 &&
    (!top ||
      (best.id !== top.id && (best.active_installs ?? 0) >= MORE_POPULAR * (top.active_installs ?? 0)));
  if (!meant) return named.products.length > 0 ? null : { ...NONE, products: alike };
  return {
    products: alike,
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
